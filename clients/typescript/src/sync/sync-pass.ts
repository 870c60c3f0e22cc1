import { ApiError } from '../api-error.js';
import { fetchPlanned, type ResourceReport, type SyncOptions } from './sync-engine.js';
import type { FetchedPage, Lister } from './sync-lister.js';
import { SyncStateError, type PassState, type ResourceState, type SyncResource, type SyncState, type SyncStateStore } from './sync-state.js';
import type { SyncRecord, SyncTarget } from './sync-target.js';

/** What a run does for one resource, decided before anything is read or written (runSync's planOf). */
export interface PassPlan {
  /** The pass under way (resumed) or the one to begin. */
  readonly pass: PassState;
  readonly resumed: boolean;
  /** A deletion pass (identifiers only) follows the incremental pass. */
  readonly deletions: boolean;
  readonly limit: number;
  /** The ETag of the last page of the last records pass, for the first page of an incremental one. */
  readonly etag: string | null;
}

export interface ResourceContext {
  readonly resource: SyncResource;
  readonly target: SyncTarget<SyncRecord>;
  readonly lister: Lister;
  readonly limit: number;
  readonly store: SyncStateStore;
  readonly state: SyncState;
  readonly resourceState: ResourceState;
  readonly options: SyncOptions;
}

/** The run of one resource: its records pass (unless only a stopped deletion pass is left), then a deletion pass when due. */
export async function runResource(ctx: ResourceContext, plan: PassPlan, first: FetchedPage | null): Promise<ResourceReport> {
  const { resourceState: rs } = ctx;
  // A full pass counts what it sees from nothing; an earlier one may have stopped before it could clean up.
  if (!plan.resumed && plan.pass.mode === 'full') await ctx.store.clearSeen(ctx.resource);
  rs.pass = plan.pass;
  const since = rs.since;
  let records: { pages: number; received: number; notModified: boolean; deleted: string[] } | null = null;
  if (plan.pass.mode !== 'ids') records = await runPass(ctx, plan, first);
  let deletionPass: ResourceReport['deletionPass'] = null;
  let deleted = records?.deleted ?? [];
  if (plan.deletions || plan.pass.mode === 'ids') {
    if (rs.pass === null) {
      await ctx.store.clearSeen(ctx.resource);
      rs.pass = { mode: 'ids', since: null, watermark: null, cursor: null, pages: 0, received: 0, complete: false };
    }
    const ids = await runPass(ctx, { ...plan, pass: rs.pass, etag: null }, plan.pass.mode === 'ids' ? first : null);
    deletionPass = { pages: ids.pages, ids: ids.received };
    deleted = [...deleted, ...ids.deleted];
  }
  return {
    mode: plan.pass.mode,
    resumed: plan.resumed,
    since: plan.pass.mode === 'ids' ? since : plan.pass.since,
    nextSince: rs.since as string,
    pages: records?.pages ?? 0,
    received: records?.received ?? 0,
    notModified: records?.notModified ?? false,
    deletionPass,
    deleted,
  };
}

/** One pass to its end: pages applied (records) or counted as seen (full, ids), then what was not seen removed. */
async function runPass(ctx: ResourceContext, plan: PassPlan, first: FetchedPage | null) {
  const { resource, target, store, state, resourceState: rs, options } = ctx;
  const pass = plan.pass;
  let prefetched = first;
  let notModified = false;
  while (!pass.complete) {
    options.signal?.throwIfAborted();
    const page = prefetched ?? (await fetchPage(ctx, plan));
    prefetched = null;
    if (pass.watermark === null) {
      if (page.watermark === '') throw new SyncStateError(`The ${resource} page has no X-Sync-Watermark header: a sync cannot go on safely.`);
      pass.watermark = page.watermark;
    }
    // A 304 stands for the page last applied, unchanged: its records are in the target already, and it was the last.
    notModified = page.notModified;
    if (pass.mode !== 'ids') await target.upsert(page.items);
    if (pass.mode !== 'incremental') await store.addSeen(resource, page.items.map((item) => item.id));
    pass.cursor = page.nextCursor;
    pass.pages += 1;
    pass.received += page.items.length;
    pass.complete = page.nextCursor === null;
    if (pass.complete && pass.mode !== 'ids' && !page.notModified) rs.etag = page.etag;
    await store.save(state);
    await options.onPage?.({ resource, mode: pass.mode, page: pass.pages, records: page.items.length, received: pass.received, last: pass.complete });
  }

  let deleted: string[] = [];
  if (pass.mode !== 'incremental') {
    const seen = await store.seen(resource);
    deleted = [...(await target.ids())].filter((id) => !seen.has(id));
    if (deleted.length > 0) await target.remove(deleted);
  }
  await target.commit?.();
  const clearsDeletions = pass.mode !== 'incremental';
  Object.assign(rs, {
    // A deletion pass reads no record: the since of the records stays.
    since: pass.mode === 'ids' ? rs.since : pass.watermark,
    completedPasses: rs.completedPasses + (pass.mode === 'ids' ? 0 : 1),
    passesSinceFull: clearsDeletions ? 0 : rs.passesSinceFull + 1,
    lastFullPassAt: clearsDeletions ? (options.now?.() ?? new Date()).toISOString() : rs.lastFullPassAt,
    pass: null,
  });
  await store.save(state);
  if (clearsDeletions) await store.clearSeen(resource);
  return { pages: pass.pages, received: pass.received, notModified, deleted };
}

/** The next page of the pass. A cursor the service no longer takes (after an upgrade, say) starts the pass over. */
async function fetchPage(ctx: ResourceContext, plan: PassPlan): Promise<FetchedPage> {
  const { pass } = plan;
  try {
    return await fetchPlanned(ctx.lister, plan, ctx.options.signal);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'invalid_cursor' && pass.cursor !== null)) throw error;
    if (pass.mode !== 'incremental') await ctx.store.clearSeen(ctx.resource);
    Object.assign(pass, { watermark: null, cursor: null, pages: 0, received: 0 });
    return fetchPlanned(ctx.lister, plan, ctx.options.signal);
  }
}
