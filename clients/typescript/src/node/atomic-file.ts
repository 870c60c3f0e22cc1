import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Replaces a file all at once: the text goes to a temporary file beside it, is flushed to disk, and is
 * renamed over the target, and the directory is flushed too. A crash leaves the old file or the new one,
 * never a part. Chunks are written one by one, so a file larger than a string may hold can be written.
 */
export async function writeFileAtomic(file: string, chunks: Iterable<string> | string): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temporary, 'w');
  try {
    for (const chunk of typeof chunks === 'string' ? [chunks] : chunks) await handle.write(chunk);
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

/** Appends text and flushes it to disk before resolving. */
export async function appendDurably(file: string, text: string): Promise<void> {
  const handle = await open(file, 'a');
  try {
    await handle.write(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
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
