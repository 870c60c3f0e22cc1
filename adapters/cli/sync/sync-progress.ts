import type { SyncPageEvent } from '../../../clients/typescript/src/index.js';
import type { CliIo } from '../cli-io.js';

/**
 * Progress of `sync` on stderr. The API does not say how many records a pass will bring, so a terminal
 * gets one line per resource redrawn in place (a bar that fills page by page, with counts and rate); a
 * pipe or a log gets one plain line per page.
 */
export class SyncProgress {
  private current: string | null = null;
  private started = Date.now();
  private frame = 0;
  /** A terminal line is drawn but not ended (its pass stopped before the last page). */
  private lineOpen = false;

  constructor(private readonly io: CliIo) {}

  page(event: SyncPageEvent): void {
    if (this.current !== event.resource) {
      if (this.lineOpen) this.io.err('\n');
      this.current = event.resource;
      this.started = Date.now();
      this.frame = 0;
    }
    const seconds = (Date.now() - this.started) / 1000;
    const rate = seconds > 0 ? Math.round(event.received / seconds) : event.received;
    const what = `${event.resource} (${event.mode} pass): page ${event.page}, ${event.received} records, ${seconds.toFixed(1)} s, ${rate}/s`;
    if (!this.io.errIsTerminal) {
      this.io.err(`${what}${event.last ? ', done' : ''}\n`);
      return;
    }
    this.frame += 1;
    this.io.err(`\r${bar(this.frame % 20, event.last)} ${what}\u001b[K${event.last ? '\n' : ''}`);
    this.lineOpen = !event.last;
  }
}

/** The API gives no total: the bar moves a step per page and fills when the pass is done. */
function bar(filled: number, done: boolean): string {
  return done ? `[${'#'.repeat(20)}]` : `[${'#'.repeat(filled)}>${' '.repeat(19 - filled)}]`;
}
