export type SyncResource = 'vacancies' | 'candidates';

/** Where one pass over a resource stands: enough to go on after a crash, from the page after the last saved one. */
export interface PassState {
  /**
   * full: every record, then what it did not see is removed; incremental: the records changed since `since`;
   * ids: identifiers only (fields=id), every record's, to remove what it did not see: the cheap deletion pass.
   */
  readonly mode: 'full' | 'incremental' | 'ids';
  /** The since of this pass's query (null for a full pass); kept unchanged, as the cursor requires. */
  readonly since: string | null;
  /** X-Sync-Watermark of the first page of this pass: the since of the next pass, once this one is complete. */
  watermark: string | null;
  /** nextCursor of the last page handled; null before the first page and after the last one. */
  cursor: string | null;
  pages: number;
  received: number;
  /** Every page is handled; deletions (full pass) and the target's commit may still be pending. */
  complete: boolean;
}

export interface ResourceState {
  /** The since of the next pass: the watermark of the last complete pass; null before the first one. */
  since: string | null;
  completedPasses: number;
  /** Complete incremental passes since the last full pass. */
  passesSinceFull: number;
  lastFullPassAt: string | null;
  /** The pass under way, if a run stopped in the middle of one. */
  pass: PassState | null;
  /**
   * The ETag of the last page of the last complete records pass: the next incremental pass asks for its first page
   * only if it differs (If-None-Match), so that a run with nothing new costs a 304. Absent in states of older clients.
   */
  etag?: string | null;
}

export interface SyncState {
  readonly version: 1;
  /** The API root the state belongs to: a state of one deployment is never applied to another. */
  readonly apiRoot: string;
  readonly resources: Partial<Record<SyncResource, ResourceState>>;
}

/**
 * Keeps a sync's state between runs. `save` must be atomic (all or nothing). The seen ids of a full pass
 * are kept apart, appended page by page, so that saving the state stays small however big the company is.
 */
export interface SyncStateStore {
  load(): Promise<SyncState | null>;
  save(state: SyncState): Promise<void>;
  /** Records ids met in the full pass under way; must be durable when it resolves. */
  addSeen(resource: SyncResource, ids: readonly string[]): Promise<void>;
  seen(resource: SyncResource): Promise<Set<string>>;
  clearSeen(resource: SyncResource): Promise<void>;
}

/** A state kept in memory: for tests, and for a process that syncs in a loop and may start over after a restart. */
export class MemorySyncStateStore implements SyncStateStore {
  private state: string | null = null;
  private readonly seenIds = new Map<SyncResource, Set<string>>();

  async load(): Promise<SyncState | null> {
    return this.state === null ? null : (JSON.parse(this.state) as SyncState);
  }

  async save(state: SyncState): Promise<void> {
    this.state = JSON.stringify(state);
  }

  async addSeen(resource: SyncResource, ids: readonly string[]): Promise<void> {
    const seen = this.seenIds.get(resource) ?? new Set<string>();
    for (const id of ids) seen.add(id);
    this.seenIds.set(resource, seen);
  }

  async seen(resource: SyncResource): Promise<Set<string>> {
    return new Set(this.seenIds.get(resource));
  }

  async clearSeen(resource: SyncResource): Promise<void> {
    this.seenIds.delete(resource);
  }
}

/** The sync cannot run with this state: it belongs to another deployment, or another sync holds it. */
export class SyncStateError extends Error {
  override readonly name = 'SyncStateError';
}
