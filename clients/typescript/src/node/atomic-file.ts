import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/**
 * Owner read and write only: the mirror holds candidates' names, e-mails and phones, and the state and journals
 * hold the same records. Set when a file is created (never made by the umask and narrowed later), so it is kept
 * through every rename and append.
 */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Replaces a file all at once: the text goes to a temporary file beside it, is flushed to disk, and is
 * renamed over the target, and the directory is flushed too. A crash leaves the old file or the new one,
 * never a part. Chunks are written one by one, so a file larger than a string may hold can be written.
 */
export async function writeFileAtomic(file: string, chunks: Iterable<string> | string): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', PRIVATE_FILE_MODE);
  try {
    for (const chunk of typeof chunks === 'string' ? [chunks] : chunks) await writeAll(handle, chunk);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temporary, file);
  await syncDirectory(path.dirname(file));
}

/**
 * Appends text and flushes it to disk before resolving. A last line that a crash (or a full disk) cut before its
 * newline is cut off first: appended after it, the text would join it in a line that is no longer JSON, which
 * every later reading of the file would stumble on.
 */
export async function appendDurably(file: string, text: string): Promise<void> {
  const handle = await open(file, 'a+', PRIVATE_FILE_MODE);
  try {
    const { size, mode } = await handle.stat();
    // A file an earlier version left readable by others is narrowed at its first append.
    if ((mode & 0o077) !== 0) await handle.chmod(mode & 0o700);
    await dropTornLine(handle, size);
    await writeAll(handle, text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The part of a write that a file handle takes at most (what the write's buffer holds). */
export interface Writable {
  write(buffer: Uint8Array, offset: number, length: number): Promise<{ bytesWritten: number }>;
}

/**
 * Writes every byte of the text. One write may take only part of it (a disk that fills up takes what fits and
 * says how much): the rest is written again, and a disk with no room left then fails the write with ENOSPC.
 */
export async function writeAll(handle: Writable, text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    if (bytesWritten <= 0) throw new Error(`A write took none of the ${bytes.length - offset} bytes left.`);
    offset += bytesWritten;
  }
}

const NEWLINE = 0x0a;
const TAIL_BLOCK = 64 * 1024;

/** Cuts the file after its last newline (to nothing when it has none), unless it already ends with one. */
async function dropTornLine(handle: FileHandle, size: number): Promise<void> {
  if (size === 0) return;
  // The usual case, a file that ends with its newline, costs one byte read.
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  if (last[0] === NEWLINE) return;
  const block = Buffer.alloc(Math.min(TAIL_BLOCK, size));
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - block.length);
    const { bytesRead } = await handle.read(block, 0, end - start, start);
    const at = block.subarray(0, bytesRead).lastIndexOf(NEWLINE);
    if (at !== -1) {
      if (start + at + 1 < size) await handle.truncate(start + at + 1);
      return;
    }
    end = start;
  }
  await handle.truncate(0);
}

/** Flushes a directory entry (a rename, a new file), where the platform allows it. */
export async function syncDirectory(directory: string): Promise<void> {
  let handle;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch {
    // Some platforms cannot open or flush a directory; the rename is still atomic there.
  } finally {
    await handle?.close();
  }
}

/** The lines of a text file, without a torn last line (one a crash cut before its newline); [] when absent. */
export async function completeLines(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const lines = text.split('\n');
  lines.pop(); // the part after the last newline: empty, or torn
  return lines.filter((line) => line !== '');
}
