import { expect } from 'chai';
import type { AdminCliDependencies } from '../../adapters/cli/admin-services.js';
import { runAdminCli } from '../../adapters/cli/run-admin-cli.js';
import { useAdminDatabase } from './support/admin-database.js';
import { MemoryIo } from './support/memory-io.js';
import { errorOf, jsonOf, runAdmin } from './support/run-admin.js';
import { sqlOn } from '../support/sql.js';

interface CheckOutput {
  vacancies: { checked: number; differing: number };
  candidates: { checked: number; differing: number };
  repaired: number;
  stillDiffering: number;
  differing: { kind: string; companyId: string; id: string }[];
}

describe('admin CLI: check renderings (processes on PostgreSQL)', function () {
  this.timeout(120_000);
  const admin = useAdminDatabase();
  let companyId: string;

  before(async () => {
    companyId = jsonOf<{ companyId: string }>(await admin().runInProcess(['seed', 'demo', '--vacancies', '4', '--candidates', '60', '--seed', '3'])).companyId;
  });

  const sql = <T extends object[]>(text: string, params: unknown[] = []) => sqlOn(admin().database.databases.business)<T>(text, params);

  it('prints the counts and exits 0 when every stored rendering is what the service renders now, progress on stderr', async () => {
    const run = await admin().run(['check', 'renderings']);
    const output = jsonOf<CheckOutput>(run);
    expect(Object.keys(output)).to.deep.equal(['vacancies', 'candidates', 'repaired', 'stillDiffering', 'differing']);
    expect(output).to.deep.equal({ vacancies: { checked: 4, differing: 0 }, candidates: { checked: 60, differing: 0 }, repaired: 0, stillDiffering: 0, differing: [] });
    // Not a terminal: plain lines, none redrawn.
    expect(run.stderr).to.match(/^vacancies: 4\/4 \(100%\)/m).and.match(/^candidates: 60\/60 \(100%\)/m);
    expect(run.stderr).to.match(/^checked 4 vacancies \(0 differing\) and 60 candidates \(0 differing\)$/m);
    expect(run.stderr).to.not.contain('\r');
  });

  it('names a corrupted rendering without personal data and exits 1; --repair rewrites it and exits 0', async () => {
    const [card] = await sql<{ id: string; name: string }[]>(
      "select id, person->>'name' as name from candidates where company_id = ? and not technical order by id limit 1",
      [companyId],
    );
    await sql("update candidates set rendering = replace(rendering, '\"resume\":', '\"resume\" :') where company_id = ? and id = ?", [companyId, card?.id]);

    const failed = await admin().run(['check', 'renderings']);
    expect(failed.status).to.equal(1);
    const found = JSON.parse(failed.stdout) as CheckOutput;
    expect(found).to.deep.include({ vacancies: { checked: 4, differing: 0 }, candidates: { checked: 60, differing: 1 }, repaired: 0 });
    expect(found.differing).to.deep.equal([{ kind: 'candidate', companyId, id: card?.id }]);
    expect(failed.stdout + failed.stderr).to.not.contain(card?.name);
    const lines = failed.stderr.split('\n').filter((line) => line !== '');
    expect(lines.at(-2)).to.equal('checked 4 vacancies (0 differing) and 60 candidates (1 differing)');
    expect(lines.at(-1)).to.equal(
      'error: 1 stored rendering differs from what the service renders now; `admin check renderings --repair` rewrites them from their records.',
    );

    const repaired = await admin().run(['check', 'renderings', '--repair']);
    expect(jsonOf<CheckOutput>(repaired)).to.deep.include({ repaired: 1, stillDiffering: 0, differing: found.differing });
    expect(repaired.stderr).to.match(/^checked 4 vacancies \(0 differing\) and 60 candidates \(1 differing\); rewrote 1$/m);
    expect(jsonOf<CheckOutput>(await admin().runInProcess(['check', 'renderings']))).to.deep.include({ repaired: 0, differing: [] });
  });

  it('--repair exits 1 when a record it rewrote still differs when read again (a writer of the previous version in between)', async () => {
    const [card] = await sql<{ id: string }[]>('select id from candidates where company_id = ? and not technical order by id desc limit 1', [companyId]);
    await sql('update candidates set rendering = null where company_id = ? and id = ?', [companyId, card?.id]);
    await sql('create function forget_rendering() returns trigger language plpgsql as $$ begin new.rendering := null; return new; end $$');
    await sql(`create trigger previous_version before update on candidates for each row when (new.id = '${card?.id}') execute function forget_rendering()`);
    try {
      const run = await admin().run(['check', 'renderings', '--repair']);
      expect(run.status).to.equal(1);
      expect(JSON.parse(run.stdout) as CheckOutput).to.deep.include({ repaired: 1, stillDiffering: 1, differing: [{ kind: 'candidate', companyId, id: card?.id }] });
      const lines = run.stderr.split('\n').filter((line) => line !== '');
      expect(lines.at(-2)).to.equal('checked 4 vacancies (0 differing) and 60 candidates (1 differing); rewrote 1, 1 still differing');
      expect(lines.at(-1)).to.equal(
        'error: 1 rendering still differs after the repair: written meanwhile, by an instance of the previous version if a rolling upgrade is under way; run it again once none is left.',
      );
    } finally {
      await sql('drop trigger previous_version on candidates');
      await sql('drop function forget_rendering()');
    }
    const again = await admin().run(['check', 'renderings', '--repair']);
    expect(again.status, again.stderr).to.equal(0);
    expect(jsonOf<CheckOutput>(again)).to.deep.include({ repaired: 1, stillDiffering: 0 });
  });

  it('answers --help without a database, and refuses STORE=memory', async () => {
    const io = new MemoryIo();
    let opened = 0;
    const deps: AdminCliDependencies = {
      open: async () => {
        opened++;
        throw new Error('no database in this test');
      },
      migrate: async () => {
        opened++;
        throw new Error('no database in this test');
      },
      close: async () => {},
    };
    expect(await runAdminCli(['check', 'renderings', '--help'], deps, io)).to.equal(0);
    expect(io.stdout).to.contain('Usage: admin check renderings [options]').and.contain('--repair');
    expect(opened).to.equal(0);

    const refused = await runAdmin(['check', 'renderings'], { env: { STORE: 'memory' } });
    expect(refused.status).to.equal(1);
    expect(refused.stdout).to.equal('');
    expect(errorOf(refused)).to.match(/^error: The admin CLI does not work with STORE=memory: /);
  });
});
