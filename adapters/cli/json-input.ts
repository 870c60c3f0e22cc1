import type { CliIo } from './cli-io.js';
import { CliFailure } from './cli-failure.js';

/** Reads `--file PATH`, or standard input for `--file -`, and parses it as JSON. */
export async function readJsonInput(io: CliIo, path: string): Promise<unknown> {
  const name = path === '-' ? 'standard input' : path;
  let text: string;
  try {
    text = path === '-' ? await io.readStdin() : await io.readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new CliFailure(`Cannot read ${name}: ${reason}.`);
  }
  if (text.trim() === '') throw new CliFailure(`${name} is empty; expected JSON.`);
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new CliFailure(`${name} is not valid JSON: ${(error as Error).message}.`);
  }
}
