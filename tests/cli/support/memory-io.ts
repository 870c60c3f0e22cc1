import { readFile } from 'node:fs/promises';
import type { CliIo } from '../../../adapters/cli/cli-io.js';

/** Streams kept in memory, for running the CLI inside the test process; files from a map, or from disk without one. */
export class MemoryIo implements CliIo {
  stdout = '';
  stderr = '';
  readonly errIsTerminal: boolean = false;
  readonly env: Readonly<Record<string, string | undefined>> = {};

  constructor(
    private readonly stdin = '',
    private readonly files?: Readonly<Record<string, string>>,
  ) {}

  out(text: string): void {
    this.stdout += text;
  }

  err(text: string): void {
    this.stderr += text;
  }

  async readStdin(): Promise<string> {
    return this.stdin;
  }

  async readFile(path: string): Promise<string> {
    if (this.files === undefined) return readFile(path, 'utf8');
    const text = this.files[path];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
    return text;
  }
}
