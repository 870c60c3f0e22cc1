import { createHash } from 'node:crypto';
import type pg from 'pg';
import { v7 } from 'uuid';
import type { CandidateView } from '../../application/ports/candidate-repository.port.js';
import { readPerson, readReferral, readResume } from '../../adapters/persistence/postgres/row-mapping/json-documents.js';
import { renderCandidateRest } from '../../adapters/presenters/candidate.presenter.js';
import { renderVacancy } from '../../adapters/presenters/vacancy.presenter.js';
import { eventTimeOf } from '../../adapters/feed/platform-event-parser.js';

/**
 * The SQL of the feed benchmark's ceiling (feed-ceiling.ts runs it as a consumer; bench/feed-sql-probe.ts runs
 * it beside the service's handler and compares the statements): per event type, the statements the service
 * sends, in its order and sent the same way: the writes that carry documents (a card's insert and update, an
 * application's insert, a vacancy's insert and update) with their values bound, in the service's text with its
 * `$n` placeholders and as many values (extended protocol, as executeBound sends them through knex), every other
 * statement as plain text with the values inlined (simple query protocol, as MikroORM inlines them). One
 * transaction per event (or per batch with lanes), its BEGIN in the message of its first statement behind the
 * SET LOCAL prefix (`SET LOCAL …; BEGIN …; <lock and clock>`, as boundEveryTransaction sends it: that statement
 * is never bound), then one claim of every event of the transaction that also reads their entities' versions
 * (one statement), when more than one claimed event is a card's the cards they are about read ahead (one more,
 * answering the card reads after it until a write of a card forgets them), per event its check against the
 * versions the batch keeps (those read, changed by what the batch's earlier events recorded) and its change's
 * statements (the reads of the use cases included), and at the end every version record of the batch in the
 * message of its COMMIT, in front of it (the COMMIT alone when nothing was recorded). No ajv (the event is
 * JSON.parse'd), no Inversify, no MikroORM (no entity, identity map or query builder), no domain objects: the
 * values written are derived more simply than the domain derives them (bench/README.md, Feed). Each record's rendering (ADR 18) is made here with the
 * service's presenter functions, from a view of the values written: the service renders every record it writes
 * too, so it is the same work.
 */

/** What the service puts in front of a statement sent on an idle connection (ADR 15), with its default timeouts. */
const PREFIX = 'set local statement_timeout = 10000; set local idle_in_transaction_session_timeout = 30000; ';
/** The unit of work's BEGIN, which goes in the message of the transaction's first statement (transaction-timeouts.ts). */
const BEGIN = 'BEGIN TRANSACTION ISOLATION LEVEL read committed; ';
const COMPANY_LOCK = 1212764741;
const TOMBSTONE = '#deleted';
const REVIVED_AFTER = 'revived-after';
const DEFAULT_COLUMNS = ['NEW', 'AI_DIALOG', 'INTERVIEW', 'OFFER', 'ONBOARDING', 'REJECTION'];

/** The service's CANDIDATE_ROW_SELECT (point-reads.ts), character for character: one line, the names joined by `, `. */
const CARD_COLUMNS =
  'company_id, id, vacancy_id, stage, source, external_id, cover_letter, person, resume, referral, technical, origin_card_id, ' +
  'request_fingerprint, source_ref, round(extract(epoch from created_at) * 1000)::float8 as created_at_ms, ' +
  'round(extract(epoch from card_updated_at) * 1000)::float8 as card_updated_at_ms, ' +
  'round(extract(epoch from resume_updated_at) * 1000)::float8 as resume_updated_at_ms';
const VACANCY_COLUMNS = `company_id, id, title, status, city, office_address, experience, work_format, work_formats, salary_from, salary_to,
  salary_currency, salary_gross, employment_form, work_schedule, skills, languages, professional_roles, description, responsibilities,
  positions_count, source_url, recruiter, source_ref, round(extract(epoch from published_at) * 1000)::float8 as published_at_ms,
  round(extract(epoch from created_at) * 1000)::float8 as created_at_ms, round(extract(epoch from updated_at) * 1000)::float8 as updated_at_ms`;

/** A statement's `?` numbered `$1`, `$2`, … in order, as knex sends executeBound's statements (done once, at load). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** The card statements of PgCandidateRepository (insert, application insert, update), each bound: 18 values. */
const CARD_WRITE_COLUMNS = `company_id, id, vacancy_id, stage, source, external_id, cover_letter, person, resume, referral, technical, origin_card_id,
  request_fingerprint, source_ref, created_at, card_updated_at, resume_updated_at, rendering`;
const CARD_VALUES = '(?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?, ?, ?, ?, ?::timestamptz, ?::timestamptz, ?::timestamptz, ?)';
const INSERT_CARD_SQL = numbered(`insert into candidates (${CARD_WRITE_COLUMNS}) values ${CARD_VALUES}`);
const INSERT_APPLICATION_SQL = numbered(
  `insert into candidates (${CARD_WRITE_COLUMNS}) values ${CARD_VALUES} on conflict (company_id, external_id) where external_id is not null do nothing returning external_id`,
);
const UPDATE_CARD_SQL = numbered(
  'update candidates set vacancy_id = ?, stage = ?, source = ?, external_id = ?, cover_letter = ?, person = ?::jsonb, resume = ?::jsonb, ' +
    'referral = ?::jsonb, technical = ?, origin_card_id = ?, request_fingerprint = ?, source_ref = ?, created_at = ?::timestamptz, ' +
    'card_updated_at = ?::timestamptz, resume_updated_at = ?::timestamptz, rendering = ? where company_id = ? and id = ?',
);

