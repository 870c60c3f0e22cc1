import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { v7 } from 'uuid';
import { readPerson, readReferral, readResume } from '../../adapters/persistence/postgres/row-mapping/json-documents.js';
import { renderCandidateRest } from '../../adapters/presenters/candidate.presenter.js';
import { answerHelp } from '../../infrastructure/process-arguments.js';

/**
 * The one-statement POST ceiling of the bench (issue 13): node:http and pg, `POST /applications` only.
 * Each request is ONE autocommit statement that checks the vacancy, inserts the card and, when the
 * externalId is already taken, reads the earlier card's id: a CTE with the vacancy and its board's first
 * column, a data-modifying CTE `INSERT ... SELECT ... ON CONFLICT DO NOTHING RETURNING id`, and a last
 * SELECT that gives the inserted id, else the earlier card's id, and whether the vacancy was found.
 *
 * The columns and values are those of the service's insert (pg-candidate-repository.ts,
 * insertApplications): the same 18 columns, the id a v7 uuid made here, the stage the board's first column
 * (NEW without a board, the default board's), `technical` false, no origin card or source ref, the three
 * times this process's clock (the service's are the database clock, read with the company lock; the
 * rendering needs them before the statement), and the card's rendering (ADR 18).
 *
 * The rendering is made here with the service's presenter function, as the service makes it for every card it
 * writes: the same work. Only the stage is not known before the statement, so the text after the stage is
 * rendered here and the statement puts `"stage":` and the column, as to_json gives it, in front: the same bytes
 * as JSON.stringify for any text PostgreSQL stores (both escape `"`, `\` and the control characters alike).
 *
 * A duplicate stored before the statement began is answered by the same statement. Only a copy that another
 * request inserts and commits while this statement waits on it (ON CONFLICT waits for the other's commit)
 * is not in the statement's snapshot: then, and only then, one more read of the earlier id follows.
 *
 * No framework, key check, rate limit, validation beyond JSON.parse, transaction, company lock or batching.
 * Env: DATABASE_URL, PORT, HOST, COMPANY_ID, DB_POOL_MAX (10).
 */
answerHelp(
  process.argv.slice(2),
  'bench/ceilings/one-statement-post-ceiling.ts',
  `Usage: DATABASE_URL=postgres://... COMPANY_ID=UUID [PORT=8091] [HOST=127.0.0.1] [DB_POOL_MAX=10] npx tsx bench/ceilings/one-statement-post-ceiling.ts

The bench's one-statement POST ceiling (npm run bench starts it): node:http and pg answering POST
/applications with one autocommit statement a request (checks the vacancy, inserts the card, reads an earlier
card's id on a repeat).
Settings are environment variables only.`,
);
const companyId = required('COMPANY_ID');
const pool = new pg.Pool({ connectionString: required('DATABASE_URL'), max: Number(process.env.DB_POOL_MAX ?? 10) });
const API = '/api/integration/v1';

// $1 company, $2 new id, $3 vacancy, $4 source, $5 externalId, $6 cover letter, $7 person, $8 resume,
// $9 referral, $10 fingerprint, $11 the time, $12 the rendering after the stage.
const APPLY_SQL = `with vacancy as (
    select v.company_id, v.id, coalesce(b.columns->>0, 'NEW') as stage
      from vacancies v left join boards b on b.company_id = v.company_id and b.vacancy_id = v.id
     where v.company_id = $1::text and v.id = $3::text
  ), inserted as (
    insert into candidates (company_id, id, vacancy_id, stage, source, external_id, cover_letter, person, resume, referral,
      technical, origin_card_id, request_fingerprint, source_ref, created_at, card_updated_at, resume_updated_at, rendering)
    select v.company_id, $2::text, v.id, v.stage, $4::text, $5::text, $6::text, $7::jsonb, $8::jsonb, $9::jsonb,
           false, null, $10::text, null, $11::timestamptz, $11::timestamptz, $11::timestamptz, '"stage":' || to_json(v.stage)::text || $12::text
      from vacancy v
    on conflict (company_id, external_id) where external_id is not null do nothing
    returning id
  )
  select (select id from inserted) as created,
         case when not exists (select 1 from inserted)
              then (select c.id from candidates c where c.company_id = $1::text and c.external_id = $5::text) end as earlier,
         exists (select 1 from vacancy) as vacancy_found`;

