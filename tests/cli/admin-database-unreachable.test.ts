import { expect } from 'chai';
import { createServer, type AddressInfo } from 'node:net';
import { runAdmin } from './support/run-admin.js';

/** A port that nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((closed) => server.close(() => closed()));
  return port;
}

describe('admin CLI without its database (processes)', function () {
  this.timeout(60_000);

  it('says on one line that it cannot open the database, where it looked (never the password) and why, and exits 1', async () => {
    const port = await closedPort();
    for (const args of [['key', 'list', '--company', 'x'], ['company', 'create', '--name', 'x'], ['migrate']]) {
      const run = await runAdmin(args, { env: { DATABASE_URL: `postgresql://postgres:s3cret-pw@127.0.0.1:${port}/crm`, DB_CONNECT_TIMEOUT_MS: '2000' } });
      expect(run.status, args.join(' ')).to.equal(1);
      expect(run.stdout).to.equal('');
      expect(run.stderr.trimEnd().split('\n'), `${args.join(' ')}: ${run.stderr}`).to.have.length(1);
      expect(run.stderr).to.match(new RegExp(`^error: Cannot open the database \\(DATABASE_URL postgresql://127\\.0\\.0\\.1:${port}/crm\\): .*ECONNREFUSED`));
      expect(run.stderr).to.not.contain('s3cret-pw');
    }
  });
});
