import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { v7 } from 'uuid';
import { readPerson, readReferral, readResume } from '../../adapters/persistence/postgres/row-mapping/json-documents.js';
import { epochMs } from '../../adapters/persistence/postgres/sql-values.js';
import { renderCandidateRest } from '../../adapters/presenters/candidate.presenter.js';
import { answerHelp } from '../../infrastructure/process-arguments.js';

/**
 * The in-run ceiling of the bench: node:http and pg with nothing between them. It runs the SQL of the
 * service's list queries (adapters/persistence/postgres/vacancy-list-query.ts, candidate-list-query.ts) and of
 * its application insert (pg-candidate-repository.ts, insertApplications, one row a request: the ceiling
 * does not batch; the card's rendering made with the service's presenter function) with bound parameters, on a
 * pool of the service's size, and answers with JSON.stringify. No framework, no key check, no rate limit,
 * no transaction or company lock, no validation beyond JSON.parse: what is left is what any implementation
 * pays for the database and the bytes. Env: DATABASE_URL, PORT, HOST, COMPANY_ID, DB_POOL_MAX (10).
 */
answerHelp(
  process.argv.slice(2),
  'bench/ceilings/pg-ceiling-server.ts',
  `Usage: DATABASE_URL=postgres://... COMPANY_ID=UUID [PORT=8090] [HOST=127.0.0.1] [DB_POOL_MAX=10] npx tsx bench/ceilings/pg-ceiling-server.ts

The bench's in-run ceiling (npm run bench starts it): node:http and pg running the service's list queries
and its application insert with bound parameters, answering with JSON.stringify.
Settings are environment variables only.`,
);
const companyId = required('COMPANY_ID');
const pool = new pg.Pool({ connectionString: required('DATABASE_URL'), max: Number(process.env.DB_POOL_MAX ?? 10) });
const API = '/api/integration/v1';

const VACANCY_SQL = `select id, title, status, city, office_address, experience, work_format, work_formats, salary_from, salary_to,
  salary_currency, salary_gross, employment_form, work_schedule, skills, languages, professional_roles, description,
  responsibilities, positions_count, source_url, ${epochMs('published_at')} as published_at_ms,
  ${epochMs('created_at')} as created_at_ms, ${epochMs('updated_at')} as updated_at_ms
  from vacancies where company_id = $1 and status = 'open' AFTER order by updated_at, id limit $2`;
const CANDIDATE_SQL = `select c.id, c.vacancy_id, (select v.title from vacancies v where v.company_id = c.company_id and v.id = c.vacancy_id) as vacancy_title, c.stage, c.source, c.external_id, c.cover_letter,
  c.person, c.resume, c.referral, ${epochMs('c.created_at')} as created_at_ms, ${epochMs('c.modified_at')} as modified_at_ms
  from (select c.company_id, c.id, c.vacancy_id, c.stage, c.source, c.external_id, c.cover_letter, c.person, c.resume, c.referral,
               c.created_at, c.modified_at
          from candidates c where c.company_id = $1 and not c.technical AFTER order by c.modified_at, c.id limit $2) c
  order by c.modified_at, c.id`;
const INSERT_SQL = `insert into candidates (company_id, id, vacancy_id, stage, source, external_id, cover_letter, person, resume, referral,
  technical, origin_card_id, request_fingerprint, source_ref, created_at, card_updated_at, resume_updated_at, rendering)
  values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10::jsonb, false, null, $11, null, $12, $12, $12, $13)
  on conflict (company_id, external_id) where external_id is not null do nothing returning id`;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

async function list(url: URL, response: ServerResponse, kind: 'vacancies' | 'candidates'): Promise<void> {
  const limit = Number(url.searchParams.get('limit') ?? 100);
  const cursor = url.searchParams.get('cursor');
  const sql = kind === 'vacancies' ? VACANCY_SQL : CANDIDATE_SQL;
  const prefix = kind === 'vacancies' ? '' : 'c.';
  const time = kind === 'vacancies' ? 'updated_at' : 'c.modified_at';
  // Like the adapters: the first page has no position condition.
  const after = cursor ? (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [number, string]) : null;
  const { rows } = after === null
    ? await pool.query(sql.replace('AFTER', ''), [companyId, limit + 1])
    : await pool.query(sql.replace('AFTER', `and (${time}, ${prefix}id) > ($3::timestamptz, $4)`), [companyId, limit + 1, new Date(after[0]).toISOString(), after[1]]);
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const items = kind === 'vacancies' ? page.map(vacancy) : page.map(candidate);
  const last = page[page.length - 1];
  const nextCursor = more && last !== undefined ? Buffer.from(JSON.stringify([last.updated_at_ms ?? last.modified_at_ms, last.id])).toString('base64url') : null;
  send(response, 200, JSON.stringify({ items, nextCursor }));
}

