import type { CliIo } from '../cli-io.js';
import { CliFailure } from '../cli-failure.js';

/** The environment variable `sync` takes its key from when neither --key-file nor --key is given. */
export const KEY_ENV = 'INTEGRATION_API_KEY';

export interface KeySources {
  readonly keyFile?: string | undefined;
  readonly key?: string | undefined;
}

/** What a key may hold: printable ASCII without spaces, as an HTTP header value takes it whole. */
const KEY_CHARACTERS = /^[\x21-\x7e]+$/;

/**
 * The key of `sync`: from --key-file PATH or --key (not both), either of which overrides INTEGRATION_API_KEY, so
 * that a key given on the command line wins in a shell that exported the variable; from the variable when
 * neither is given. A file holds the key on one line, or is the JSON document of `key issue --out` /
 * `seed demo --out` (its "key"). No message ever repeats what a source holds.
 */
export async function resolveSyncKey(options: KeySources, io: CliIo): Promise<string> {
  if (options.keyFile !== undefined && options.key !== undefined) throw new CliFailure('Give --key-file or --key, not both.');
  if (options.keyFile !== undefined) return checked(await keyInFile(options.keyFile, io), `--key-file ${options.keyFile}`);
  if (options.key !== undefined) return checked(options.key.trim(), '--key');
  const fromEnv = io.env?.[KEY_ENV];
  if (fromEnv === undefined || fromEnv === '') {
    const emptyEnv = fromEnv === '' ? ` (${KEY_ENV} is set but empty)` : '';
    throw new CliFailure(`No key${emptyEnv}: give --key-file PATH, or set ${KEY_ENV}, or pass --key KEY (which other users can see in ps).`);
  }
  return checked(fromEnv.trim(), KEY_ENV);
}

function checked(key: string, source: string): string {
  if (key === '') throw new CliFailure(`${source} is empty; expected a service key.`);
  if (!KEY_CHARACTERS.test(key)) throw new CliFailure(`${source} holds spaces or characters that no service key has.`);
  return key;
}

async function keyInFile(file: string, io: CliIo): Promise<string> {
  const name = `--key-file ${file}`;
  let text: string;
  try {
    text = file === '-' ? await io.readStdin() : await io.readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? 'unreadable');
    throw new CliFailure(`Cannot read ${name}: ${reason}.`);
  }
  const content = text.replace(/^\uFEFF/, '').trim();
  if (content === '') throw new CliFailure(`${name} is empty; expected a service key.`);
  if (content.startsWith('{')) return keyInDocument(content, name);
  if (/[\r\n]/.test(content)) throw new CliFailure(`${name} holds more than one line; expected the key alone, or the JSON of key issue --out.`);
  return content;
}

function keyInDocument(content: string, name: string): string {
  let document: unknown;
  try {
    document = JSON.parse(content);
  } catch {
    // The parser's message quotes the file, which holds a key: it is not passed on.
    throw new CliFailure(`${name} starts like JSON but is not valid JSON; expected the key alone, or the JSON of key issue --out.`);
  }
  const key = (document as { key?: unknown }).key;
  if (typeof key !== 'string') throw new CliFailure(`${name} is JSON without a "key" string; expected the JSON of key issue --out or seed demo --out.`);
  return key.trim();
}