/** PgVacancyRepository's columns after the key, with their parameters: its insert and update, bound (28 values). */
const VACANCY_FIELDS: readonly (readonly [column: string, parameter: string])[] = [
  ['title', '?'], ['status', '?'], ['city', '?'], ['office_address', '?'], ['experience', '?'], ['work_format', '?'], ['work_formats', '?::jsonb'],
  ['salary_from', '?::float8'], ['salary_to', '?::float8'], ['salary_currency', '?'], ['salary_gross', '?::boolean'], ['employment_form', '?'],
  ['work_schedule', '?::jsonb'], ['skills', '?::jsonb'], ['languages', '?::jsonb'], ['professional_roles', '?::jsonb'], ['description', '?'],
  ['responsibilities', '?'], ['positions_count', '?::integer'], ['source_url', '?'], ['published_at', '?::timestamptz'], ['recruiter', '?'],
  ['source_ref', '?'], ['created_at', '?::timestamptz'], ['updated_at', '?::timestamptz'], ['rendering', '?'],
];
const INSERT_VACANCY_SQL = numbered(
  `insert into vacancies (company_id, id, ${VACANCY_FIELDS.map(([column]) => column).join(', ')}) values (?, ?, ${VACANCY_FIELDS.map(([, parameter]) => parameter).join(', ')})`,
);
const UPDATE_VACANCY_SQL = numbered(
  `update vacancies set ${VACANCY_FIELDS.map(([column, parameter]) => `${column} = ${parameter}`).join(', ')} where company_id = ? and id = ?`,
);

type Row = Record<string, any>;
export type Outcome = 'applied' | 'duplicate' | 'stale';

export interface CeilingEvent {
  readonly id: string;
  readonly source: string;
  readonly type: string;
  readonly subject: string;
  readonly companyid: string;
  readonly entityversion?: number;
  readonly time?: string;
  readonly data?: any;
}

/**
 * A value inlined as MikroORM inlines it (pg's escapeLiteral): quotes doubled, and a text with a backslash as an
 * escape string with its backslashes doubled (every rendering with a JSON escape in it, `\"` or `\n`, is one).
 */
function lit(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = String(value);
  const quoted = `'${text.replace(/'/g, "''").replace(/\\/g, '\\\\')}'`;
  return text.includes('\\') ? ` E${quoted}` : quoted;
}
const json = (value: unknown) => (value === null || value === undefined ? 'NULL' : lit(JSON.stringify(value)));
/** A bound `?::jsonb` value, as the repositories' jsonb(): the document's JSON text (null for none). */
const doc = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** An entity's versions: per aspect, and the deletion's (its tombstone), each with its time if any, as the service's FeedEntityVersions. */
interface Versions {
  readonly aspects: Map<string, number>;
  readonly times: Map<string, number>;
  deletedAt: number | null;
  deletedTime: number | null;
}

const noVersions = (): Versions => ({ aspects: new Map(), times: new Map(), deletedAt: null, deletedTime: null });

/** The versions of an entity from its rows (the ledger's versionsFrom), times as epoch ms. */
function versionsOfRows(rows: readonly Row[]): Versions {
  const versions = noVersions();
  for (const row of rows) {
    // The ledger keeps no times since ADR 16 was rewritten: none is read.
    const time = row.occurred_at_ms == null ? null : Number(row.occurred_at_ms);
    if (row.aspect === TOMBSTONE) {
      versions.deletedAt = Number(row.version);
      versions.deletedTime = time;
    } else {
      versions.aspects.set(row.aspect as string, Number(row.version));
      if (time !== null) versions.times.set(row.aspect as string, time);
    }
  }
  return versions;
}

/** The time kept with a version recorded over `stored` (the service's timeKept): the greater version's; at the same, the one given, else the one kept. */
function timeKept(stored: number | null | undefined, storedTime: number | null | undefined, version: number, time: number | null): number | null {
  if (stored === null || stored === undefined || version > stored) return time;
  return version === stored ? (time ?? storedTime ?? null) : (storedTime ?? null);
}

/** The service's UPDATE_VERSION (pg-feed-ledger.ts), character for character. */
const UPDATE_VERSION = 'version = greatest(feed_entity_versions.version, excluded.version), recorded_at = excluded.recorded_at';

/** The vacancy a change names besides its own entity (the service's namedVacancyOf). */
function namedVacancyOf(event: CeilingEvent): string | null {
  switch (event.type) {
    case 'application.submitted':
      return (event.data?.vacancyId as string | undefined) ?? null;
    default:
      return null;
  }
}

/** An event's time as epoch ms, read as the service's parser reads it (eventTimeOf), null without one. */
function timeOf(event: CeilingEvent): number | null {
  return eventTimeOf(event.time)?.getTime() ?? null;
}

const kindOf = (event: CeilingEvent) => (event.type.startsWith('candidate.') ? 'candidate' : 'vacancy');
/** An entity of the transaction's company, as a key of the versions its batch keeps. */
const entityKey = (kind: string, id: string) => `${kind}\u0000${id}`;

/**
 * One transaction's connection and clock, and the versions of the entities its batch is about (the service's
 * FeedBatchVersions: those the claim read, changed by the records of the batch's events so far), the records'
 * statements waiting for the batch's end.
 */
class Tx {
  private readonly versions = new Map<string, Versions>();
  private readonly records: string[] = [];
  /**
   * The cards read ahead for the batch by id (null: known absent), as PgCandidateRepository keeps them in
   * the unit of work's transaction: a card read answers from here, and a write forgets what it may change.
   */
  private readonly kept = new Map<string, Row | null>();

  constructor(
    readonly client: pg.PoolClient,
    readonly companyId: string,
    readonly now: string,
  ) {}

  async rows(sql: string): Promise<Row[]> {
    return (await this.client.query(sql)).rows as Row[];
  }

