import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type RunningEmbeddedPostgres } from '../../infrastructure/database/embedded-postgres.js';
import { useAdminDatabase } from './support/admin-database.js';
import { errorOf, jsonOf } from './support/run-admin.js';

interface Issued {
  id: string;
  key: string;
}

const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('admin CLI: keys on disk and messages that keep secrets (processes on PostgreSQL)', function () {
  this.timeout(120_000);
  const admin = useAdminDatabase();
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'admin-secrets-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('key issue --out writes the key to a file only its owner can read, replacing an older one, and prints the rest', async () => {
    const company = jsonOf<{ id: string }>(await admin().run(['company', 'create', '--name', 'ТОО «Ключи»']));
    const file = path.join(dir, 'nested', 'portal-key.json');
    const printed = jsonOf<Record<string, unknown>>(
      await admin().run(['key', 'issue', '--company', company.id, '--scopes', 'vacancies:read,applications:write', '--name', 'career-portal', '--out', file]),
    );
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Issued & Record<string, unknown>;
    expect(modeOf(file)).to.equal(0o600);
    // Others may pass through it, not list it: it may become a DATA_DIR that the embedded PostgreSQL must enter.
    expect(modeOf(path.dirname(file))).to.equal(0o711);
    expect(Object.keys(saved)).to.deep.equal(['id', 'key', 'scopes', 'companyId', 'expiresAt']);
    expect(saved.key).to.match(new RegExp(`^ik_${saved.id}_`));
    expect(printed).to.deep.equal({ id: saved.id, scopes: saved.scopes, companyId: company.id, expiresAt: null, savedTo: file });

    // A file left readable by others (the old `> portal-key.json`) is replaced by one that is not.
    chmodSync(file, 0o644);
    await admin().runInProcess(['key', 'issue', '--company', company.id, '--scopes', 'vacancies:read', '--out', file]);
    expect(modeOf(file)).to.equal(0o600);
    expect((JSON.parse(readFileSync(file, 'utf8')) as Issued).id).to.not.equal(saved.id);
  });

  it('key issue --out to a path that cannot be written fails before any key is issued', async () => {
    const company = jsonOf<{ id: string }>(await admin().run(['company', 'create', '--name', 'ТОО «Без ключа»']));
    const blocker = path.join(dir, 'not-a-directory');
    writeFileSync(blocker, 'x');
    const run = await admin().runInProcess(['key', 'issue', '--company', company.id, '--scopes', 'vacancies:read', '--out', path.join(blocker, 'key.json')]);
    expect(errorOf(run)).to.match(/^error: Cannot write --out .*not-a-directory\/key\.json: /);
    expect(jsonOf<unknown[]>(await admin().runInProcess(['key', 'list', '--company', company.id]))).to.deep.equal([]);
  });

  it('seed demo --out writes its document with the key 0600 and prints it without the key', async () => {
    const file = path.join(dir, 'demo.json');
    const run = await admin().run(['seed', 'demo', '--vacancies', '2', '--candidates', '3', '--out', file]);
    const printed = jsonOf<Record<string, unknown>>(run);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(modeOf(file)).to.equal(0o600);
    expect(saved.key).to.be.a('string').and.match(/^ik_/);
    expect(printed).to.not.have.property('key');
    expect(printed).to.deep.include({ companyId: saved.companyId, keyId: saved.keyId, candidates: 3, savedTo: file });
    expect(run.stdout + run.stderr).to.not.contain(saved.key as string);
  });

  it('seed demo --out var/demo.json on another database leaves a var/ in which the embedded PostgreSQL then starts', async () => {
    const checkout = mkdtempSync(path.join(tmpdir(), 'admin-secrets-checkout-'));
    chmodSync(checkout, 0o755);
    const dataDir = path.join(checkout, 'var');
    let running: RunningEmbeddedPostgres | undefined;
    try {
      const run = await admin().run(['seed', 'demo', '--vacancies', '1', '--candidates', '1', '--out', path.join(dataDir, 'demo.json')]);
      jsonOf(run);
      expect(modeOf(dataDir) & 0o001, 'others (the postgres user) may enter var/').to.equal(0o001);
      // `npm start` with DATA_DIR=var next: as root, the server runs as the postgres user, which must enter var/.
      running = await startEmbeddedPostgres({ dataDir, ephemeral: true });
      expect(running.startedHere).to.equal(true);
    } finally {
      await running?.stop({ force: true });
      rmSync(checkout, { recursive: true, force: true });
    }
  });

  it('key revoke --id given the whole key refuses without repeating it, and revokes nothing', async () => {
    const company = jsonOf<{ id: string }>(await admin().run(['company', 'create', '--name', 'ТОО «Отзыв»']));
    const issued = jsonOf<Issued>(await admin().runInProcess(['key', 'issue', '--company', company.id, '--scopes', 'vacancies:read']));
    const secret = issued.key.slice(`ik_${issued.id}_`.length);
    const runs = [
      await admin().run(['key', 'revoke', '--id', issued.key]),
      await admin().runInProcess(['key', 'revoke', '--id', secret]),
    ];
    expect(runs.map(errorOf)).to.deep.equal([
      'error: --id takes the key id (the part between ik_ and the second underscore), not the whole key',
      'error: --id: a key id is 12 letters and digits (the part between ik_ and the second underscore of the key)',
    ]);
    for (const run of runs) expect(run.stdout + run.stderr).to.not.contain(secret);
    const [listed] = jsonOf<{ revokedAt: string | null }[]>(await admin().runInProcess(['key', 'list', '--company', company.id]));
    expect(listed?.revokedAt).to.equal(null);
  });

  it('never repeats a whole key typed where a command or argument goes', async () => {
    const key = `ik_AAAAAAAAAAAA_${'s3cr3t'.repeat(7)}`;
    const runs = [await admin().runInProcess([key]), await admin().runInProcess(['key', 'list', key])];
    for (const run of runs) {
      expect(run.status).to.not.equal(0);
      expect(run.stderr).to.not.contain('s3cr3t');
    }
    expect(runs[0]?.stderr).to.contain('ik_AAAAAAAAAAAA_(secret not shown)');
  });

  it('names the option, and the item of a list, where the domain finds a value of a command wrong', async () => {
    const company = jsonOf<{ id: string }>(await admin().run(['company', 'create', '--name', 'ТОО «Опции»']));
    const [vacancy] = jsonOf<{ id: string }[]>(await admin().runInProcess(['vacancy', 'upsert', '--company', company.id, '--file', '-'], { input: '{"title":"Склад","status":"open"}' }));
    const runs = [
      await admin().run(['key', 'issue', '--company', company.id, '--scopes', 'bogus']),
      await admin().runInProcess(['key', 'issue', '--company', company.id, '--scopes', 'vacancies:read,bogus,zz']),
      await admin().runInProcess(['key', 'issue', '--company', company.id, '--scopes', 'vacancies:read', '--name', 'x'.repeat(201)]),
      await admin().runInProcess(['board', 'set-columns', '--company', company.id, '--vacancy', vacancy!.id, '--columns', 'NEW,DONE,NEW']),
    ];
    expect(runs.map(errorOf)).to.deep.equal([
      'error: --scopes: "bogus" is not a scope; use vacancies:read, candidates:read, applications:write',
      'error: --scopes: "bogus", "zz" are not scopes; use vacancies:read, candidates:read, applications:write',
      'error: --name: must be at most 200 characters',
      'error: --columns item 3: repeats the column "NEW"',
    ]);
    expect(runs[0]?.status).to.equal(1);
  });

  it('reports every bad record of a file in one run: the shape of one and the rules of another', async () => {
    const company = jsonOf<{ id: string }>(await admin().run(['company', 'create', '--name', 'ТОО «Файлы»']));
    const [vacancy] = jsonOf<{ id: string }[]>(await admin().runInProcess(['vacancy', 'upsert', '--company', company.id, '--file', '-'], { input: '{"title":"Склад","status":"open"}' }));
    const vacancies = await admin().run(['vacancy', 'upsert', '--company', company.id, '--file', '-'], {
      input: JSON.stringify([
        { title: 'Кладовщик', status: 'open', salaryFrom: 'сто тысяч' },
        { title: 'Водитель', status: 'open', salaryFrom: 500, salaryTo: 100 },
        { title: 5, status: 'open', salaryFrom: 900, salaryTo: 100 },
      ]),
    });
    expect(errorOf(vacancies)).to.equal(
      'error: The file is invalid; nothing was stored. /0/salaryFrom: must be a number or null; /1/salaryFrom: must not be greater than salaryTo; ' +
        '/2/title: must be a string; /2/salaryFrom: must not be greater than salaryTo',
    );
    const candidates = await admin().runInProcess(['candidate', 'add', '--company', company.id, '--file', '-'], {
      input: JSON.stringify([
        { vacancyId: vacancy!.id, candidate: { name: 'Айгерим', citizenship: 'KZ' } },
        { vacancyId: vacancy!.id, candidate: { name: 'Данияр', email: 'not an address' } },
      ]),
    });
    expect(errorOf(candidates)).to.match(/^error: The file is invalid; nothing was stored\. \/0\/candidate\/citizenship: must be an array; \/1\/candidate\/email: /);
    const resume = await admin().runInProcess(['candidate', 'update-resume', '--company', company.id, '--id', 'any', '--file', '-'], {
      input: JSON.stringify({ skills: 'Excel', expectedSalary: -5 }),
    });
    expect(errorOf(resume)).to.match(/^error: The resume file is invalid; nothing was stored\. \/skills: must be an array; \/expectedSalary: /);
    expect(await admin().vacancies(company.id)).to.have.length(1);
    expect(await admin().candidates(company.id)).to.deep.equal([]);
  });

  it('board set-columns --help says what it does: columns are replaced, never renamed', async () => {
    const run = await admin().runInProcess(['board', 'set-columns', '--help']);
    expect(run.stdout).to.not.match(/\brename,/);
    expect(run.stdout.replace(/\s+/g, ' ')).to.contain('A column is never renamed');
  });
});

describe('key files in the working tree', () => {
  it('are ignored by git where the README writes them, and where older instructions did', () => {
    const files = ['var/demo.json', 'var/portal-key.json', 'demo.json', 'portal-key.json'];
    const ignored = execFileSync('git', ['check-ignore', '--no-index', ...files], { encoding: 'utf8' }).trim().split('\n');
    expect(ignored).to.deep.equal(files);
  });
});
