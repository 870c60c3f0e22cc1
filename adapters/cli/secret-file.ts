import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { CliFailure } from './cli-failure.js';

/** Owner read and write only: the file holds a live service key. */
export const SECRET_FILE_MODE = 0o600;
/**
 * Directories made on the way to it: others may pass through (not list): the file is private by its own mode,
 * and the directory may be a later DATA_DIR (`var/`), which the embedded PostgreSQL's `postgres` user must enter
 * when the service runs as root. A 0700 one locked it out.
 */
export const SECRET_FILE_DIRECTORY_MODE = 0o711;

/**
 * The file of an `--out` option, which will hold a key. It is opened before the key is issued, so that a
 * path that cannot be written fails the command before a key exists that nobody could read. The file is
 * created 0600 from its first byte (never made by the umask and narrowed later) and takes the place of an
 * older one by rename, so a reader never sees half a document.
 */
export class SecretFile {
  private constructor(
    private readonly option: string,
    private readonly given: string,
    readonly path: string,
    private readonly temporary: string,
    private readonly handle: FileHandle,
  ) {}

  static async open(option: string, file: string): Promise<SecretFile> {
    const target = path.resolve(file);
    if ((await stat(target).catch(() => null))?.isDirectory()) throw new CliFailure(`${option} ${file} is a directory; give a file name.`);
    const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await mkdir(path.dirname(target), { recursive: true, mode: SECRET_FILE_DIRECTORY_MODE });
      return new SecretFile(option, file, target, temporary, await open(temporary, 'wx', SECRET_FILE_MODE));
    } catch (error) {
      throw cannotWrite(option, file, error);
    }
  }

  /** Writes the JSON document and puts the file in place. */
  async commit(value: unknown): Promise<void> {
    try {
      await this.handle.writeFile(`${JSON.stringify(value, null, 2)}\n`, 'utf8');
      await this.handle.sync();
      await this.handle.close();
      await rename(this.temporary, this.path);
    } catch (error) {
      await this.abandon();
      throw cannotWrite(this.option, this.given, error);
    }
  }

  /** Leaves no trace when the command failed before it had anything to write. */
  async abandon(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await rm(this.temporary, { force: true });
  }
}

function cannotWrite(option: string, file: string, error: unknown): CliFailure {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ENOTDIR' || code === 'EEXIST' ? 'a part of the path is not a directory' : (error as Error).message;
  return new CliFailure(`Cannot write ${option} ${file}: ${reason}.`);
}

/**
 * Runs a command whose document holds a key (or a platform token, `secretField`): printed on stdout as usual,
 * or with `--out FILE` written to the file (0600) while stdout gets the same document without the secret and
 * with `savedTo`, the file's full path.
 */
export async function printOrSave<T extends object>(
  out: string | undefined,
  print: (value: unknown) => void,
  produce: () => Promise<T>,
  secretField: keyof T & string = 'key' as keyof T & string,
): Promise<void> {
  if (out === undefined) {
    print(await produce());
    return;
  }
  const file = await SecretFile.open('--out', out);
  let document: T;
  try {
    document = await produce();
  } catch (error) {
    await file.abandon();
    throw error;
  }
  await file.commit(document);
  const rest: Record<string, unknown> = { ...(document as Record<string, unknown>) };
  delete rest[secretField];
  print({ ...rest, savedTo: file.path });
}
