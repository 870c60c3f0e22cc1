import type pg from 'pg';
import { v7 } from 'uuid';

/**
 * The feed ceiling's work, written the way someone would write it instead of the service, from the tables and
 * ADR 16's merge rule alone: one transaction per event on pg, its id claimed in feed_applied_events (a repeat
 * is a duplicate), then its entity locked (an advisory lock of its own), its versions read, and plain SQL for
 * what the event sets. Per entity and aspect the highest entityversion wins; a deletion removes the entity when
 * it is newer than every aspect and keeps its version as a tombstone, at or below which every later event is
 * stale. No schema checks, no domain rules, no rendering (the lists render a row with none when they read it).
 */

export interface CeilingEvent {
  readonly id: string;
  readonly source: string;
  readonly type: string;
  readonly subject: string;
  readonly companyid: string;
  readonly entityversion?: number;
  readonly data?: any;
}

export type Outcome = 'applied' | 'duplicate' | 'stale';

/** What an event waits for (its entity, its vacancy) is not here yet: the message goes back to the queue. */
export class NotYet extends Error {}

const TOMBSTONE = '#deleted';
const DEFAULT_COLUMNS = ['NEW', 'AI_DIALOG', 'INTERVIEW', 'OFFER', 'ONBOARDING', 'REJECTION'];

/** The vacancy's columns after its key and the event's field for each; jsonb columns marked. */
const VACANCY_FIELDS: readonly (readonly [column: string, field: string, jsonb?: true])[] = [
  ['title', 'title'], ['status', 'status'], ['city', 'city'], ['office_address', 'officeAddress'], ['experience', 'experience'],
  ['work_format', 'workFormat'], ['work_formats', 'workFormats', true], ['salary_from', 'salaryFrom'], ['salary_to', 'salaryTo'],
  ['salary_currency', 'salaryCurrency'], ['salary_gross', 'salaryGross'], ['employment_form', 'employmentForm'],
  ['work_schedule', 'workSchedule', true], ['skills', 'skills', true], ['languages', 'languages', true],
  ['professional_roles', 'professionalRoles', true], ['description', 'description'], ['responsibilities', 'responsibilities'],
  ['positions_count', 'positionsCount'], ['source_url', 'sourceUrl'], ['published_at', 'publishedAt'], ['recruiter', 'recruiter'],
];
const VACANCY_UPSERT = `insert into vacancies (company_id, id, ${VACANCY_FIELDS.map(([column]) => column).join(', ')}, created_at, updated_at)
  values ($1, $2, ${VACANCY_FIELDS.map((_, i) => `$${i + 3}`).join(', ')}, now(), now())
  on conflict (company_id, id) do update set ${VACANCY_FIELDS.map(([column]) => `${column} = excluded.${column}`).join(', ')},
    updated_at = now(), rendering = null`;

/** One event's transaction: its company, entity and version, and the entity's versions once locked. */
class Tx {
  versions = new Map<string, number>();
  constructor(
    readonly client: pg.PoolClient,
    readonly event: CeilingEvent,
  ) {}

  get company(): string {
    return this.event.companyid;
  }
  get version(): number {
    return this.event.entityversion ?? 0;
  }

  query(sql: string, values: unknown[] = []): Promise<pg.QueryResult> {
    return this.client.query(sql, values);
  }

  /** The entity locked for the transaction, and its versions by aspect (the tombstone's under '#deleted'). */
  async lock(kind: 'vacancy' | 'candidate'): Promise<void> {
    const { company, event } = this;
    await this.query('select pg_advisory_xact_lock(hashtext($1))', [`${company}/${kind}/${event.subject}`]);
    const { rows } = await this.query('select aspect, version from feed_entity_versions where company_id = $1 and entity_kind = $2 and entity_id = $3', [company, kind, event.subject]);
    this.versions = new Map(rows.map((row) => [row.aspect as string, Number(row.version)]));
  }

  /** Of `aspects`, those the event's version wins: none at or below the tombstone or below the card's creation. */
  wins(...aspects: string[]): string[] {
    const { versions, version } = this;
    if (version <= (versions.get(TOMBSTONE) ?? -1) || version < (versions.get('card') ?? -1)) return [];
    return aspects.filter((aspect) => version > (versions.get(aspect) ?? -1));
  }

  async record(kind: string, aspects: readonly string[]): Promise<void> {
    await this.query(
      `insert into feed_entity_versions (company_id, entity_kind, entity_id, aspect, version, recorded_at)
       select $1, $2, $3, aspect, $5, now() from unnest($4::text[]) as aspect
       on conflict (company_id, entity_kind, entity_id, aspect) do update set version = excluded.version, recorded_at = now()`,
      [this.company, kind, this.event.subject, aspects, this.version],
    );
  }