function vacancy(r: Record<string, any>) {
  return {
    id: r.id, title: r.title, status: r.status, city: r.city, officeAddress: r.office_address, experience: r.experience, workFormat: r.work_format,
    workFormats: r.work_formats, salaryFrom: r.salary_from, salaryTo: r.salary_to, salaryCurrency: r.salary_currency, salaryGross: r.salary_gross,
    employmentForm: r.employment_form, workSchedule: r.work_schedule, skills: r.skills, languages: r.languages, professionalRoles: r.professional_roles,
    description: r.description, responsibilities: r.responsibilities, positionsCount: r.positions_count, sourceUrl: r.source_url,
    publishedAt: iso(r.published_at_ms), createdAt: iso(r.created_at_ms), updatedAt: iso(r.updated_at_ms),
  };
}

function candidate(r: Record<string, any>) {
  return {
    id: r.id, vacancyId: r.vacancy_id, vacancyTitle: r.vacancy_id === null ? null : r.vacancy_title, stage: r.stage, source: r.source,
    externalId: r.external_id, coverLetter: r.cover_letter, candidate: r.person, resume: r.resume, referral: r.referral,
    createdAt: iso(r.created_at_ms), updatedAt: iso(r.modified_at_ms),
  };
}

async function apply(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  const body = JSON.parse(raw);
  const board = await pool.query(
    'select coalesce(b.columns->>0, $3) as stage from vacancies v left join boards b on b.company_id = v.company_id and b.vacancy_id = v.id where v.company_id = $1 and v.id = $2',
    [companyId, body.vacancyId, 'NEW'],
  );
  if (board.rows.length === 0) return send(response, 404, '{"code":"not_found"}');
  const now = new Date();
  const id = v7();
  const stage = board.rows[0].stage as string;
  const [source, coverLetter, referral] = [body.source ?? 'api', body.coverLetter ?? null, body.referral ?? null];
  // The card's rendering (ADR 18), made here with the presenter function as the service makes it for every card it
  // writes: the same work. The card is the one the stored columns give back (the row mapping's readers), so the
  // text is what `admin check renderings` expects of the row.
  const rendering = renderCandidateRest({
    id, vacancyId: body.vacancyId, vacancyTitle: null, stage, source, externalId: body.externalId, coverLetter,
    person: readPerson(body.candidate), resume: readResume(body.resume ?? {}), referral: readReferral(referral), createdAt: now, updatedAt: now,
  });
  const inserted = await pool.query(INSERT_SQL, [
    companyId, id, body.vacancyId, stage, source, body.externalId, coverLetter,
    JSON.stringify(body.candidate), JSON.stringify(body.resume ?? {}), referral ? JSON.stringify(referral) : null,
    createHash('sha256').update(raw).digest('hex'), now, rendering,
  ]);
  if (inserted.rows.length > 0) return send(response, 201, JSON.stringify({ id: inserted.rows[0].id, status: 'created' }));
  const earlier = await pool.query('select id from candidates where company_id = $1 and external_id = $2', [companyId, body.externalId]);
  send(response, 200, JSON.stringify({ id: earlier.rows[0]?.id, status: 'duplicate' }));
}

function send(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  response.end(body);
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://ceiling');
  const route = `${request.method} ${url.pathname}`;
  const work =
    route === 'GET /healthz' ? Promise.resolve(send(response, 200, '{"status":"ok"}'))
    : route === `GET ${API}/vacancies` ? list(url, response, 'vacancies')
    : route === `GET ${API}/candidates` ? list(url, response, 'candidates')
    : route === `POST ${API}/applications` ? apply(request, response)
    : Promise.resolve(send(response, 404, '{"code":"not_found"}'));
  work.catch((error: unknown) => {
    process.stderr.write(`pg ceiling: ${error instanceof Error ? error.stack : String(error)}\n`);
    if (!response.headersSent) send(response, 500, '{"code":"internal_error"}');
  });
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT ?? 8090), process.env.HOST ?? '127.0.0.1');
process.once('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
