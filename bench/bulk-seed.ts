import { ADMIN_CLI_ACTOR } from '../application/use-cases/actor.js';
import pg from 'pg';
import { pino } from 'pino';
import { toCandidateRow } from '../adapters/persistence/postgres/row-mapping/candidate-row-mapping.js';
import { toVacancyRow } from '../adapters/persistence/postgres/row-mapping/vacancy-row-mapping.js';
import { demoCandidate, type DemoCandidate } from '../adapters/cli/seed/demo-candidates.js';
import { demoVacancies, type DemoVacancy } from '../adapters/cli/seed/demo-vacancies.js';
import { apportion } from '../adapters/cli/seed/seed-demo.js';
import { SeededRandom } from '../adapters/cli/seed/seeded-random.js';
import { NodeCryptoSecrets } from '../adapters/system/node-crypto-secrets.js';
import { UuidV7IdGenerator } from '../adapters/system/uuid-v7-id-generator.js';
import { canonicalApplication } from '../domain/inbound-application/inbound-application.js';
import { CandidateCard, type NewCardParams } from '../domain/candidate/candidate-card.js';
import { SCOPES } from '../domain/service-key/scope.js';
import { Vacancy } from '../domain/vacancy/vacancy.js';
import { buildContainer, disposeContainer } from '../infrastructure/container/build-container.js';
import { resolve } from '../infrastructure/container/typed-binding.js';
import { USE_CASES } from '../infrastructure/container/use-case.tokens.js';
import type { SeedRecord } from './bench-database.js';
import { ProgressBar } from './progress.js';

const JOB_BOARD_LABEL = 'hh';
/** Rows per INSERT: one JSON document of a few MB, parsed by PostgreSQL in C. */
const CHUNK = 2_000;
const MAX_TRANSFERS = 100;

/**
 * The columns a load fills, with their types for json_to_recordset, named on both sides of the INSERT: the
 * tables have columns after these (candidates.modified_at is generated), so their order is no guide.
 */
const CANDIDATE_COLUMNS = `company_id text, id text, vacancy_id text, stage text, source text, external_id text, cover_letter text,
  person jsonb, resume jsonb, referral jsonb, technical boolean, origin_card_id text, request_fingerprint text, source_ref text,
  created_at timestamptz, card_updated_at timestamptz, resume_updated_at timestamptz, rendering text`;
const VACANCY_COLUMNS = `company_id text, id text, title text, status text, city text, office_address text, experience text,
  work_format text, work_formats jsonb, salary_from float8, salary_to float8, salary_currency text, salary_gross boolean,
  employment_form text, work_schedule jsonb, skills jsonb, languages jsonb, professional_roles jsonb, description text,
  responsibilities text, positions_count integer, source_url text, published_at timestamptz, recruiter text, source_ref text,
  created_at timestamptz, updated_at timestamptz, rendering text`;

/** INSERT ... SELECT of the rows of one JSON parameter ($1) into `table`. */
function insertFromJson(table: string, columns: string): string {
  const names = columns.split(',').map((column) => column.trim().split(/\s+/)[0]).join(', ');
  return `insert into ${table} (${names}) select ${names} from json_to_recordset($1::json) as x(${columns})`;
}

type StoredVacancy = DemoVacancy & { readonly id: string };
interface Sampled {
  readonly id: string;
  readonly vacancyIndex: number;
}

/**
 * The demo data set of `seed demo` (the same generators: vacancies of every status, custom boards, cards of
 * every origin with Cyrillic resumes, referrals, transfers), written faster than the admin CLI can: the
 * company, key and transfers go through the use cases, while vacancies, boards and cards are built by the
 * domain factories (every field checked, fingerprints as the API stores them) and loaded with multi-row
 * INSERTs from json_to_recordset, one transaction per chunk and no per-card round trip. The CLI's seed
 * runs at 1,600-3,600 cards/s on a 2-core machine, which would take 5-10 minutes for a million.
 */