interface Outcome {
  readonly created: string | null;
  readonly earlier: string | null;
  readonly vacancy_found: boolean;
}

/** Statements sent, by kind, for the JSON of the bench (read at the end through GET /stats). */
const counts = { requests: 0, statements: 0, created: 0, duplicates: 0, notFound: 0, racedReads: 0 };

async function apply(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  const body = JSON.parse(raw);
  counts.requests++;
  counts.statements++;
  const id = v7();
  const now = new Date();
  const [source, coverLetter, referral] = [body.source ?? 'api', body.coverLetter ?? null, body.referral ?? null];
  // As the use case does (SubmitApplication.cardOf): the person with no gender and no citizenship.
  const person = { ...body.candidate, gender: null, citizenship: [] };
  const rest = renderingAfterStage({
    id, vacancyId: body.vacancyId, vacancyTitle: null, stage: null, source, externalId: body.externalId, coverLetter,
    person: readPerson(person), resume: readResume(body.resume ?? {}), referral: readReferral(referral), createdAt: now, updatedAt: now,
  });
  const { rows } = await pool.query<Outcome>(APPLY_SQL, [
    companyId, id, body.vacancyId, source, body.externalId, coverLetter, JSON.stringify(person), JSON.stringify(body.resume ?? {}),
    referral ? JSON.stringify(referral) : null, createHash('sha256').update(raw).digest('hex'), now, rest,
  ]);
  const outcome = rows[0] as Outcome;
  if (outcome.created !== null) {
    counts.created++;
    return send(response, 201, JSON.stringify({ id: outcome.created, status: 'created' }));
  }
  let earlier = outcome.earlier;
  if (earlier === null && outcome.vacancy_found) {
    // Raced: a concurrent copy committed after this statement's snapshot was taken.
    counts.racedReads++;
    counts.statements++;
    const read = await pool.query<{ id: string }>('select id from candidates where company_id = $1 and external_id = $2', [companyId, body.externalId]);
    earlier = read.rows[0]?.id ?? null;
  }
  // Like the service: a repeat stays a duplicate after its vacancy is gone; no card and no vacancy is a 404.
  if (earlier === null) {
    counts.notFound++;
    return send(response, 404, '{"code":"not_found"}');
  }
  counts.duplicates++;
  send(response, 200, JSON.stringify({ id: earlier, status: 'duplicate' }));
}

const NO_STAGE = '"stage":null';

/**
 * The card's rendering after its stage, leading comma included (the readers give the card as the service reads
 * it back from the stored columns). The presenter renders the stage first after vacancyTitle; should that
 * change, this fails rather than store a wrong rendering.
 */
function renderingAfterStage(card: Parameters<typeof renderCandidateRest>[0]): string {
  const rest = renderCandidateRest(card);
  if (!rest.startsWith(`${NO_STAGE},`)) throw new Error('The candidate presenter no longer renders the stage first after vacancyTitle.');
  return rest.slice(NO_STAGE.length);
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
  const route = `${request.method} ${new URL(request.url ?? '/', 'http://ceiling').pathname}`;
  const work =
    route === 'GET /healthz' ? Promise.resolve(send(response, 200, '{"status":"ok"}'))
    : route === 'GET /stats' ? Promise.resolve(send(response, 200, JSON.stringify(counts)))
    : route === `POST ${API}/applications` ? apply(request, response)
    : Promise.resolve(send(response, 404, '{"code":"not_found"}'));
  work.catch((error: unknown) => {
    process.stderr.write(`one-statement ceiling: ${error instanceof Error ? error.stack : String(error)}\n`);
    if (!response.headersSent) send(response, 500, '{"code":"internal_error"}');
  });
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT ?? 8091), process.env.HOST ?? '127.0.0.1');
process.once('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