  /** The card by id: the one read ahead when kept (undefined when known absent), else read (findById). */
  card(id: string): Promise<Row | undefined> {
    const kept = this.kept.get(id);
    if (kept !== undefined) return Promise.resolve(kept ?? undefined);
    return this.rows(`select ${CARD_COLUMNS} from candidates where company_id = ${lit(this.companyId)} and id = ${lit(id)}`).then((r) => r[0]);
  }

  /**
   * The repository's preloadByIds: the cards of these ids not kept yet (each once, in first-seen order) read in
   * one statement, their ids inlined as a JSON array; every one of them kept, as its row or as absent.
   */
  async preload(ids: readonly string[]): Promise<void> {
    const wanted = [...new Set(ids)].filter((id) => !this.kept.has(id));
    if (wanted.length === 0) return;
    const rows = await this.rows(
      `select ${CARD_COLUMNS} from candidates where company_id = ${lit(this.companyId)} and id = any(array(select jsonb_array_elements_text(${json(wanted)}::jsonb)))`,
    );
    for (const id of wanted) this.kept.set(id, null);
    for (const row of rows) this.kept.set(row.id as string, row);
  }

  /**
   * What a write of the repository forgets before its statement: the written card (an insert or update), or
   * every card kept (without an id: a deletion, which takes technical cards along, or a vacancy's detachment).
   */
  forget(id?: string): void {
    if (id === undefined) this.kept.clear();
    else this.kept.delete(id);
  }

  vacancy(id: string): Promise<Row | undefined> {
    return this.rows(`select ${VACANCY_COLUMNS} from vacancies where company_id = ${lit(this.companyId)} and id = ${lit(id)}`).then((r) => r[0]);
  }

  async columns(vacancyId: string): Promise<string[]> {
    const rows = await this.rows(`select columns from boards where company_id = ${lit(this.companyId)} and vacancy_id = ${lit(vacancyId)}`);
    return (rows[0]?.columns as string[] | undefined) ?? DEFAULT_COLUMNS;
  }

