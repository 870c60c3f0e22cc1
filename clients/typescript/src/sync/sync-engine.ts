import { ApiError } from '../api-error.js';
import type { IntegrationClient } from '../integration-client.js';
import type { Candidate, Vacancy } from '../types.js';
import { SyncStateError, type PassState, type ResourceState, type SyncResource, type SyncState, type SyncStateStore } from './sync-state.js';
import type { SyncRecord, SyncTarget } from './sync-target.js';

export interface SyncOptions {
  /** Where the state lives between runs (FileSyncStateStore from the /node entry keeps it in a file). */
  readonly state: SyncStateStore;
  /** Mirror the vacancies here, every status. */
  readonly vacancies?: SyncTarget<Vacancy>;
  /** Mirror the candidates here. */
  readonly candidates?: SyncTarget<Candidate>;
  /** Make every n-th pass of a resource a full one, which finds deletions. Default 24; 1 makes every pass full. */
  readonly fullPassEvery?: number;
  /** Also make a pass full when the last full pass is older than this. */
  readonly fullPassAfterMs?: number;
  /** Make this run's passes full: a stopped incremental pass begins again as a full one; a stopped full pass goes on. */
  readonly full?: boolean;
  /**
   * Before anything is written, ask for one record of each resource mirrored, so that a key without a scope
   * fails the run at once (SyncAccessError) instead of after the other resource and its state were written.
   * Default true; false when the caller has just called checkSyncAccess itself.
   */
  readonly checkAccess?: boolean;
  /** Page size. Default 500, the largest the API gives. */
  readonly pageSize?: number;
  /** Called after each page is applied and its cursor saved. A throw stops the run; the next run goes on from there. */
  readonly onPage?: (event: SyncPageEvent) => void | Promise<void>;
  readonly signal?: AbortSignal;
  readonly now?: () => Date;
}

export interface SyncPageEvent {
  readonly resource: SyncResource;
  readonly mode: PassState['mode'];
  /** Pages of this pass handled so far, the resumed ones included. */
  readonly page: number;
  readonly records: number;
  /** Records of this pass so far. */
  readonly received: number;
  readonly last: boolean;
}

export interface ResourceReport {
  readonly mode: PassState['mode'];
  /** The pass went on from a run that had stopped in its middle. */
  readonly resumed: boolean;
  readonly since: string | null;
  readonly nextSince: string;
  readonly pages: number;
  readonly received: number;
  /** Ids removed from the target: found missing by a full pass. */
  readonly deleted: readonly string[];
}

export type SyncReport = Partial<Record<SyncResource, ResourceReport>>;

interface Lister {
  (query: { since: string | undefined; cursor: string | undefined; limit: number }, signal?: AbortSignal): Promise<{ items: SyncRecord[]; nextCursor: string | null; watermark: string }>;
}

/**
 * One sync run (spec part 8, sync rules; DESIGN 3, No lost changes). For each resource, vacancies first:
 * go on with the pass a crashed run left, or start one (full when due, incremental from the saved since
 * otherwise); take the watermark of its first page; page with the cursor to the end, applying each page to
 * the target and saving the cursor after it; at the end of a full pass remove what it did not see; only
 * then move since to the watermark. A change made while the run pages is newer than the watermark, so the
 * next run gets it; a record changed during the pass moves to the end of the order and comes again.
 */
export async function runSync(client: IntegrationClient, options: SyncOptions): Promise<SyncReport> {
  const store = options.state;
  const state = (await store.load()) ?? { version: 1, apiRoot: client.apiRoot, resources: {} };
  if (state.apiRoot !== client.apiRoot) throw new SyncStateError(`The sync state belongs to ${state.apiRoot}, not to ${client.apiRoot}: use another state.`);
  const mirrored = SYNC_RESOURCES.filter((resource) => options[resource] !== undefined);
  if (options.checkAccess !== false) await checkSyncAccess(client, mirrored, options.signal);
  const limit = options.pageSize ?? 500;
  const report: SyncReport = {};
  for (const resource of mirrored) {
    const target = options[resource] as SyncTarget<SyncRecord>;
    const list = listerOf(client, resource);
    const resources = state.resources as Record<SyncResource, ResourceState>;
    resources[resource] ??= { since: null, completedPasses: 0, passesSinceFull: 0, lastFullPassAt: null, pass: null };
    report[resource] = await runPass({ resource, target, list, limit, store, state, resourceState: resources[resource], options });
  }
  return report;
}

/** The resources a sync mirrors, in the order it mirrors them (a candidate's vacancyTitle comes from its vacancy). */
const SYNC_RESOURCES: readonly SyncResource[] = ['vacancies', 'candidates'];

function listerOf(client: IntegrationClient, resource: SyncResource): Lister {
  return resource === 'vacancies'
    ? (q, signal) => client.listVacancies({ ...q, status: 'all' }, signalOf(signal))
    : (q, signal) => client.listCandidates(q, signalOf(signal));
}

/** The scope each resource's list asks of the key (spec 5.3). */
const READ_SCOPE: Readonly<Record<SyncResource, string>> = { vacancies: 'vacancies:read', candidates: 'candidates:read' };

/** The key may not read a resource the sync mirrors: found before the sync wrote anything. */
export class SyncAccessError extends Error {
  override readonly name = 'SyncAccessError';
  /** The scopes the key lacks, such as candidates:read. */
  readonly missingScopes: readonly string[];

