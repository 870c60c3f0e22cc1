/**
 * Progress on stderr: a bar redrawn in place on a terminal, plain lines otherwise (every tenth of the
 * work, so that CI logs stay short). stdout is left to the result table.
 */
export class ProgressBar {
  private done = 0;
  private lastDraw = 0;
  private lastTenth = 0;
  private readonly started = Date.now();
  private readonly tty = process.stderr.isTTY === true;

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly unit = '',
  ) {}

  advance(count = 1): void {
    this.set(this.done + count);
  }

  set(done: number): void {
    this.done = done;
    if (this.tty) {
      const now = Date.now();
      if (now - this.lastDraw < 200 && this.done < this.total) return;
      this.lastDraw = now;
      process.stderr.write(`\r${this.line(true)}\u001b[K`);
      return;
    }
    const tenth = this.total <= 0 ? 10 : Math.floor((this.done * 10) / this.total);
    if (tenth > this.lastTenth && tenth < 10) {
      this.lastTenth = tenth;
      process.stderr.write(`${this.line(false)}\n`);
    }
  }

  finish(note = ''): void {
    const suffix = note === '' ? '' : `, ${note}`;
    if (this.tty) process.stderr.write(`\r${this.line(true)}${suffix}\u001b[K\n`);
    else process.stderr.write(`${this.line(false)}${suffix}\n`);
  }

  private line(bar: boolean): string {
    const seconds = (Date.now() - this.started) / 1000;
    const fraction = this.total <= 0 ? 1 : Math.min(1, this.done / this.total);
    const rate = seconds > 0 ? Math.round(this.done / seconds) : 0;
    const width = 24;
    const filled = Math.round(fraction * width);
    const drawn = bar ? `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ` : '';
    const unit = this.unit === '' ? '' : ` ${this.unit}`;
    // A rate of seconds per second says nothing: runs measured in time show only how far they are.
    const pace = this.unit === 's' ? '' : `, ${seconds.toFixed(1)} s, ${rate}/s`;
    return `${this.label}: ${drawn}${this.done}/${this.total}${unit} (${Math.floor(fraction * 100)}%)${pace}`;
  }
}

/** A line of news on stderr. */
export function note(message: string): void {
  process.stderr.write(`${message}\n`);
}