  /** A deletion: true when it is the entity's newest event (its aspects then go); the tombstone keeps the highest version. */
  async tombstone(kind: string): Promise<boolean> {
    const newest = [...this.versions.values()].every((version) => version < this.version);
    if (newest) await this.query("delete from feed_entity_versions where company_id = $1 and entity_kind = $2 and entity_id = $3 and aspect <> '#deleted'", [this.company, kind, this.event.subject]);
    await this.query(
      `insert into feed_entity_versions (company_id, entity_kind, entity_id, aspect, version, recorded_at) values ($1, $2, $3, '#deleted', $4, now())
       on conflict (company_id, entity_kind, entity_id, aspect) do update set version = greatest(feed_entity_versions.version, excluded.version), recorded_at = now()`,
      [this.company, kind, this.event.subject, this.version],
    );
    return newest;
  }
}

/** Applies one event in a transaction of its own; a NotYet or a failure rolls it back (the claim too). */
export async function applyEvent(pool: pg.Pool, event: CeilingEvent): Promise<Outcome> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const claim = await client.query(
      'insert into feed_applied_events (company_id, source, event_id, applied_at) values ($1, $2, $3, now()) on conflict do nothing',
      [event.companyid, event.source, event.id],
    );
    const outcome = claim.rowCount === 1 ? await byType(new Tx(client, event)) : 'duplicate';
    await client.query('commit');
    return outcome;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function byType(tx: Tx): Promise<Outcome> {
  switch (tx.event.type) {
    case 'vacancy.upserted':
      return upsertVacancy(tx);
    case 'vacancy.deleted':
      return deleteVacancy(tx);
    case 'board.columns-set':
      return setColumns(tx);
    case 'candidate.added':
      return addCard(tx);
    case 'candidate.moved':
      return updateCard(tx, 'stage', 'stage = $3', tx.event.data.stage);
    case 'candidate.resume-updated':
      return updateCard(tx, 'resume', 'resume = $3::jsonb, resume_updated_at = now()', JSON.stringify(tx.event.data));
    case 'candidate.deleted':
      return deleteCard(tx);
    case 'application.submitted':
      return submitApplication(tx);
    default:
      throw new Error(`the ceiling does not apply ${tx.event.type} (the bench does not send it)`);
  }
}

async function upsertVacancy(tx: Tx): Promise<Outcome> {
  await tx.lock('vacancy');
  if (tx.wins('vacancy').length === 0) return 'stale';
  const data = tx.event.data;
  const values = VACANCY_FIELDS.map(([, field, jsonb]) => (jsonb ? JSON.stringify(data[field] ?? []) : (data[field] ?? null)));
  const existed = (await tx.query('select 1 from vacancies where company_id = $1 and id = $2', [tx.company, tx.event.subject])).rowCount === 1;
  await tx.query(VACANCY_UPSERT, [tx.company, tx.event.subject, ...values]);
  // A new vacancy gets the default board (one it already had is kept).
  if (!existed) {
    await tx.query('insert into boards (company_id, vacancy_id, columns) values ($1, $2, $3::jsonb) on conflict do nothing', [tx.company, tx.event.subject, JSON.stringify(DEFAULT_COLUMNS)]);
  }
  await tx.record('vacancy', ['vacancy']);
  return 'applied';
}

async function deleteVacancy(tx: Tx): Promise<Outcome> {
  await tx.lock('vacancy');
  if (tx.version <= (tx.versions.get(TOMBSTONE) ?? -1)) return 'stale';
  if (!(await tx.tombstone('vacancy'))) return 'stale';
  const key = [tx.company, tx.event.subject];
  // The cards no event of the platform ever set (applications', the API's) are taken off it here; the platform's
  // come with their own candidate.detached.
  await tx.query(
    `update candidates c set vacancy_id = null, stage = null, card_updated_at = now(), rendering = null
      where c.company_id = $1 and c.vacancy_id = $2 and not exists (select 1 from feed_entity_versions v
        where v.company_id = $1 and v.entity_kind = 'candidate' and v.entity_id = coalesce(c.origin_card_id, c.id) and v.aspect <> '#deleted')`,
    key,
  );
  await tx.query('delete from boards where company_id = $1 and vacancy_id = $2', key);
  await tx.query('delete from vacancies where company_id = $1 and id = $2', key);
  return 'applied';
}

async function setColumns(tx: Tx): Promise<Outcome> {
  await tx.lock('vacancy');
  if (tx.wins('board').length === 0) return 'stale';
  const set = await tx.query(
    `insert into boards (company_id, vacancy_id, columns) select company_id, id, $3::jsonb from vacancies where company_id = $1 and id = $2
     on conflict (company_id, vacancy_id) do update set columns = excluded.columns`,
    [tx.company, tx.event.subject, JSON.stringify(tx.event.data.columns)],
  );
  if (set.rowCount === 0) throw new NotYet(`vacancy ${tx.event.subject}`);
  await tx.record('vacancy', ['board']);
  return 'applied';
}