  constructor(refused: readonly SyncResource[], mirrored: readonly SyncResource[]) {
    const missing = refused.map((resource) => READ_SCOPE[resource]);
    const needed = mirrored.map((resource) => READ_SCOPE[resource]);
    super(
      `The key lacks the scope${missing.length > 1 ? 's' : ''} ${missing.join(' and ')} (the API answered 403); nothing was written. ` +
        `A sync of ${mirrored.join(' and ')} needs a key with ${needed.join(' and ')}.`,
    );
    this.missingScopes = missing;
  }
}

/**
 * Reads one record of each resource, all at once: resolves when the key may read them all, and throws
 * SyncAccessError naming every scope missing (a 403 of the API), or the first other failure (a 401, the
 * network), when it may not. Writes nothing: call it before creating the files a sync will write.
 */
export async function checkSyncAccess(client: IntegrationClient, resources: readonly SyncResource[], signal?: AbortSignal): Promise<void> {
  const probes = await Promise.allSettled(resources.map((resource) => listerOf(client, resource)({ since: undefined, cursor: undefined, limit: 1 }, signal)));
  const refused = resources.filter((_, i) => {
    const probe = probes[i];
    return probe?.status === 'rejected' && probe.reason instanceof ApiError && probe.reason.status === 403;
  });
  if (refused.length > 0) throw new SyncAccessError(refused, resources);
  const failed = probes.find((probe) => probe.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}

interface PassContext {
  readonly resource: SyncResource;
  readonly target: SyncTarget<SyncRecord>;
  readonly list: Lister;
  readonly limit: number;
  readonly store: SyncStateStore;
  readonly state: SyncState;
  readonly resourceState: ResourceState;
  readonly options: SyncOptions;
}

async function runPass(ctx: PassContext): Promise<ResourceReport> {
  const { resource, target, store, state, resourceState: rs, options } = ctx;
  // A full pass asked for replaces a stopped incremental one: what that one applied stays, and the full pass
  // reads everything again from nothing.
  if (options.full === true && rs.pass !== null && rs.pass.mode !== 'full') rs.pass = null;
  const resumed = rs.pass !== null;
  if (rs.pass === null) {
    const mode = fullPassDue(rs, options) ? 'full' : 'incremental';
    // A full pass counts what it sees from nothing; an earlier one may have stopped before it could clean up.
    if (mode === 'full') await store.clearSeen(resource);
    rs.pass = { mode, since: mode === 'full' ? null : rs.since, watermark: null, cursor: null, pages: 0, received: 0, complete: false };
  }
  const pass = rs.pass;
  while (!pass.complete) {
    options.signal?.throwIfAborted();
    const page = await fetchPage(ctx, pass);
    if (pass.watermark === null) {
      if (page.watermark === '') throw new SyncStateError(`The ${resource} page has no X-Sync-Watermark header: a sync cannot go on safely.`);
      pass.watermark = page.watermark;
    }
    await target.upsert(page.items);
    if (pass.mode === 'full') await store.addSeen(resource, page.items.map((item) => item.id));
    pass.cursor = page.nextCursor;
    pass.pages += 1;
    pass.received += page.items.length;
    pass.complete = page.nextCursor === null;
    await store.save(state);
    await options.onPage?.({ resource, mode: pass.mode, page: pass.pages, records: page.items.length, received: pass.received, last: pass.complete });
  }

  let deleted: string[] = [];
  if (pass.mode === 'full') {
    const seen = await store.seen(resource);
    deleted = [...(await target.ids())].filter((id) => !seen.has(id));
    if (deleted.length > 0) await target.remove(deleted);
  }
  await target.commit?.();
  const nextSince = pass.watermark as string;
  Object.assign(rs, {
    since: nextSince,
    completedPasses: rs.completedPasses + 1,
    passesSinceFull: pass.mode === 'full' ? 0 : rs.passesSinceFull + 1,
    lastFullPassAt: pass.mode === 'full' ? (options.now?.() ?? new Date()).toISOString() : rs.lastFullPassAt,
    pass: null,
  });
  await store.save(state);
  if (pass.mode === 'full') await store.clearSeen(resource);
  return { mode: pass.mode, resumed, since: pass.since, nextSince, pages: pass.pages, received: pass.received, deleted };
}

/** The next page of the pass. A cursor the service no longer takes (after an upgrade, say) starts the pass over. */
async function fetchPage(ctx: PassContext, pass: PassState) {
  const query = { since: pass.since ?? undefined, cursor: pass.cursor ?? undefined, limit: ctx.limit };
  try {
    return await ctx.list(query, ctx.options.signal);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'invalid_cursor' && pass.cursor !== null)) throw error;
    if (pass.mode === 'full') await ctx.store.clearSeen(ctx.resource);
    Object.assign(pass, { watermark: null, cursor: null, pages: 0, received: 0 });
    return ctx.list({ ...query, cursor: undefined }, ctx.options.signal);
  }
}

function fullPassDue(rs: ResourceState, options: SyncOptions): boolean {
  if (options.full === true || rs.since === null) return true;
  const every = options.fullPassEvery ?? 24;
  if (rs.passesSinceFull + 1 >= every) return true;
  if (options.fullPassAfterMs === undefined) return false;
  const last = rs.lastFullPassAt === null ? 0 : Date.parse(rs.lastFullPassAt);
  return (options.now?.() ?? new Date()).getTime() - last >= options.fullPassAfterMs;
}

function signalOf(signal: AbortSignal | undefined) {
  return signal === undefined ? {} : { signal };
}
