import { readFile, rm } from 'node:fs/promises';
import type { SyncResource, SyncState, SyncStateStore } from '../sync/sync-state.js';
import { appendDurably, completeLines, writeFileAtomic } from './atomic-file.js';

/**
 * The sync state in a JSON file, replaced atomically at every save (temporary file, then rename), so that
 * a crash at any moment leaves the last saved state. The ids seen by a full pass go to a file beside it,
 * `<file>.seen-<resource>`, one per line, appended page by page.
 */
export class FileSyncStateStore implements SyncStateStore {
  constructor(readonly file: string) {}

  async load(): Promise<SyncState | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const state = JSON.parse(text) as SyncState;
    if (state.version !== 1) throw new Error(`${this.file}: sync state version ${String(state.version)} is not known to this client.`);
    return state;
  }

  async save(state: SyncState): Promise<void> {
    await writeFileAtomic(this.file, `${JSON.stringify(state, null, 2)}\n`);
  }

  async addSeen(resource: SyncResource, ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await appendDurably(this.seenFile(resource), `${ids.join('\n')}\n`);
  }

  async seen(resource: SyncResource): Promise<Set<string>> {
    return new Set(await completeLines(this.seenFile(resource)));
  }

  async clearSeen(resource: SyncResource): Promise<void> {
    await rm(this.seenFile(resource), { force: true });
  }

  private seenFile(resource: SyncResource): string {
    return `${this.file}.seen-${resource}`;
  }
}