export async function bulkSeed(url: string, options: { vacancies: number; candidates: number; seed: number }): Promise<SeedRecord> {
  const container = await buildContainer({
    profile: 'postgres',
    logger: pino({ level: 'warn' }),
    config: { databaseUrl: url, keysDatabaseUrl: url, logLevel: 'warn', store: 'postgres' },
  });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // A throwaway database: losing the last commits in a crash costs nothing, waiting for each flush costs time.
    await client.query('set synchronous_commit = off');
    const company = await resolve(container, USE_CASES.createCompany).execute({ name: `Бенчмарк «Шёлковый путь» (seed ${options.seed})` });
    const key = await resolve(container, USE_CASES.issueKey).execute({ companyId: company.id, scopes: [...SCOPES], name: 'bench key', expiresAt: null, actor: ADMIN_CLI_ACTOR });
    const random = new SeededRandom(options.seed);
    const vacancies = await loadVacancies(client, company.id, demoVacancies(random, options.vacancies));
    const cardIds = await loadCandidates(client, company.id, vacancies, options.candidates, random);
    await transferSome(container, company.id, vacancies, cardIds, random);
    const analyse = new ProgressBar('analyse', 1);
    await client.query('vacuum analyze vacancies, boards, candidates');
    analyse.finish();
    return { companyId: company.id, key: key.key, vacancies: options.vacancies, candidates: options.candidates, seed: options.seed };
  } finally {
    await client.end();
    await disposeContainer(container);
  }
}

async function loadVacancies(client: pg.Client, companyId: string, planned: readonly DemoVacancy[]): Promise<StoredVacancy[]> {
  const ids = new UuidV7IdGenerator();
  const progress = new ProgressBar('vacancies', planned.length);
  const stored: StoredVacancy[] = [];
  for (let start = 0; start < planned.length; start += CHUNK) {
    const now = new Date();
    const slice = planned.slice(start, start + CHUNK).map((v) => ({ ...v, id: ids.newId() }));
    const rows = slice.map((v) => vacancyColumns(Vacancy.create({ id: v.id, companyId, input: v.input, now })));
    await client.query(insertFromJson('vacancies', VACANCY_COLUMNS), [JSON.stringify(rows)]);
    // Every vacancy has a board, as the upsert use case makes it: custom columns for some.
    const boards = slice.map((v) => ({ company_id: companyId, vacancy_id: v.id, columns: v.columns }));
    await client.query('insert into boards select * from json_to_recordset($1::json) as x(company_id text, vacancy_id text, columns jsonb)', [JSON.stringify(boards)]);
    stored.push(...slice);
    progress.advance(slice.length);
  }
  progress.finish();
  return stored;
}

/** The row the repository would write, its rendering (ADR 18) included: the same row mapping renders it with the presenters. */
function vacancyColumns(vacancy: Vacancy): Record<string, unknown> {
  const r = toVacancyRow(vacancy);
  return {
    company_id: r.companyId, id: r.id, title: r.title, status: r.status, city: r.city, office_address: r.officeAddress, experience: r.experience,
    work_format: r.workFormat, work_formats: r.workFormats, salary_from: r.salaryFrom, salary_to: r.salaryTo, salary_currency: r.salaryCurrency,
    salary_gross: r.salaryGross, employment_form: r.employmentForm, work_schedule: r.workSchedule, skills: r.skills, languages: r.languages,
    professional_roles: r.professionalRoles, description: r.description, responsibilities: r.responsibilities, positions_count: r.positionsCount,
    source_url: r.sourceUrl, published_at: r.publishedAt, recruiter: r.recruiter, source_ref: r.sourceRef, created_at: r.createdAt, updated_at: r.updatedAt,
    rendering: r.rendering,
  };
}

