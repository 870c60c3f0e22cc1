import { expect } from 'chai';
import { errorOf, runAdmin } from './support/run-admin.js';

describe('admin CLI with STORE=memory (processes)', function () {
  this.timeout(60_000);

  for (const command of [['seed', 'demo'], ['company', 'create', '--name', 'Acme'], ['migrate']]) {
    it(`refuses \`${command.join(' ')}\`, saying why and what to do instead, and prints no key`, async () => {
      const run = await runAdmin(command, { env: { STORE: 'memory' } });
      expect(run.status).to.equal(1);
      expect(run.stdout).to.equal('');
      const line = errorOf(run);
      expect(line).to.match(/^error: The admin CLI does not work with STORE=memory: /);
      expect(line).to.contain('would vanish when it exits and the service would never see it (its keys would answer 401)');
      expect(line).to.contain("Run the CLI against the service's database instead (unset STORE, or STORE=postgres");
      expect(line).to.contain('start the service with STORE=memory alone: it seeds a demo company at start and logs its key');
    });
  }

  it('still answers --help, which needs no store', async () => {
    const run = await runAdmin(['--help'], { env: { STORE: 'memory' } });
    expect(run.status).to.equal(0);
    expect(run.stdout).to.contain('seed');
  });
});
