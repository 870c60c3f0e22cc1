import { readFile } from 'node:fs/promises';

/** The process's streams, as the CLI uses them; tests and the composition root supply them. */
export interface CliIo {
  /** JSON results, one document per command. */
  out(text: string): void;
  /** Messages for people: errors, warnings, progress. */
  err(text: string): void;
  /** Whether err() reaches a terminal, where progress may redraw one line. */
  readonly errIsTerminal: boolean;
  /** The process's environment, for the settings a command takes from it (INTEGRATION_API_KEY); none when absent. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readStdin(): Promise<string>;
  readFile(path: string): Promise<string>;
}

export function processIo(): CliIo {
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    errIsTerminal: process.stderr.isTTY === true,
    env: process.env,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      return Buffer.concat(chunks).toString('utf8');
    },
    readFile: (path) => readFile(path, 'utf8'),
  };
}