async function addCard(tx: Tx): Promise<Outcome> {
  await tx.lock('candidate');
  if (tx.wins('card').length === 0) return 'stale';
  const wins = tx.wins('resume', 'stage', 'vacancy');
  const d = tx.event.data;
  const given = { person: JSON.stringify(d.candidate), resume: JSON.stringify(d.resume ?? {}), referral: d.referral == null ? null : JSON.stringify(d.referral), stage: d.stage, vacancy: d.vacancyId };
  // Made again under its id: each aspect takes the event's value unless a newer event set it.
  const keep = (aspect: string, column: string) => (wins.includes(aspect) ? `excluded.${column}` : `candidates.${column}`);
  await tx.query(
    `insert into candidates (company_id, id, vacancy_id, stage, source, person, resume, referral, created_at, card_updated_at, resume_updated_at)
     values ($1, $2, $3, $4, 'manual', $5::jsonb, $6::jsonb, $7::jsonb, now(), now(), now())
     on conflict (company_id, id) do update set person = ${keep('resume', 'person')}, resume = ${keep('resume', 'resume')},
       referral = ${keep('resume', 'referral')}, stage = ${keep('stage', 'stage')}, vacancy_id = ${keep('vacancy', 'vacancy_id')},
       card_updated_at = now(), resume_updated_at = ${keep('resume', 'resume_updated_at')}, rendering = null`,
    [tx.company, tx.event.subject, given.vacancy, given.stage, given.person, given.resume, given.referral],
  );
  await tx.record('candidate', ['card', ...wins]);
  return 'applied';
}

/** A move or a resume: the one aspect, on a card that must be here (a card off its vacancy is not moved). */
async function updateCard(tx: Tx, aspect: string, set: string, value: unknown): Promise<Outcome> {
  await tx.lock('candidate');
  if (tx.wins(aspect).length === 0) return 'stale';
  const onVacancy = aspect === 'stage' ? ' and vacancy_id is not null' : '';
  const time = aspect === 'stage' ? ', card_updated_at = now()' : '';
  const updated = await tx.query(`update candidates set ${set}${time}, rendering = null where company_id = $1 and id = $2${onVacancy}`, [tx.company, tx.event.subject, value]);
  if (updated.rowCount === 0) {
    const here = await tx.query('select 1 from candidates where company_id = $1 and id = $2', [tx.company, tx.event.subject]);
    if (here.rowCount === 0) throw new NotYet(`card ${tx.event.subject}`);
    return 'stale';
  }
  await tx.record('candidate', [aspect]);
  return 'applied';
}

async function deleteCard(tx: Tx): Promise<Outcome> {
  await tx.lock('candidate');
  if (tx.version <= (tx.versions.get(TOMBSTONE) ?? -1)) return 'stale';
  if (!(await tx.tombstone('candidate'))) return 'stale';
  // The card and its technical cards (its transfers).
  await tx.query('delete from candidates where company_id = $1 and (id = $2 or origin_card_id = $2)', [tx.company, tx.event.subject]);
  return 'applied';
}

/** Once per externalId, in the first column of its vacancy's board; without a vacancy if that was deleted. */
async function submitApplication(tx: Tx): Promise<Outcome> {
  const d = tx.event.data;
  const { rows } = await tx.query(
    `select v.id, b.columns from vacancies v left join boards b on b.company_id = v.company_id and b.vacancy_id = v.id where v.company_id = $1 and v.id = $2`,
    [tx.company, d.vacancyId],
  );
  let vacancy: string | null = d.vacancyId;
  let stage: string | null = ((rows[0]?.columns as string[] | null) ?? DEFAULT_COLUMNS)[0] ?? null;
  if (rows.length === 0) {
    const gone = await tx.query("select 1 from feed_entity_versions where company_id = $1 and entity_kind = 'vacancy' and entity_id = $2 and aspect = '#deleted'", [tx.company, d.vacancyId]);
    if (gone.rowCount === 0) throw new NotYet(`vacancy ${d.vacancyId}`);
    [vacancy, stage] = [null, null];
  }
  const c = d.candidate;
  const person = { name: c.name, email: c.email ?? null, phone: c.phone ?? null, location: c.location ?? null, birthDate: c.birthDate ?? null };
  const inserted = await tx.query(
    `insert into candidates (company_id, id, vacancy_id, stage, source, external_id, cover_letter, person, resume, referral, created_at, card_updated_at, resume_updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10::jsonb, now(), now(), now())
     on conflict (company_id, external_id) where external_id is not null do nothing`,
    [tx.company, v7(), vacancy, stage, d.source ?? 'api', d.externalId, d.coverLetter ?? null, JSON.stringify(person), JSON.stringify(d.resume ?? {}), d.referral == null ? null : JSON.stringify(d.referral)],
  );
  return inserted.rowCount === 1 ? 'applied' : 'duplicate';
}