  /**
   * Every event of the batch claimed at once, with the versions of the entities of those claimed and of the
   * vacancies they name (PgFeedLedger.claimEvents): a repeat of an id within the batch is not sent, and is a
   * duplicate; the others go as a JSON array of rows, inserted in key order; a batch of one, as its values. Per
   * event: null for a duplicate, else the versions read (none for an application); the named vacancies' versions
   * are kept by the batch, as ApplyPlatformEvent.applyAllIn keeps them.
   */
  async claimAll(events: readonly CeilingEvent[]): Promise<(Versions | null)[]> {
    const firsts = new Map<string, number>();
    events.forEach((event, n) => {
      const key = JSON.stringify([event.companyid, event.source, event.id]);
      if (!firsts.has(key)) firsts.set(key, n);
    });
    const given = [...firsts.values()].map((n) => {
      const event = events[n] as CeilingEvent;
      const versioned = event.type !== 'application.submitted';
      return {
        n, company_id: event.companyid, source: event.source, event_id: event.id,
        kind: versioned ? kindOf(event) : null, entity_id: versioned ? event.subject : null, vacancy_id: namedVacancyOf(event),
      };
    });
    const one = given.length === 1 ? (given[0] as (typeof given)[number]) : null;
    const rows = await this.rows(
      one !== null
        ? // A batch of one: the same statement with the claim's values in place of the set (as the service sends it).
          `with claim as (
         insert into feed_applied_events (company_id, source, event_id, applied_at) values (${lit(one.company_id)}, ${lit(one.source)}, ${lit(one.event_id)}, ${lit(this.now)}::timestamptz)
         on conflict (company_id, source, event_id) do nothing
         returning 1)
       select ${lit(one.n)}::int as n, false as named, v.aspect, v.version::text as version
         from claim
         left join feed_entity_versions as v on v.company_id = ${lit(one.company_id)} and v.entity_kind = ${lit(one.kind)} and v.entity_id = ${lit(one.entity_id)}
       union all
       select ${lit(one.n)}::int, true, v.aspect, v.version::text
         from claim
         join feed_entity_versions as v on v.company_id = ${lit(one.company_id)} and v.entity_kind = 'vacancy' and v.entity_id = ${lit(one.vacancy_id)}`
        : `with given as (
         select * from jsonb_to_recordset(${json(given)}::jsonb)
           as g(n int, company_id text collate "C", source text collate "C", event_id text collate "C", kind text collate "C", entity_id text collate "C", vacancy_id text collate "C")),
       claim as (
         insert into feed_applied_events (company_id, source, event_id, applied_at)
         select company_id, source, event_id, ${lit(this.now)}::timestamptz from given order by company_id, source, event_id
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
    );
    const claimed = new Map<number, { own: Row[]; named: Row[] }>();
    for (const row of rows) {
      const n = Number(row.n);
      const read = claimed.get(n) ?? { own: [], named: [] };
      claimed.set(n, read);
      if (row.aspect === null || row.version === null) continue;
      (row.named === true ? read.named : read.own).push(row);
    }
    events.forEach((event, n) => {
      const vacancyId = namedVacancyOf(event);
      const read = claimed.get(n);
      if (vacancyId !== null && read !== undefined) this.current('vacancy', vacancyId, versionsOfRows(read.named));
    });
    return events.map((_, n) => {
      const read = claimed.get(n);
      return read === undefined ? null : versionsOfRows(read.own);
    });
  }

  /**
   * The versions an event of the entity is checked against (FeedBatchVersions.current): the batch's own once an
   * earlier event of it was about the entity, else those its claim read, kept from now on.
   */
  current(kind: string, id: string, claimed: Versions): Versions {
    const key = entityKey(kind, id);
    const known = this.versions.get(key);
    if (known !== undefined) return known;
    this.versions.set(key, claimed);
    return claimed;
  }

  /**
   * Whether the entity's deletion is recorded (ApplyPlatformEvent.isDeleted): as the batch knows it, else as
   * stored, read as PgFeedLedger.versionsOf reads it.
   */
  async isDeleted(kind: string, id: string): Promise<boolean> {
    return (await this.versionsOf(kind, id)).deletedAt !== null;
  }

  /** The entity's versions as the batch knows them, else as stored, read as PgFeedLedger.versionsOf reads them. */
  async versionsOf(kind: string, id: string): Promise<Versions> {
    const known = this.versions.get(entityKey(kind, id));
    if (known !== undefined) return known;
    const rows = await this.rows(
      `select v.aspect, v.version::text as version from feed_entity_versions as v where company_id = ${lit(this.companyId)} and entity_kind = ${lit(kind)} and entity_id = ${lit(id)}`,
    );
    return versionsOfRows(rows);
  }

  /**
   * Whether a change naming the vacancy was made before its latest deletion applied here, by the times (the
   * service's madeBeforeDeletion): null when they cannot tell.
   */
  async madeBeforeDeletion(vacancyId: string | null, time: number | null): Promise<boolean | null> {
    if (vacancyId === null || time === null) return null;
    const versions = await this.versionsOf('vacancy', vacancyId);
    const deleted = versions.deletedAt !== null ? versions.deletedTime : (versions.times.get(REVIVED_AFTER) ?? null);
    if (deleted === null || deleted === time) return null;
    return time < deleted;
  }

  /** The ids of the cards on the vacancy whose keeper (a technical card's origin) the platform does not version. */
  async unversionedOn(vacancyId: string): Promise<string[]> {
    const placed = await this.rows(`select id, origin_card_id from candidates where company_id = ${lit(this.companyId)} and vacancy_id = ${lit(vacancyId)}`);
    const keeperOf = (card: Record<string, unknown>) => (card.origin_card_id ?? card.id) as string;
    const ids = [...new Set(placed.map(keeperOf).filter((id) => this.versions.get(entityKey('candidate', id)) === undefined))];
    const versioned = new Set(placed.map(keeperOf).filter((id) => (this.versions.get(entityKey('candidate', id))?.aspects.size ?? 0) > 0));
    // The ledger's IDS_CHUNK ids a statement.
    for (let start = 0; start < ids.length; start += 1_000) {
      const rows = await this.rows(
        `select distinct v.entity_id from feed_entity_versions as v
          where v.company_id = ${lit(this.companyId)} and v.entity_kind = 'candidate' and v.aspect <> ${lit(TOMBSTONE)}
            and v.entity_id = any(array(select jsonb_array_elements_text(${json(ids.slice(start, start + 1_000))}::jsonb)))`,
      );
      for (const row of rows) versioned.add(row.entity_id as string);
    }
    return placed.filter((card) => !versioned.has(keeperOf(card))).map((card) => String(card.id));
  }

  /**
   * recordVersions' statement, kept for the batch's end, and its effect on the versions the batch works with
   * now: each aspect's version never goes down, the tombstone goes.
   */
  recordVersions(kind: string, id: string, aspects: readonly string[], version: number, time: number | null = null): void {
    const c = lit(this.companyId);
    this.records.push(
      `with revived as (delete from feed_entity_versions where company_id = ${c} and entity_kind = ${lit(kind)} and entity_id = ${lit(id)} and aspect = ${lit(TOMBSTONE)})
     insert into feed_entity_versions (company_id, entity_kind, entity_id, aspect, version, recorded_at)
     select ${c}, ${lit(kind)}, ${lit(id)}, aspect, ${version}, ${lit(this.now)}::timestamptz from jsonb_array_elements_text(${json(aspects)}::jsonb) as given(aspect)
     on conflict (company_id, entity_kind, entity_id, aspect)
     do update set ${UPDATE_VERSION}`,
    );
    const key = entityKey(kind, id);
    const before = this.versions.get(key) ?? noVersions();
    const after = { aspects: new Map(before.aspects), times: new Map(before.times), deletedAt: null, deletedTime: null };
    for (const aspect of aspects) {
      const kept = timeKept(after.aspects.get(aspect), after.times.get(aspect), version, time);
      after.aspects.set(aspect, Math.max(after.aspects.get(aspect) ?? version, version));
      if (kept === null) after.times.delete(aspect);
      else after.times.set(aspect, kept);
    }
    this.versions.set(key, after);
  }

  /** recordDeletion's statement, kept for the batch's end, and its effect now: the aspects go, the tombstone never goes down. */
  recordDeletion(kind: string, id: string, version: number, time: number | null): void {
    const c = lit(this.companyId);
    this.records.push(
      `with forgotten as (delete from feed_entity_versions where company_id = ${c} and entity_kind = ${lit(kind)} and entity_id = ${lit(id)} and aspect <> ${lit(TOMBSTONE)})
       insert into feed_entity_versions (company_id, entity_kind, entity_id, aspect, version, recorded_at)
       values (${c}, ${lit(kind)}, ${lit(id)}, ${lit(TOMBSTONE)}, ${version}, ${lit(this.now)}::timestamptz)
       on conflict (company_id, entity_kind, entity_id, aspect)
       do update set ${UPDATE_VERSION}`,
    );
    const key = entityKey(kind, id);
    const before = this.versions.get(key) ?? noVersions();
    this.versions.set(key, {
      aspects: new Map(),
      times: new Map(),
      deletedAt: Math.max(before.deletedAt ?? version, version),
      deletedTime: timeKept(before.deletedAt, before.deletedTime, version, time),
    });
  }

  /**
   * The batch's records in front of its COMMIT, in one message (PgFeedLedger.recordAll defers them to the
   * unit of work's next statement, here its COMMIT; simple query, run in order); the COMMIT alone when there are none.
   */
  async recordAllAndCommit(): Promise<void> {
    await this.client.query([...this.records, 'COMMIT'].map((text) => `${text};`).join('\n'));
  }

  /** The whole card written back, as the repository's update does (bound), with its new rendering. */
  async updateCard(card: Row, changes: { stage?: string; resume?: unknown; cardUpdatedAt?: string; resumeUpdatedAt?: string }): Promise<void> {
    const stage = changes.stage ?? card.stage;
    const resume = changes.resume ?? card.resume;
    const cardUpdatedAt = changes.cardUpdatedAt ?? (iso(card.card_updated_at_ms) as string);
    const resumeUpdatedAt = changes.resumeUpdatedAt ?? (iso(card.resume_updated_at_ms) as string);
    const written = { ...card, stage, resume };
    // Every column but the key, then the key: the repository's order.
    const [companyId, id, ...fields] = cardParameters(written, iso(card.created_at_ms) as string, cardUpdatedAt, resumeUpdatedAt);
    this.forget(card.id as string);
    await this.client.query(UPDATE_CARD_SQL, [...fields, companyId, id]);
  }
}

/** A card's 18 values in CARD_WRITE_COLUMNS' order (the repository's rowParameters), its rendering made here. */
function cardParameters(card: Row, createdAt: string, cardUpdatedAt: string, resumeUpdatedAt: string): unknown[] {
  return [
    card.company_id, card.id, card.vacancy_id, card.stage, card.source, card.external_id, card.cover_letter, doc(card.person), doc(card.resume),
    doc(card.referral), card.technical, card.origin_card_id, card.request_fingerprint, card.source_ref, createdAt, cardUpdatedAt, resumeUpdatedAt,
    cardRendering(card, cardUpdatedAt, resumeUpdatedAt),
  ];
}

/**
 * A card's rendering from a row of its columns (jsonb documents as pg parses them, times as ISO text): the
 * presenters' JSON after vacancyTitle, of the card the row mapping's readers give back; null for a technical card.
 */
function cardRendering(card: Row, cardUpdatedAt: string, resumeUpdatedAt: string): string | null {
  if (card.technical === true) return null;
  const view: CandidateView = {
    id: card.id, vacancyId: card.vacancy_id, vacancyTitle: null, stage: card.stage, source: card.source, externalId: card.external_id,
    coverLetter: card.cover_letter, person: readPerson(card.person), resume: readResume(card.resume), referral: readReferral(card.referral),
    createdAt: new Date(card.created_at_ms), updatedAt: new Date(Math.max(Date.parse(cardUpdatedAt), Date.parse(resumeUpdatedAt))),
  };
  return renderCandidateRest(view);
}

/** The aspects a change sets ('all' for a deletion), as ApplyPlatformEvent decides. */
function aspectsOf(event: CeilingEvent): readonly string[] | 'all' {
  switch (event.type) {
    case 'vacancy.upserted':
      return ['vacancy'];
    case 'board.columns-set':
      return ['board'];
    case 'candidate.added':
      return ['card', 'resume', 'stage', 'vacancy'];
    case 'candidate.moved':
      return ['stage'];
    case 'candidate.resume-updated':
      return ['resume'];
    case 'candidate.transferred':
      return [`transfer:${event.data.vacancyId}`];
    default:
      return 'all';
  }
}

function isStale(versions: Versions, aspects: readonly string[] | 'all', version: number): boolean {
  if (versions.deletedAt !== null && version <= versions.deletedAt) return true;
  if (aspects === 'all') return [...versions.aspects.values()].some((stored) => version <= stored);
  const floor = versions.aspects.get(REVIVED_AFTER) ?? -Infinity;
  return aspects.some((aspect) => version <= Math.max(versions.aspects.get(aspect) ?? -Infinity, floor));
}

/** The service would retry such an event later (not yet applicable); the bench's events never get here. */
export class NotYet extends Error {}

/** An event of a vacancy or card, claimed (`claimed`: the versions its claim read), as ApplyPlatformEvent.applyIn takes it. */
async function versioned(tx: Tx, event: CeilingEvent, claimed: Versions): Promise<Outcome> {
  const kind = kindOf(event);
  const id = event.subject;
  const version = event.entityversion as number;
  const versions = tx.current(kind, id, claimed);
  const aspects = aspectsOf(event);
  const time = timeOf(event);
  if (isStale(versions, aspects, version)) return kind === 'vacancy' && aspects === 'all' ? lateVacancyDeletion(tx, id, version, versions) : 'stale';
  if (aspects === 'all') {
    if (kind === 'vacancy') await deleteVacancy(tx, id);
    else await deleteCard(tx, id);
    tx.recordDeletion(kind, id, version, timeOf(event));
    return 'applied';
  }
  const outcome = await change(tx, event);
  if (outcome !== 'applied') return outcome;
  if (versions.deletedAt !== null) tx.recordVersions(kind, id, [REVIVED_AFTER], versions.deletedAt, versions.deletedTime);
  tx.recordVersions(kind, id, aspects, version, time);
  return outcome;
}

/**
 * A deletion of a vacancy older than its present life (the service's vacancy.deleted handler): a board set before
 * it taken back (the repository's delete), the deletion recorded as the floor; stale at or below the floor.
 */
async function lateVacancyDeletion(tx: Tx, id: string, version: number, versions: Versions): Promise<Outcome> {
  if (versions.deletedAt !== null || (versions.aspects.get(REVIVED_AFTER) ?? -Infinity) >= version) return 'stale';
  const board = versions.aspects.get('board');
  const boardOfEarlierLife = board !== undefined && board <= version;
  if (boardOfEarlierLife) await tx.client.query(`delete from "boards" where "company_id" = ${lit(tx.companyId)} and "vacancy_id" = ${lit(id)}`);
  tx.recordVersions('vacancy', id, [REVIVED_AFTER], version);
  return boardOfEarlierLife ? 'applied' : 'stale';
}

async function change(tx: Tx, event: CeilingEvent): Promise<Outcome> {
  const { data, subject: id } = event;
  switch (event.type) {
    case 'candidate.resume-updated': {
      const card = await tx.card(id);
      if (card === undefined) throw new NotYet(`card ${id}`);
      if (JSON.stringify(card.resume) !== JSON.stringify(data)) await tx.updateCard(card, { resume: data, resumeUpdatedAt: tx.now });
      return 'applied';
    }
    case 'candidate.moved': {
      const card = await tx.card(id);
      if (card === undefined) throw new NotYet(`card ${id}`);
      if (card.vacancy_id === null) return 'stale';
      if (!(await tx.columns(card.vacancy_id)).includes(data.stage)) throw new NotYet(`column ${data.stage}`);
      if (card.stage !== data.stage) await tx.updateCard(card, { stage: data.stage, cardUpdatedAt: tx.now });
      return 'applied';
    }
    case 'vacancy.upserted':
      await upsertVacancy(tx, id, data);
      return 'applied';
    case 'board.columns-set': {
      if ((await tx.vacancy(id)) === undefined) throw new NotYet(`vacancy ${id}`);
      await tx.columns(id);
      const stages = await tx.rows(
        `select distinct stage collate "C" as stage from candidates where company_id = ${lit(tx.companyId)} and vacancy_id = ${lit(id)} and stage is not null order by 1`,
      );
      if (stages.some((row) => !(data.columns as string[]).includes(row.stage))) throw new NotYet('a removed column holds cards');
      await tx.client.query(
        `insert into boards (company_id, vacancy_id, columns) values (${lit(tx.companyId)}, ${lit(id)}, ${json(data.columns)}::jsonb) on conflict (company_id, vacancy_id) do update set columns = excluded.columns`,
      );
      return 'applied';
    }
    case 'candidate.added':
      return addCard(tx, id, data, timeOf(event));
    default:
      throw new Error(`the ceiling does not apply ${event.type}`);
  }
}

async function addCard(tx: Tx, id: string, data: any, time: number | null): Promise<Outcome> {
  if ((await tx.card(id)) !== undefined) return 'stale';
  // Placed where the event says, its vacancy here or not (ADR 16); the schema requires a stage.
  const card = {
    company_id: tx.companyId, id, vacancy_id: data.vacancyId, stage: data.stage, source: 'manual', external_id: null, cover_letter: null, person: data.candidate,
    resume: data.resume ?? {}, referral: data.referral ?? null, technical: false, origin_card_id: null, request_fingerprint: null, source_ref: null,
    created_at_ms: Date.parse(tx.now),
  };
  tx.forget(id);
  await tx.client.query(INSERT_CARD_SQL, cardParameters(card, tx.now, tx.now, tx.now));
  return 'applied';
}

async function upsertVacancy(tx: Tx, id: string, v: any): Promise<void> {
  const stored = await tx.vacancy(id);
  const workFormats: string[] = v.workFormats ?? [];
  const description = v.description ?? null;
  const vacancy = {
    id, title: v.title, status: v.status, city: v.city ?? null, officeAddress: v.officeAddress ?? null, experience: v.experience ?? null,
    workFormat: v.workFormat !== undefined ? v.workFormat : workFormatOf(workFormats), workFormats,
    salaryFrom: v.salaryFrom == null && v.salaryTo != null ? v.salaryTo : (v.salaryFrom ?? null), salaryTo: v.salaryTo ?? null,
    salaryCurrency: v.salaryCurrency ?? null, salaryGross: v.salaryGross ?? null, employmentForm: v.employmentForm ?? null,
    workSchedule: v.workSchedule ?? [], skills: v.skills ?? [], languages: v.languages ?? [], professionalRoles: v.professionalRoles ?? [], description,
    responsibilities: v.responsibilities !== undefined ? v.responsibilities : textOf(description), positionsCount: v.positionsCount ?? null,
    sourceUrl: v.sourceUrl ?? null, publishedAt: v.publishedAt == null ? null : new Date(v.publishedAt),
    createdAt: new Date(stored === undefined ? Date.parse(tx.now) : stored.created_at_ms), updatedAt: new Date(tx.now),
  };
  // VACANCY_FIELDS' order; source_ref is the platform's, which the feed does not set.
  const fields = [
    vacancy.title, vacancy.status, vacancy.city, vacancy.officeAddress, vacancy.experience, vacancy.workFormat, doc(workFormats), vacancy.salaryFrom,
    vacancy.salaryTo, vacancy.salaryCurrency, vacancy.salaryGross, vacancy.employmentForm, doc(vacancy.workSchedule), doc(vacancy.skills),
    doc(vacancy.languages), doc(vacancy.professionalRoles), description, vacancy.responsibilities, vacancy.positionsCount, vacancy.sourceUrl,
    vacancy.publishedAt === null ? null : vacancy.publishedAt.toISOString(), v.recruiter ?? null, null,
    stored === undefined ? tx.now : iso(stored.created_at_ms), tx.now, renderVacancy(vacancy),
  ];
  if (stored !== undefined) {
    await tx.client.query(UPDATE_VACANCY_SQL, [...fields, tx.companyId, id]);
    return;
  }
  await tx.client.query(INSERT_VACANCY_SQL, [tx.companyId, id, ...fields]);
  await tx.columns(id);
  await tx.client.query(
    `insert into boards (company_id, vacancy_id, columns) values (${lit(tx.companyId)}, ${lit(id)}, ${json(DEFAULT_COLUMNS)}::jsonb) on conflict (company_id, vacancy_id) do update set columns = excluded.columns`,
  );
}

async function deleteCard(tx: Tx, id: string): Promise<void> {
  if ((await tx.card(id)) === undefined) return;
  tx.forget();
  await tx.client.query(`delete from candidates where company_id = ${lit(tx.companyId)} and (id = ${lit(id)} or origin_card_id = ${lit(id)}) returning id`);
}

/** Cards a statement of a vacancy's deletion detaches at most: the repository's DETACH_BATCH. */
const DETACH_BATCH = 1_000;

async function deleteVacancy(tx: Tx, id: string): Promise<void> {
  if ((await tx.vacancy(id)) === undefined) return;
  const c = lit(tx.companyId);
  // The cards the platform does not version, taken off by the deletion (the service's versionedAmong); the
  // platform's own go by their candidate.detached.
  const unversioned = await tx.unversionedOn(id);
  tx.forget();
  if (unversioned.length > 0) await detachCards(tx, id, unversioned);
  await tx.client.query(`delete from "boards" where "company_id" = ${c} and "vacancy_id" = ${lit(id)}`);
  await tx.client.query(`delete from "vacancies" where "company_id" = ${c} and "id" = ${lit(id)}`);
}

/** As the repository's detachVacancy: the vacancy's cards (or `only` those) read and locked a batch at a time, each written back with its rendering. */
async function detachCards(tx: Tx, vacancyId: string, only?: readonly string[]): Promise<void> {
  const onlyThose = only === undefined ? '' : ` and id = any(array[${only.map(lit).join(', ')}]::text[])`;
  const ms = Date.parse(tx.now);
  const hours = Math.floor(ms / 3_600_000);
  const now = `((timestamp 'epoch' + ${hours} * interval '1 hour' + ${ms - hours * 3_600_000} * interval '1 millisecond') at time zone 'UTC')`;
  for (;;) {
    const cards = await tx.rows(
      `select ${CARD_COLUMNS} from candidates where company_id = ${lit(tx.companyId)} and vacancy_id = ${lit(vacancyId)}${onlyThose} limit ${DETACH_BATCH} for update`,
    );
    if (cards.length === 0) return;
    const renderings = cards.map((card) => cardRendering({ ...card, vacancy_id: null, stage: null }, tx.now, iso(card.resume_updated_at_ms) as string));
    await tx.client.query(
      `update candidates c set vacancy_id = null, stage = null, card_updated_at = ${now}, rendering = r.rendering ` +
        `from unnest(array[${cards.map((card) => lit(card.id)).join(', ')}]::text[], array[${renderings.map(lit).join(', ')}]::text[]) as r(id, rendering) ` +
        `where c.company_id = ${lit(tx.companyId)} and c.id = r.id returning c.id`,
    );
    if (cards.length < DETACH_BATCH) return;
  }
}

/** POST /applications' insert for one application, in the append transaction: its vacancy and board read in one statement. */
async function submitApplication(tx: Tx, data: any, time: number | null): Promise<Outcome> {
  const [vacancy] = await tx.rows(
    `select v.id, (select b.columns from boards b where b.company_id = v.company_id and b.vacancy_id = v.id) as columns\n` +
      `      from vacancies v where v.company_id = ${lit(tx.companyId)} and v.id = any(array(select jsonb_array_elements_text(${json([data.vacancyId])}::jsonb)))`,
  );
  if (vacancy === undefined) throw new NotYet(`vacancy ${data.vacancyId}`);
  const stage = ((vacancy.columns as string[] | null) ?? DEFAULT_COLUMNS)[0];
  const person = { name: data.candidate.name, email: data.candidate.email ?? null, phone: data.candidate.phone ?? null, location: data.candidate.location ?? null, birthDate: data.candidate.birthDate ?? null };
  const card = {
    company_id: tx.companyId, id: v7(), vacancy_id: data.vacancyId, stage, source: data.source ?? 'api', external_id: data.externalId,
    cover_letter: data.coverLetter ?? null, person, resume: data.resume ?? {}, referral: data.referral ?? null, technical: false, origin_card_id: null,
    request_fingerprint: createHash('sha256').update(JSON.stringify(data)).digest('hex'), source_ref: null, created_at_ms: Date.parse(tx.now),
  };
  tx.forget(card.id);
  const inserted = (await tx.client.query(INSERT_APPLICATION_SQL, cardParameters(card, tx.now, tx.now, tx.now))).rows;
  return inserted.length === 0 ? 'duplicate' : 'applied';
}

/** Events of one company in one transaction at most: the service's FEED_BATCH_MAX (adapters/feed/platform-event-handler.ts). */
const BATCH_MAX = 32;

interface Waiting {
  readonly event: CeilingEvent;
  readonly resolve: (outcome: Outcome) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * What the ceiling does with the events on `pool`: the company's row the first time (in autocommit, before the
 * transaction: the service's requireCompany, which keeps the companies it found), then transactions as
 * ApplyPlatformEvent runs them. With `lanes` (the service's PlatformEventHandler), a company's events go one
 * batch at a time, in arrival order: those that queued while the company's transaction ran go together in the
 * next, one transaction for the batch (group commit; a failure undoes the batch and each event is applied alone),
 * at most `places` batches at once. Without, each event is a transaction of its own as it comes.
 */
export function ceilingApplier(pool: pg.Pool, options: { readonly lanes: boolean; readonly places: number }): (event: CeilingEvent) => Promise<Outcome> {
  const knownCompanies = new Set<string>();
  const queues = new Map<string, Waiting[]>();
  // At most `places` batches at once (the service's DB_POOL_MAX), a company's batch cut when it has its place, so
  // that what the company receives while it waits joins it, as the service's CompanyBatches with places.
  if (!Number.isInteger(options.places) || options.places < 1) throw new RangeError('ceilingApplier needs a whole number of places, at least 1.');
  let free = options.places;
  const waitingForPlace: (() => void)[] = [];
  const givePlace = (): void => {
    const next = waitingForPlace.shift();
    if (next === undefined) free++;
    else next();
  };
  const drain = async (companyId: string, queue: Waiting[]): Promise<void> => {
    while (queue.length > 0) {
      // A free place is taken at once (no await, so nothing joins the batch meanwhile), as the service's.
      if (free > 0) free--;
      else await new Promise<void>((resolve) => waitingForPlace.push(resolve));
      const batch = queue.splice(0, BATCH_MAX);
      let outcomes: ({ value: Outcome } | { error: unknown })[];
      try {
        outcomes = await applyBatch(pool, knownCompanies, batch.map((waiting) => waiting.event));
      } finally {
        givePlace();
      }
      batch.forEach((waiting, index) => {
        const outcome = outcomes[index] as { value: Outcome } | { error: unknown };
        if ('error' in outcome) waiting.reject(outcome.error);
        else waiting.resolve(outcome.value);
      });
    }
    queues.delete(companyId);
  };
  return (event) => {
    if (!options.lanes) return applyAlone(pool, knownCompanies, event);
    return new Promise<Outcome>((resolve, reject) => {
      const companyId = event.companyid;
      const queue = queues.get(companyId);
      if (queue !== undefined) {
        queue.push({ event, resolve, reject });
        return;
      }
      const started: Waiting[] = [{ event, resolve, reject }];
      queues.set(companyId, started);
      void drain(companyId, started);
    });
  };
}

async function applyAlone(pool: pg.Pool, knownCompanies: Set<string>, event: CeilingEvent): Promise<Outcome> {
  return (await inTransaction(pool, knownCompanies, [event]))[0] as Outcome;
}

async function applyBatch(pool: pg.Pool, knownCompanies: Set<string>, events: readonly CeilingEvent[]): Promise<({ value: Outcome } | { error: unknown })[]> {
  try {
    return (await inTransaction(pool, knownCompanies, events)).map((value) => ({ value }));
  } catch (error) {
    if (events.length === 1) return [{ error }];
    const alone: ({ value: Outcome } | { error: unknown })[] = [];
    for (const event of events) alone.push(await applyAlone(pool, knownCompanies, event).then((value) => ({ value }), (failure: unknown) => ({ error: failure })));
    return alone;
  }
}

/**
 * The events (of one company) in one transaction: BEGIN with the company's lock and the clock, the claim of them
 * all, the cards of their card events read ahead (when more than one is claimed), each event, the version records
 * of them all in the COMMIT's message.
 */
async function inTransaction(pool: pg.Pool, knownCompanies: Set<string>, events: readonly CeilingEvent[]): Promise<Outcome[]> {
  const companyId = (events[0] as CeilingEvent).companyid;
  if (!knownCompanies.has(companyId)) {
    await pool.query(`${PREFIX}select "c0".* from "companies" as "c0" where "c0"."id" = ${lit(companyId)} limit 1`);
    knownCompanies.add(companyId);
  }
  // A batch takes the lock exclusively, applications only too (ApplyPlatformEvent.executeAll says why).
  const append = events.length === 1 && events[0]?.type === 'application.submitted';
  const client = await pool.connect();
  try {
    const lock = append ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
    // One message, as the service sends it: SET LOCAL, BEGIN and the lock with the clock; pg answers each.
    const opened = (await client.query(
      `${PREFIX}${BEGIN}with locked as materialized (select ${lock}(${COMPANY_LOCK}, hashtext(${lit(companyId)}))) select floor(extract(epoch from clock_timestamp()) * 1000)::float8 as now_ms from locked`,
    )) as unknown as pg.QueryResult[];
    const clock = opened.at(-1) as pg.QueryResult;
    const tx = new Tx(client, companyId, new Date(clock.rows[0].now_ms as number).toISOString());
    // One claim for the whole batch, the cards read ahead, each event checked against the versions the batch keeps
    // and applied, then every version record of the batch in the message of the COMMIT (ApplyPlatformEvent.applyAllIn).
    const claims = await tx.claimAll(events);
    // More than one claimed event of a card: their cards read ahead in one statement (only ever in a batch, so in
    // a write: the repository reads ahead in nothing else).
    const cardEvents = events.filter((event, index) => claims[index] !== null && event.type.startsWith('candidate.'));
    if (cardEvents.length > 1) await tx.preload(cardEvents.map((event) => event.subject));
    const outcomes: Outcome[] = [];
    for (const [index, event] of events.entries()) {
      const claimed = claims[index] as Versions | null;
      if (claimed === null) outcomes.push('duplicate');
      else outcomes.push(event.type === 'application.submitted' ? await submitApplication(tx, event.data, timeOf(event)) : await versioned(tx, event, claimed));
    }
    await tx.recordAllAndCommit();
    return outcomes;
  } catch (error) {
    await client.query('ROLLBACK;').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The domain's reading of work format names, simplified: remote, on-site, or both (hybrid). */
function workFormatOf(names: readonly string[]): string | null {
  const text = names.join(' ').toLowerCase();
  const remote = /удал|remote/.test(text);
  const office = /на месте|офис|office|on-site/.test(text);
  if (/гибрид|hybrid/.test(text) || (remote && office)) return 'hybrid';
  return remote ? 'remote' : office ? 'office' : null;
}

/**
 * The description's text, as the domain's htmlToText gives it for the bench's descriptions: a line break at each
 * block tag, other tags dropped, a few entities decoded, blanks collapsed, empty lines dropped. The line breaks
 * matter beyond the column: the vacancy's rendering carries them as `\n`, an escape the statement then spells.
 */
function textOf(html: string | null | undefined): string | null {
  if (html == null) return null;
  const text = html
    .replace(/<\s*\/?\s*(?:p|div|br|li|ul|ol|h[1-6]|tr|table|section|article|blockquote)\b[^>]*>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&laquo;/g, '«')
    .replace(/&raquo;/g, '»')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  const lines = text
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '');
  return lines.length === 0 ? null : lines.join('\n');
}