/** Cards in the seed's order (vacancy by vacancy, as apportioned by appeal); one chunk is loaded while the next is built. */
async function loadCandidates(client: pg.Client, companyId: string, vacancies: readonly StoredVacancy[], total: number, random: SeededRandom): Promise<Sampled[]> {
  const ids = new UuidV7IdGenerator();
  const secrets = new NodeCryptoSecrets();
  const counts = apportion(total, vacancies.map((v) => v.appeal));
  const progress = new ProgressBar('candidates', total);
  const sampled: Sampled[] = [];
  const stride = Math.max(1, Math.floor(total / MAX_TRANSFERS));
  let rows: Record<string, unknown>[] = [];
  let now = new Date();
  let inFlight: Promise<unknown> = Promise.resolve();
  const flush = async () => {
    const json = JSON.stringify(rows);
    const count = rows.length;
    rows = [];
    now = new Date();
    await inFlight;
    inFlight = client.query(insertFromJson('candidates', CANDIDATE_COLUMNS), [json]).then(() => progress.advance(count));
    // Surfaces where the next flush awaits it, not as an unhandled rejection.
    inFlight.catch(() => undefined);
  };
  let sequence = 0;
  for (const [index, vacancy] of vacancies.entries()) {
    for (let k = 0; k < (counts[index] as number); k++) {
      const demo = demoCandidate(random, vacancy, sequence, JOB_BOARD_LABEL);
      const card = cardOf(demo, { id: ids.newId(), companyId, vacancyId: vacancy.id, stage: demo.load.stage ?? (vacancy.columns[0] as string), now }, secrets);
      if (sequence % stride === 0 && sampled.length < MAX_TRANSFERS) sampled.push({ id: card.id, vacancyIndex: index });
      rows.push(candidateColumns(card));
      sequence++;
      if (rows.length >= CHUNK) await flush();
    }
  }
  if (rows.length > 0) await flush();
  await inFlight;
  progress.finish();
  return sampled;
}

function cardOf(demo: DemoCandidate, base: Omit<NewCardParams, 'person' | 'resume' | 'referral'>, secrets: NodeCryptoSecrets): CandidateCard {
  const { load } = demo;
  const params: NewCardParams = { ...base, person: load.person, resume: load.resume, referral: load.referral };
  const origin = load.origin;
  if (origin.kind === 'manual') return CandidateCard.manual(params);
  if (origin.kind === 'job-board') return CandidateCard.imported({ ...params, source: origin.source, sourceRef: origin.sourceRef });
  const p = load.person;
  const application = {
    externalId: origin.externalId, vacancyId: base.vacancyId, source: origin.source,
    candidate: { name: p.name, email: p.email, phone: p.phone, location: p.location, birthDate: p.birthDate },
    coverLetter: origin.coverLetter, resume: load.resume, referral: load.referral,
  };
  // The fingerprint the application endpoint stores, so that a replay of the same body reads as a plain duplicate.
  return CandidateCard.fromApplication({ ...params, ...origin, requestFingerprint: secrets.sha256(canonicalApplication(application)) });
}

/** As vacancyColumns: the card's rendering is the presenters' JSON after vacancyTitle, as every write of a card stores it. */
function candidateColumns(card: CandidateCard): Record<string, unknown> {
  const r = toCandidateRow(card);
  return {
    company_id: r.companyId, id: r.id, vacancy_id: r.vacancyId, stage: r.stage, source: r.source, external_id: r.externalId,
    cover_letter: r.coverLetter, person: r.person, resume: r.resume, referral: r.referral, technical: r.technical,
    origin_card_id: r.originCardId, request_fingerprint: r.requestFingerprint, source_ref: r.sourceRef,
    created_at: r.createdAt, card_updated_at: r.cardUpdatedAt, resume_updated_at: r.resumeUpdatedAt, rendering: r.rendering,
  };
}

/** A few transfers through the use case, as `seed demo` makes them: technical cards that the list must skip. */
async function transferSome(container: Awaited<ReturnType<typeof buildContainer>>, companyId: string, vacancies: readonly StoredVacancy[], cards: readonly Sampled[], random: SeededRandom): Promise<void> {
  if (vacancies.length < 2) return;
  const transfer = resolve(container, USE_CASES.transferCandidate);
  for (const card of cards) {
    const target = vacancies[(card.vacancyIndex + 1 + random.int(vacancies.length - 1)) % vacancies.length] as StoredVacancy;
    await transfer.execute({ companyId, id: card.id, vacancyId: target.id });
  }
}
