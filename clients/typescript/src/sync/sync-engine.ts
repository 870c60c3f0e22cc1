import { ApiError } from '../api-error.js';
import type { IntegrationClient } from '../integration-client.js';
import type { Candidate, Vacancy } from '../types.js';
import { listerOf, type FetchedPage, type Lister } from './sync-lister.js';
import { SyncStateError, type PassState, type ResourceState, type SyncResource, type SyncState, type SyncStateStore } from './sync-state.js';
import type { SyncTarget } from './sync-target.js';
import { runResource, type PassPlan } from './sync-pass.js';

export interface SyncOptions {
  /** Where the state lives between runs (FileSyncStateStore from the /node entry keeps it in a file). */
  readonly state: SyncStateStore;
  /** Mirror the vacancies here, every status. */
  readonly vacancies?: SyncTarget<Vacancy>;
  /** Mirror the candidates here. */
  readonly candidates?: SyncTarget<Candidate>;
  /**
   * Follow every n-th incremental pass of a resource with a deletion pass, which reads identifiers only (fields=id) and
   * removes what it did not see. Default 24; 1 makes one every run.
   */
  readonly fullPassEvery?: number;
  /** Also make a deletion pass when the last one (or the last full pass) is older than this. */
  readonly fullPassAfterMs?: number;
  /**
   * Make this run's passes full: every record read again, then what was not seen removed. A stopped incremental
   * or deletion pass begins again as a full one; a stopped full pass goes on.
   */
  readonly full?: boolean;
  /**
   * Before anything is written, read the first page of each resource mirrored, all at once, so that a key without a
   * scope fails the run at once (SyncAccessError) instead of after the other resource and its state were written.
   * Those pages are the passes' first pages, so the check costs no request of its own. Default true.
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
  /** Records (or, in a deletion pass, ids) of this pass so far. */
  readonly received: number;
  readonly last: boolean;
}

export interface ResourceReport {
  /** The records pass of this run; ids when the run only finished a deletion pass a stopped run had begun. */
  readonly mode: PassState['mode'];
  /** The pass went on from a run that had stopped in its middle. */
  readonly resumed: boolean;
  readonly since: string | null;
  readonly nextSince: string;
  readonly pages: number;
  readonly received: number;
  /** The first page was answered 304: nothing changed since the page held, and no request point was spent. */
  readonly notModified: boolean;
  /** A deletion pass (identifiers only) ran in this run: its pages and ids. */
  readonly deletionPass: { readonly pages: number; readonly ids: number } | null;
  /** Ids removed from the target: found missing by a full or a deletion pass. */
  readonly deleted: readonly string[];
}

export type SyncReport = Partial<Record<SyncResource, ResourceReport>>;

/**
 * One sync run (spec part 8, sync rules; DESIGN 3, No lost changes). For each resource, vacancies first:
 * go on with the pass a crashed run left, or start one (full at first or when asked, incremental from the saved
 * since otherwise); take the watermark of its first page; page with the cursor to the end, applying each page to
 * the target and saving the cursor after it; at the end of a full pass remove what it did not see; only
 * then move since to the watermark. An incremental pass asks for its first page with the ETag of the last page it
 * applied: a 304 means that page is unchanged, so nothing new exists. When due, a deletion pass follows, reading
 * identifiers only and removing what it did not see. A change made while the run pages is newer than the
 * watermark, so the next run gets it; a record changed during the pass moves to the end of the order and comes again.
 */
export async function runSync(client: IntegrationClient, options: SyncOptions): Promise<SyncReport> {
  const store = options.state;
  const state = (await store.load()) ?? { version: 1, apiRoot: client.apiRoot, resources: {} };
  if (state.apiRoot !== client.apiRoot) throw new SyncStateError(`The sync state belongs to ${state.apiRoot}, not to ${client.apiRoot}: use another state.`);
  const mirrored = SYNC_RESOURCES.filter((resource) => options[resource] !== undefined);
  const limit = options.pageSize ?? 500;
  const resources = state.resources as Record<SyncResource, ResourceState>;
  const plans = mirrored.map((resource) => {
    resources[resource] ??= { since: null, completedPasses: 0, passesSinceFull: 0, lastFullPassAt: null, pass: null, etag: null };
    return { resource, lister: listerOf(client, resource), plan: planOf(resources[resource], options, limit) };
  });
  const firstPages = options.checkAccess === false ? [] : await firstPagesOf(plans, mirrored, options.signal);
  const report: SyncReport = {};
  for (const [i, { resource, lister, plan }] of plans.entries()) {
    const target = options[resource] as SyncTarget<{ id: string; updatedAt: string }>;
    const first = firstPages[i] ?? null;
    report[resource] = await runResource({ resource, target, lister, limit, store, state, resourceState: resources[resource], options }, plan, first);
  }
  return report;
}

