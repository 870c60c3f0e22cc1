import { expect } from 'chai';
import { npmStartToExit } from './support/npm-start.js';

/** `npm start -- ARGS` as a user types it, in memory (nothing to start before it refuses). */
const npmStartWith = (args: readonly string[]) => npmStartToExit(args, { STORE: 'memory' }, 60_000);

describe('npm start and its command line (settings are environment variables)', function () {
  this.timeout(120_000);

  it('prints its usage with --help, naming its variables, and exits 0 without starting', async () => {
    const run = await npmStartWith(['--help']);
    expect(run.code).to.equal(0);
    for (const name of ['PORT', 'DATABASE_URL', 'METRICS_PORT', 'MANAGEMENT_PORT', 'SIGTERM']) expect(run.stdout).to.contain(name);
    expect(run.stdout).to.not.match(/"msg":"listening/);
  });

  it('refuses an argument it does not take, which would otherwise be ignored, and exits 1 without starting', async () => {
    const run = await npmStartWith(['--port', '9000', '--database-url=postgresql://app:s3cret-pw@db:5432/app', 'x-s3cret-pw']);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain('integration-api: cannot start: npm start takes no arguments but --help (npm start -- --help); its settings are environment variables.');
    // The options named, no value shown: a value may hold a password in any form.
    expect(run.stderr).to.contain('Got 4 arguments (options "--port", "--database-url"; values not shown).');
    expect(run.stderr).to.not.contain('s3cret-pw');
    expect(run.stdout).to.not.match(/listening/);
  });
});
