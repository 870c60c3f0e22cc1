import { processCpuMs } from './proc.js';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { CANDIDATES } from '../adapters/persistence/postgres/tables/candidate.table.js';

/**
 * PostgreSQL's CPU for the feed's commonest pair of statements, a card's read by key and its whole-row update,
 * sent three ways (ADR 22): inlined and unnamed as the service sends them by default; prepared and planned for
 * each execution (DB_PREPARED_STATEMENTS=on: plan_cache_mode = force_custom_plan in every transaction); and
 * prepared with PostgreSQL's default plan cache (a generic plan after five executions), which the service does
 * not use. The backend's CPU comes from /proc (the server must be on this machine); the ways alternate in rounds.
 */
const HELP = `Usage: npx tsx bench/prepared-probe.ts DATABASE_URL [--pairs N] [--rounds N]

DATABASE_URL: a database migrated and seeded (npm run admin -- migrate; admin seed demo) on a server of this
machine. Each pair is one transaction: BEGIN, a card's read by key, its update (the stage changed), COMMIT.
  --pairs N   pairs per way and round (default 3000)
  --rounds N  rounds of the three ways (default 3)
Prints PostgreSQL's CPU (ms) per pair for each way and round.`;

const UPDATE_CARD =
  'update candidates set vacancy_id = $1, stage = $2, source = $3, external_id = $4, cover_letter = $5, person = $6::jsonb, resume = $7::jsonb, ' +
  'referral = $8::jsonb, technical = $9, origin_card_id = $10, request_fingerprint = $11, source_ref = $12, created_at = $13::timestamptz, ' +
  'card_updated_at = $14::timestamptz, resume_updated_at = $15::timestamptz, rendering = $16 where company_id = $17 and id = $18';
const READ_CARD = `select ${CANDIDATES.selectList()} from candidates where company_id = $1 and id = $2`;

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { pairs: { type: 'string' }, rounds: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help || positionals.length !== 1) {
    process.stdout.write(`${HELP}\n`);
    process.exit(values.help ? 0 : 1);
  }
  const pairs = Number(values.pairs ?? 3000);
  const rounds = Number(values.rounds ?? 3);
  const client = new pg.Client({ connectionString: positionals[0] });
  await client.connect();
  const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid as number;
  const cards = (await client.query<Record<string, any>>('select * from candidates where vacancy_id is not null and not technical limit 2000')).rows;
  if (cards.length === 0) throw new Error('No cards: seed the database first (npm run admin -- seed demo).');
  const updateValues = (card: Record<string, any>, n: number) => [
    card.vacancy_id, n % 2 === 0 ? 'NEW' : 'INTERVIEW', card.source, card.external_id, card.cover_letter, JSON.stringify(card.person), JSON.stringify(card.resume),
    card.referral === null ? null : JSON.stringify(card.referral), card.technical, card.origin_card_id, card.request_fingerprint, card.source_ref,
    card.created_at.toISOString(), new Date().toISOString(), card.resume_updated_at.toISOString(), card.rendering, card.company_id, card.id,
  ];
  const ways: Record<string, (card: Record<string, any>, n: number) => Promise<void>> = {
    'inlined (default)': async (card, n) => {
      await client.query(`begin; select ${CANDIDATES.selectList()} from candidates where company_id = ${literal(card.company_id)} and id = ${literal(card.id)}`);
      await client.query(UPDATE_CARD, updateValues(card, n));
      await client.query('commit');
    },
    'prepared, custom plans (DB_PREPARED_STATEMENTS=on)': async (card, n) => {
      await client.query('set local plan_cache_mode = force_custom_plan; begin');
      await client.query({ name: 'read_card', text: READ_CARD, values: [card.company_id, card.id] });
      await client.query({ name: 'update_card', text: UPDATE_CARD, values: updateValues(card, n) });
      await client.query('commit');
    },
    'prepared, generic plans (not used)': async (card, n) => {
      await client.query('begin');
      await client.query({ name: 'read_card', text: READ_CARD, values: [card.company_id, card.id] });
      await client.query({ name: 'update_card', text: UPDATE_CARD, values: updateValues(card, n) });
      await client.query('commit');
    },
  };
  for (let round = 1; round <= rounds; round++) {
    for (const [way, pair] of Object.entries(ways)) {
      const before = processCpuMs(pid);
      for (let n = 0; n < pairs; n++) await pair(cards[n % cards.length] as Record<string, any>, n + round);
      process.stdout.write(`round ${round}, ${way}: ${((processCpuMs(pid) - before) / pairs).toFixed(3)} ms of PostgreSQL's CPU a pair\n`);
    }
  }
  await client.end();
}

void main().catch((error: unknown) => {
  process.stderr.write(`prepared-probe: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
