import { rm } from 'node:fs/promises';
import type { SyncRecord, SyncTarget } from '../sync/sync-target.js';
import { appendDurably, completeLines, writeFileAtomic } from './atomic-file.js';

export interface MirrorChanges {
  readonly added: number;
  readonly changed: number;
  readonly deleted: number;
}

interface Entry {
  readonly updatedAt: string;
  readonly line: string;
}

/**
 * A file of JSON lines, one current record per id, kept by a sync. The file itself is only ever replaced
 * whole (at commit, atomically); what a run applies before that goes to a journal first, flushed to disk
 * page by page, so that a crashed run loses nothing it reported as done: opening the mirror replays it.
 * Changes are counted against the file as it was at the last commit.
 */
export class JsonlMirror<T extends SyncRecord> implements SyncTarget<T> {
  private readonly entries = new Map<string, Entry>();
  /** The committed line of every id touched since the last commit (null: it was not in the file). */
  private readonly baseline = new Map<string, string | null>();
  private lastChanges: MirrorChanges = { added: 0, changed: 0, deleted: 0 };

  private constructor(
    readonly file: string,
    private readonly journal: string,
    private readonly refresh: ((record: T) => T) | undefined,
  ) {}

  /** Opens the mirror at `file` (absent: empty) and replays a journal a crashed run left. */
  static async open<T extends SyncRecord>(file: string, options: { journal?: string; refresh?: (record: T) => T } = {}): Promise<JsonlMirror<T>> {
    const mirror = new JsonlMirror<T>(file, options.journal ?? `${file}.journal`, options.refresh);
    for (const line of await completeLines(file)) {
      const record = JSON.parse(line) as T;
      mirror.entries.set(record.id, { updatedAt: record.updatedAt, line });
    }
    for (const line of await completeLines(mirror.journal)) {
      const step = JSON.parse(line) as { upsert?: T[]; remove?: string[] };
      if (step.upsert) mirror.apply(step.upsert);
      if (step.remove) mirror.drop(step.remove);
    }
    return mirror;
  }

  async upsert(records: readonly T[]): Promise<void> {
    if (records.length === 0) return;
    await appendDurably(this.journal, `${JSON.stringify({ upsert: records })}\n`);
    this.apply(records);
  }

  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await appendDurably(this.journal, `${JSON.stringify({ remove: ids })}\n`);
    this.drop(ids);
  }

  async ids(): Promise<Iterable<string>> {
    return [...this.entries.keys()];
  }

  get(id: string): T | undefined {
    const entry = this.entries.get(id);
    return entry === undefined ? undefined : (JSON.parse(entry.line) as T);
  }

  get size(): number {
    return this.entries.size;
  }

  /** What the last commit changed in the file. */
  get changes(): MirrorChanges {
    return this.lastChanges;
  }

  /** Writes the file, one record per line in id order, atomically; then the journal is no longer needed. */
  async commit(): Promise<void> {
    if (this.refresh !== undefined) this.refreshAll(this.refresh);
    const ids = [...this.entries.keys()].sort();
    await writeFileAtomic(this.file, linesOf(ids.map((id) => this.entries.get(id)!.line)));
    this.lastChanges = this.countChanges();
    this.baseline.clear();
    await rm(this.journal, { force: true });
  }

  private apply(records: readonly T[]): void {
    for (const record of records) {
      const held = this.entries.get(record.id);
      // An older version never replaces a newer one, whatever the order of delivery (a replayed journal, say).
      if (held !== undefined && held.updatedAt > record.updatedAt) continue;
      this.touch(record.id);
      this.entries.set(record.id, { updatedAt: record.updatedAt, line: JSON.stringify(record) });
    }
  }

  private drop(ids: readonly string[]): void {
    for (const id of ids) {
      this.touch(id);
      this.entries.delete(id);
    }
  }

  private refreshAll(refresh: (record: T) => T): void {
    for (const [id, entry] of this.entries) {
      const line = JSON.stringify(refresh(JSON.parse(entry.line) as T));
      if (line === entry.line) continue;
      this.touch(id);
      this.entries.set(id, { updatedAt: entry.updatedAt, line });
    }
  }

  private touch(id: string): void {
    if (!this.baseline.has(id)) this.baseline.set(id, this.entries.get(id)?.line ?? null);
  }

  private countChanges(): MirrorChanges {
    let added = 0;
    let changed = 0;
    let deleted = 0;
    for (const [id, before] of this.baseline) {
      const after = this.entries.get(id)?.line ?? null;
      if (before === null && after !== null) added++;
      else if (before !== null && after === null) deleted++;
      else if (before !== null && after !== null && before !== after) changed++;
    }
    return { added, changed, deleted };
  }
}

function* linesOf(lines: readonly string[]): Generator<string> {
  const batch = 1000;
  for (let i = 0; i < lines.length; i += batch) yield `${lines.slice(i, i + batch).join('\n')}\n`;
}
