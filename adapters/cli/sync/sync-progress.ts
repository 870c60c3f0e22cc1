import type { SyncPageEvent } from '../../../clients/typescript/src/index.js';
import type { CliIo } from '../cli-io.js';

const SPINNER = ['|', '/', '-', '\\'] as const;
/** A terminal line is redrawn at most this often, however fast pages come. */
const REDRAW_MS = 100;

/**
 * Progress of `sync` on stderr, a line per resource: its pass, the pages and records so far, the wall time
 * since its pass began in this run and the rate over that time (records fetched in this run per second).
 * A pass that goes on from a stopped run counts its earlier pages and records, and says how many came in this
 * run. The API tells no total, so there is no percentage: a terminal gets the line redrawn in place behind a
 * spinner; a pipe or a log gets one plain line per page.
 */
export class SyncProgress {
  private current: string | null = null;
  /** When the current resource's pass began in this run: when the previous one ended, or at the start. */
  private began: number;
  private fetched = 0;
  private frame = 0;
  private lastDraw = Number.NEGATIVE_INFINITY;
  /** A terminal line is drawn but not ended (its pass stopped before the last page). */
  private lineOpen = false;

  constructor(
    private readonly io: CliIo,
    private readonly now: () => number = Date.now,
  ) {
    this.began = now();
  }

  page(event: SyncPageEvent): void {
    const now = this.now();
    if (this.current !== event.resource) {
      if (this.lineOpen) this.io.err('\n');
      this.lineOpen = false;
      this.current = event.resource;
      this.fetched = 0;
    }
    this.fetched += event.records;
    const line = this.describe(event, now);
    if (event.last) this.began = now;
    if (!this.io.errIsTerminal) {
      this.io.err(`${line}${event.last ? ', done' : ''}\n`);
      return;
    }
    if (!event.last && now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    this.frame += 1;
    const mark = event.last ? 'done' : ` ${SPINNER[this.frame % SPINNER.length]}  `;
    this.io.err(`\r[${mark}] ${line}\u001b[K${event.last ? '\n' : ''}`);
    this.lineOpen = !event.last;
  }

  private describe(event: SyncPageEvent, now: number): string {
    const seconds = Math.max(0, now - this.began) / 1000;
    const rate = seconds > 0 ? Math.round(this.fetched / seconds) : 0;
    const earlier = event.received > this.fetched ? ` (${this.fetched} in this run)` : '';
    return `${event.resource} (${event.mode} pass): page ${event.page}, ${event.received} records${earlier}, ${seconds.toFixed(1)} s, ${rate} records/s`;
  }
}
