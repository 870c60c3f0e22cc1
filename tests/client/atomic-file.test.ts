import { expect } from 'chai';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appendDurably, completeLines, writeAll, writeFileAtomic, type Writable } from '../../clients/typescript/src/node/atomic-file.js';
import { JsonlMirror } from '../../clients/typescript/src/node/jsonl-mirror.js';

/** A file handle of a disk that takes at most `room` bytes more, `most` bytes a write, as write(2) then answers. */
class FillingDisk implements Writable {
  readonly written: number[] = [];
  constructor(
    private room: number,
    private readonly most: number,
  ) {}

  async write(buffer: Uint8Array, offset: number, length: number): Promise<{ bytesWritten: number }> {
    if (this.room === 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const bytesWritten = Math.min(length, this.most, this.room);
    this.written.push(...buffer.subarray(offset, offset + bytesWritten));
    this.room -= bytesWritten;
    return { bytesWritten };
  }
}

describe('The sync client\'s files (clients/typescript/src/node)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'atomic-file-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes every byte of a text a write takes only in part, and fails when the disk has no room left rather than leaving a part', async () => {
    const text = `${'й'.repeat(50)}{"id":"a"}\n`;
    const roomy = new FillingDisk(1_000, 7);
    await writeAll(roomy, text);
    expect(Buffer.from(roomy.written).toString('utf8')).to.equal(text);
    const full = new FillingDisk(40, 16);
    const failure = await writeAll(full, text).then(() => null, (error: unknown) => error);
    expect((failure as NodeJS.ErrnoException | null)?.code).to.equal('ENOSPC');
    expect(full.written).to.have.length(40);
  });

  it('creates its files readable by their owner only (0600), whatever the umask, and narrows a file an earlier version left readable by all', async () => {
    const modeOf = async (file: string) => (await stat(file)).mode & 0o777;
    const previous = process.umask(0o022);
    try {
      const mirror = path.join(dir, 'candidates.jsonl');
      await writeFileAtomic(mirror, '{"id":"a","email":"aigerim@example.kz"}\n');
      expect(await modeOf(mirror)).to.equal(0o600);
      const journal = path.join(dir, 'candidates.journal');
      await appendDurably(journal, '{"remove":["a"]}\n');
      expect(await modeOf(journal)).to.equal(0o600);
      // Files of an earlier version, 0644.
      for (const file of [mirror, journal]) await chmod(file, 0o644);
      await writeFileAtomic(mirror, '{"id":"b","phone":"+77010000000"}\n');
      await appendDurably(journal, '{"remove":["b"]}\n');
      expect([await modeOf(mirror), await modeOf(journal)]).to.deep.equal([0o600, 0o600]);
      expect(await completeLines(journal)).to.deep.equal(['{"remove":["a"]}', '{"remove":["b"]}']);
    } finally {
      process.umask(previous);
    }
  });

  it('appends after cutting off a last line a crash left without its newline, so that every line stays JSON', async () => {
    const file = path.join(dir, 'candidates.journal');
    await writeFile(file, '{"upsert":[{"id":"a"}]}\n{"upsert":[{"id":"0199');
    await appendDurably(file, '{"remove":["b"]}\n');
    expect(await readFile(file, 'utf8')).to.equal('{"upsert":[{"id":"a"}]}\n{"remove":["b"]}\n');
    // Nothing but a torn line, and a torn line longer than the block read from the end.
    await writeFile(file, '{"upsert":[{"id":"0199');
    await appendDurably(file, '{"remove":["c"]}\n');
    expect(await readFile(file, 'utf8')).to.equal('{"remove":["c"]}\n');
    const long = `{"upsert":[{"id":"x","text":"${'я'.repeat(100_000)}"}]}`;
    await writeFile(file, `{"remove":["d"]}\n${long}`);
    await appendDurably(file, '{"remove":["e"]}\n');
    expect(await completeLines(file)).to.deep.equal(['{"remove":["d"]}', '{"remove":["e"]}']);
    // A file that ends with its newline is only appended to.
    await appendDurably(file, '{"remove":["f"]}\n');
    expect((await completeLines(file)).map((line) => JSON.parse(line))).to.deep.equal([{ remove: ['d'] }, { remove: ['e'] }, { remove: ['f'] }]);
  });

  it('opens a mirror whose journal a crash tore, goes on appending to it, and opens it again', async () => {
    const file = path.join(dir, 'vacancies.jsonl');
    const record = (id: string) => ({ id, updatedAt: '2026-11-29T10:00:00.000Z', title: id });
    const first = await JsonlMirror.open<ReturnType<typeof record>>(file);
    await first.upsert([record('a')]);
    await writeFile(`${file}.journal`, `${await readFile(`${file}.journal`, 'utf8')}{"upsert":[{"id":"b","upd`);
    const second = await JsonlMirror.open<ReturnType<typeof record>>(file);
    await second.upsert([record('c')]);
    const third = await JsonlMirror.open<ReturnType<typeof record>>(file);
    expect([...(await third.ids())].sort()).to.deep.equal(['a', 'c']);
    await third.commit();
    expect((await completeLines(file)).map((line) => JSON.parse(line).id)).to.deep.equal(['a', 'c']);
  });
});