/** The resources a sync mirrors, in the order it mirrors them (a candidate's vacancyTitle comes from its vacancy). */
const SYNC_RESOURCES: readonly SyncResource[] = ['vacancies', 'candidates'];

/** What this run does for a resource, decided before anything is read or written. */
function planOf(rs: ResourceState, options: SyncOptions, limit: number): PassPlan {
  // A full pass asked for replaces a stopped incremental or deletion one: what that one applied stays.
  const under = options.full === true && rs.pass !== null && rs.pass.mode !== 'full' ? null : rs.pass;
  const deletionDue = deletionPassDue(rs, options);
  if (under !== null) return { pass: under, resumed: true, deletions: under.mode === 'incremental' && deletionDue, limit, etag: rs.etag ?? null };
  const mode = options.full === true || rs.since === null ? 'full' : 'incremental';
  const pass: PassState = { mode, since: mode === 'full' ? null : rs.since, watermark: null, cursor: null, pages: 0, received: 0, complete: false };
  return { pass, resumed: false, deletions: mode === 'incremental' && deletionDue, limit, etag: rs.etag ?? null };
}

function deletionPassDue(rs: ResourceState, options: SyncOptions): boolean {
  const every = options.fullPassEvery ?? 24;
  if (rs.passesSinceFull + 1 >= every) return true;
  if (options.fullPassAfterMs === undefined) return false;
  const last = rs.lastFullPassAt === null ? 0 : Date.parse(rs.lastFullPassAt);
  return (options.now?.() ?? new Date()).getTime() - last >= options.fullPassAfterMs;
}

/**
 * The first page of each planned pass, all at once: a key that may not read a resource is found (SyncAccessError)
 * before anything is written. A page that cannot be had here for another reason (a cursor the service no longer
 * takes) is left to its pass, which knows how to start over.
 */
async function firstPagesOf(plans: readonly { resource: SyncResource; lister: Lister; plan: PassPlan }[], mirrored: readonly SyncResource[], signal?: AbortSignal): Promise<(FetchedPage | null)[]> {
  const probes = await Promise.allSettled(plans.map(({ lister, plan }) => fetchPlanned(lister, plan, signal)));
  const refused = plans.filter((_, i) => isForbidden(probes[i])).map(({ resource }) => resource);
  if (refused.length > 0) throw new SyncAccessError(refused, mirrored);
  return probes.map((probe) => {
    if (probe.status === 'fulfilled') return probe.value;
    if (probe.reason instanceof ApiError && probe.reason.code === 'invalid_cursor') return null;
    throw probe.reason;
  });
}

/** The next page of a planned pass, as the pass itself would ask for it. */
export function fetchPlanned(lister: Lister, plan: Pick<PassPlan, 'pass' | 'limit' | 'etag'>, signal?: AbortSignal): Promise<FetchedPage> {
  const { pass, etag } = plan;
  const query = { since: pass.since ?? undefined, cursor: pass.cursor ?? undefined, limit: plan.limit };
  if (pass.mode === 'ids') return lister.ids(query, signal);
  const conditional = pass.mode === 'incremental' && pass.cursor === null && etag !== null;
  return lister.records(query, conditional ? etag : undefined, signal);
}

const isForbidden = (probe: PromiseSettledResult<unknown> | undefined) => probe?.status === 'rejected' && probe.reason instanceof ApiError && probe.reason.status === 403;

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
 * Asks once for each resource whether the key may read it, all at once: resolves when the key may read them all, and
 * throws SyncAccessError naming every scope missing (a 403 of the API), or the first other failure (a 401, the
 * network), when it may not. Writes nothing: call it before creating the files a sync will write. Each question is an
 * identifier-only page of one record with If-None-Match: *, answered 304, so it spends no point of the request budget.
 */
export async function checkSyncAccess(client: IntegrationClient, resources: readonly SyncResource[], signal?: AbortSignal): Promise<void> {
  const options = signal === undefined ? {} : { signal };
  const ask = (resource: SyncResource) =>
    resource === 'vacancies' ? client.listVacanciesIfChanged({ status: 'all', limit: 1 }, '*', options) : client.listCandidatesIfChanged({ limit: 1 }, '*', options);
  const probes = await Promise.allSettled(resources.map(ask));
  const refused = resources.filter((_, i) => isForbidden(probes[i]));
  if (refused.length > 0) throw new SyncAccessError(refused, resources);
  const failed = probes.find((probe) => probe.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}
