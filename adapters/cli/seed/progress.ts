import type { CliIo } from '../cli-io.js';

/**
 * Progress of a long command on stderr: one line redrawn in place on a terminal, plain lines at every
 * tenth otherwise (logs and CI keep them readable). stdout stays a single JSON document.
 */
export class Progress {
  private done = 0;
  private lastDraw = 0;
  private lastTenth = 0;
  private readonly started = Date.now();

  constructor(
    private readonly io: CliIo,
    private readonly label: string,
    private readonly total: number,
  ) {}

  advance(count: number): void {
    this.done += count;
    if (this.io.errIsTerminal) {
      const now = Date.now();
      if (now - this.lastDraw < 200 && this.done < this.total) return;
      this.lastDraw = now;
      this.io.err(`\r${this.line()}\u001b[K`);
      return;
    }
    const tenth = this.total === 0 ? 10 : Math.floor((this.done * 10) / this.total);
    if (tenth > this.lastTenth) {
      this.lastTenth = tenth;
      this.io.err(`${this.line()}\n`);
    }
  }

  finish(): void {
    if (this.io.errIsTerminal) this.io.err(`\r${this.line()}\u001b[K\n`);
    else if (this.lastTenth < 10) this.io.err(`${this.line()}\n`);
  }

  private line(): string {
    const seconds = (Date.now() - this.started) / 1000;
    const percent = this.total === 0 ? 100 : Math.floor((this.done * 100) / this.total);
    const rate = seconds > 0 ? Math.round(this.done / seconds) : 0;
    return `${this.label}: ${this.done}/${this.total} (${percent}%), ${seconds.toFixed(1)} s, ${rate}/s`;
  }
}
