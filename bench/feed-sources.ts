import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** Files outside bench/ that differ from HEAD (new ones too), and a fingerprint of HEAD and those differences. */
export function sourcesState(): { readonly changed: string[]; readonly fingerprint: string } {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    const lines = (text: string) => text.split('\n').filter((line) => line !== '');
    const modified = lines(git('diff', '--name-only', 'HEAD', '--', '.', ':(exclude)bench'));
    const untracked = lines(git('ls-files', '--others', '--exclude-standard', '--', '.', ':(exclude)bench'));
    const hash = createHash('sha256').update(git('rev-parse', 'HEAD')).update(git('diff', 'HEAD', '--', '.', ':(exclude)bench'));
    for (const file of untracked) hash.update(file).update(readFileSync(file));
    return { changed: [...modified, ...untracked.map((file) => `${file} (new)`)], fingerprint: hash.digest('hex') };
  } catch {
    return { changed: [], fingerprint: '' };
  }
}

export function commitOf(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}
