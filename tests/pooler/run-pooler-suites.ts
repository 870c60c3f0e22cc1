import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serverAnswers } from '../../infrastructure/database/embedded-postgres-probes.js';
import { leaveSignalsToCaller, postgresTestServer, stopPostgresTestServer } from '../support/postgres-test-server.js';
import { POOLER_SUITES } from './pooler-suites.js';
import { assertPgBouncerInstalled, PgBouncerMissingError, startPgBouncer, type RunningPgBouncer } from './support/pgbouncer.js';

/**
 * `npm run test:pooler [-- spec ...]`: the PostgreSQL suites of pooler-suites.ts (or the specs given)
 * with every connection of the service through a private PgBouncer in transaction pooling, in front of
 * DATABASE_URL's server, else the machine's at 127.0.0.1:5432 if it answers, else an embedded one.
 * Fails when a suite fails, when nothing went through PgBouncer, and when PgBouncer refused a startup
 * parameter (a connection setting that transaction pooling cannot keep) at any time of the run.
 */
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MACHINE_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';


/** The real server's admin URL, and how it was chosen. */
async function target(): Promise<{ url: string; what: string }> {
  const given = process.env.DATABASE_URL?.trim();
  if (given) return { url: given, what: "DATABASE_URL's server" };
  if (await serverAnswers(MACHINE_SERVER)) return { url: MACHINE_SERVER, what: 'the machine’s PostgreSQL at 127.0.0.1:5432' };
  return { url: (await postgresTestServer()).adminUrl, what: 'an embedded PostgreSQL' };
}

function runMocha(specs: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const mocha = fileURLToPath(new URL('node_modules/mocha/bin/mocha.js', `file://${REPO_ROOT}`));
  const child = spawn(process.execPath, [mocha, '--no-config', '--require', 'tsx', '--timeout', '60000', '--exit', ...specs], {
    cwd: REPO_ROOT,
    env,
    stdio: 'inherit',
  });
  // Ctrl-C or a CI timeout: the suites stop first, then PgBouncer and the server go in order.
  const forward = (signal: NodeJS.Signals) => void child.kill(signal);
  process.on('SIGINT', forward).on('SIGTERM', forward);
  return new Promise((done) =>
    child.once('exit', (code, signal) => {
      process.off('SIGINT', forward).off('SIGTERM', forward);
      done(code ?? (signal === null ? 1 : 128));
    }),
  );
}

/** Databases of the test run that PgBouncer carried transactions for. */
async function pooledTestDatabases(bouncer: RunningPgBouncer): Promise<string[]> {
  const stats = await bouncer.console('SHOW STATS');
  return stats.filter((row) => String(row.database).startsWith('itest_') && Number(row.total_xact_count) > 0).map((row) => String(row.database));
}

const USAGE = `Usage: npm run test:pooler [-- SPEC ...]

The PostgreSQL suites (tests/pooler/pooler-suites.ts, or the mocha specs given) with every connection of the
service through a private PgBouncer in transaction pooling, in front of DATABASE_URL's server, else the machine's
at 127.0.0.1:5432 if it answers, else an embedded one. Needs PgBouncer (apt-get install pgbouncer). Fails when a
suite fails, when nothing went through PgBouncer, or when PgBouncer refused a startup parameter.
`;

async function main(): Promise<number> {
  if (process.argv.slice(2).some((arg) => arg === '--help' || arg === '-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  const specs = process.argv.length > 2 ? process.argv.slice(2) : POOLER_SUITES;
  // Before any server is started or waited for: a missing binary is a message, not a hang.
  assertPgBouncerInstalled();
  // Ctrl-C stops the suites, then PgBouncer, then an embedded server, in that order (runMocha).
  leaveSignalsToCaller();
  const server = await target();
  let bouncer: RunningPgBouncer;
  try {
    bouncer = await startPgBouncer({ serverUrl: server.url });
  } catch (error) {
    await stopPostgresTestServer();
    throw error;
  }
  console.log(`PgBouncer (transaction pooling) on ${bouncer.url} in front of ${server.what}; suites: ${specs.join(' ')}`);
  let code: number;
  let refused: string[];
  let pooled: string[];
  try {
    code = await runMocha(specs, { ...process.env, TEST_STORE: 'postgres', DATABASE_URL: server.url, TEST_POOLER_URL: bouncer.url });
    pooled = await pooledTestDatabases(bouncer);
    refused = await bouncer.refusedStartupParameters();
  } finally {
    await bouncer.stop();
    await stopPostgresTestServer();
  }
  if (refused.length > 0) {
    console.error(`PgBouncer refused startup parameters (${refused.length} log lines); a client sent settings that transaction pooling cannot keep:`);
    for (const line of [...new Set(refused.map((l) => l.replace(/^.*?(unsupported startup parameter.*)$/, '$1')))]) console.error(`  ${line}`);
    return code === 0 ? 1 : code;
  }
  // Asked for particular specs, they may well reach the server by other ways (a test's own relay).
  if (pooled.length === 0 && specs === POOLER_SUITES) {
    console.error('No test database was served through PgBouncer: the suites did not use TEST_POOLER_URL.');
    return code === 0 ? 1 : code;
  }
  console.log(`PgBouncer carried the transactions of ${pooled.length} test databases and refused no startup parameter.`);
  return code;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(error instanceof PgBouncerMissingError ? error.message : error);
  process.exitCode = 1;
}
