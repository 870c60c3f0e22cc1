import type { PgSession } from './pg-statements.js';
import { executeReusable } from './pg-statements.js';
import { jsonb } from './sql-values.js';

/**
 * The claims of the feed's ledger (PgFeedLedger.claimEvents): an event's id recorded as applied, and the
 * versions of its entity (and of the vacancy it names) read, in one statement, prepared where the pool keeps
 * prepared statements (executeReusable, ADR 22).
 */

/**
 * One claim as claimEvents sends it: `n`, its index in the call; `kind` and `entity_id` null for an event of no
 * entity; `vacancy_id`, the vacancy its change names, null when none.
 */
export interface ClaimRow {
  readonly n: number;
  readonly company_id: string;
  readonly source: string;
  readonly event_id: string;
  readonly kind: string | null;
  readonly entity_id: string | null;
  readonly vacancy_id: string | null;
}

/**
 * A row of a claim's answer: none for a duplicate; for a new id, one per version of its entity (or one of nulls),
 * and one per version of the vacancy it names (`named`; none when it has no versions).
 */
export interface ClaimAnswer {
  readonly n: number;
  readonly named: boolean;
  readonly aspect: string | null;
  readonly version: string | null;
}

/** A row of an entity's versions, as the claims and versionsOf read it. */
export interface VersionRow {
  readonly aspect: string;
  readonly version: string;
}

export function claimMany(session: PgSession, given: readonly ClaimRow[], now: Date): Promise<ClaimAnswer[]> {
  return executeReusable<ClaimAnswer>(
    session,
    `with given as (
       select * from jsonb_to_recordset(?::jsonb)
         as g(n int, company_id text collate "C", source text collate "C", event_id text collate "C", kind text collate "C", entity_id text collate "C", vacancy_id text collate "C")),
     claim as (
       insert into feed_applied_events (company_id, source, event_id, applied_at)
       select company_id, source, event_id, ?::timestamptz from given order by company_id, source, event_id
       on conflict (company_id, source, event_id) do nothing
       returning company_id, source, event_id)
     select g.n, false as named, v.aspect, v.version::text as version
       from given as g
       join claim as c on c.company_id = g.company_id and c.source = g.source and c.event_id = g.event_id
       left join feed_entity_versions as v on v.company_id = g.company_id and v.entity_kind = g.kind and v.entity_id = g.entity_id
     union all
     select g.n, true, v.aspect, v.version::text
       from given as g
       join claim as c on c.company_id = g.company_id and c.source = g.source and c.event_id = g.event_id
       join feed_entity_versions as v on v.company_id = g.company_id and v.entity_kind = 'vacancy' and v.entity_id = g.vacancy_id`,
    [jsonb(given), now],
  );
}

/** claimMany's statement for one claim, its values in place of the set (a null kind or vacancy id matches no version, as there). */
export function claimOne(session: PgSession, one: ClaimRow, now: Date): Promise<ClaimAnswer[]> {
  return executeReusable<ClaimAnswer>(
    session,
    `with claim as (
       insert into feed_applied_events (company_id, source, event_id, applied_at) values (?, ?, ?, ?::timestamptz)
       on conflict (company_id, source, event_id) do nothing
       returning 1)
     select ?::int as n, false as named, v.aspect, v.version::text as version
       from claim
       left join feed_entity_versions as v on v.company_id = ? and v.entity_kind = ? and v.entity_id = ?
     union all
     select ?::int, true, v.aspect, v.version::text
       from claim
       join feed_entity_versions as v on v.company_id = ? and v.entity_kind = 'vacancy' and v.entity_id = ?`,
    [one.company_id, one.source, one.event_id, now, one.n, one.company_id, one.kind, one.entity_id, one.n, one.company_id, one.vacancy_id],
  );
}
