import { expect } from 'chai';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AdminCliDependencies } from '../../adapters/cli/admin-services.js';
import type { CliIo } from '../../adapters/cli/cli-io.js';
import { runAdminCli } from '../../adapters/cli/run-admin-cli.js';
import { errorOf, jsonOf, runAdmin } from '../cli/support/run-admin.js';
import { IntegrationClient, type Candidate, type Vacancy } from '../../clients/typescript/src/index.js';
import { mirrorToDirectory } from '../../clients/typescript/src/node.js';
import { aVacancyInput } from '../support/builders.js';
import { aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

class TestIo implements CliIo {
  stdout = '';
  stderr = '';
  constructor(
    readonly errIsTerminal = false,
    readonly env: Readonly<Record<string, string>> = {},
  ) {}
  out(text: string) {
    this.stdout += text;
  }
  err(text: string) {
    this.stderr += text;
  }
  async readStdin() {
    return '';
  }
  async readFile(file: string) {
    return readFile(file, 'utf8');
  }
}

/** The CLI's stores, which `sync` must never open: it is a client of the HTTP API. */
const noDatabase: AdminCliDependencies = {
  open: async () => Promise.reject(new Error('sync opened the database')),
  migrate: async () => Promise.reject(new Error('sync migrated the database')),
  close: async () => {},
};

async function lines<T>(file: string): Promise<T[]> {
  const text = await readFile(file, 'utf8');
  return text === '' ? [] : text.trimEnd().split('\n').map((line) => JSON.parse(line) as T);
}

async function expectNoDirectory(dir: string): Promise<void> {
  const error = await stat(dir).then(
    () => null,
    (failure: NodeJS.ErrnoException) => failure,
  );
  expect(error?.code, `${dir} was made`).to.equal('ENOENT');
}

/** Every file under the directory, with its text. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files[path.relative(dir, path.join(entry.parentPath, entry.name))] = await readFile(path.join(entry.parentPath, entry.name), 'utf8');
  }
  return files;
}

describe('admin sync --base-url URL (--key-file PATH | INTEGRATION_API_KEY | --key KEY) --out DIR', function () {
  this.timeout(60_000);
  let server: TestServer;
  let tenant: Tenant;
  let dir: string;
  let truth: () => Promise<{ vacancies: Vacancy[]; candidates: Candidate[] }>;

  const sync = async (extra: string[] = [], io = new TestIo()) => {
    const status = await runAdminCli(['sync', '--base-url', `${server.origin}/api`, '--key', tenant.key, '--out', dir, ...extra], noDatabase, io);
    return { status, io, printed: io.stdout === '' ? undefined : JSON.parse(io.stdout) };
  };

  beforeEach(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
    dir = path.join(await mkdtemp(path.join(tmpdir(), 'admin-sync-')), 'mirror');
    const reader = new IntegrationClient({ baseUrl: server.baseUrl, apiKey: tenant.key });
    truth = async () => {
      const vacancies: Vacancy[] = [];
      const candidates: Candidate[] = [];
      for await (const v of reader.vacancies({ status: 'all' })) vacancies.push(v);
      for await (const c of reader.candidates()) candidates.push(c);
      const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
      return { vacancies: vacancies.sort(byId), candidates: candidates.sort(byId) };
    };
  });

  afterEach(async () => {
    await server.close();
    await rm(path.dirname(dir), { recursive: true, force: true });
  });

  it('mirrors every vacancy and candidate, then reports what was added, changed and deleted, with no database', async () => {
    const backend = await tenant.addVacancy({ title: 'Бэкенд-разработчик' });
    const archived = await tenant.addVacancy({ title: 'Оператор call-центра', status: 'archived' });
    const [first, second, third] = [await tenant.addManualCandidate(backend.id, 'Айгерим Нурланова'), await tenant.addManualCandidate(backend.id, 'Шахзод Рахимов'), await tenant.addManualCandidate(archived.id, 'Тимур Алиев')];

    const initial = await sync();
    expect(initial.status, initial.io.stderr).to.equal(0);
    expect(initial.printed).to.deep.include({ added: 5, changed: 0, deleted: 0 });
    expect(initial.io.stderr).to.match(/^vacancies \(full pass\): page 1, 2 records, .*, done$/m);
    expect(initial.io.stderr).to.match(/^candidates \(full pass\): page 1, 3 records, .*, done$/m);
    expect(await lines(path.join(dir, 'vacancies.jsonl'))).to.deep.equal((await truth()).vacancies);
    expect(await lines(path.join(dir, 'candidates.jsonl'))).to.deep.equal((await truth()).candidates);

    await server.seed.upsertVacancies.execute({ companyId: tenant.companyId, vacancies: [{ ...aVacancyInput({ title: 'Ведущий бэкенд-разработчик' }), id: backend.id }] });
    await tenant.addManualCandidate(archived.id, 'Дилноза Юсупова');
    await server.seed.moveCandidate.execute({ companyId: tenant.companyId, id: third.id, stage: 'INTERVIEW' });
    await server.seed.deleteCandidate.execute({ companyId: tenant.companyId, id: second.id });

    const incremental = await sync();
    // The rename changes the vacancy and the vacancyTitle of its two candidates; a deletion waits for a full pass.
    expect(incremental.printed).to.deep.include({ added: 1, changed: 4, deleted: 0 });
    const mirrored = await lines<Candidate>(path.join(dir, 'candidates.jsonl'));
    expect(mirrored.find((c) => c.id === first.id)!.vacancyTitle).to.equal('Ведущий бэкенд-разработчик');

    const full = await sync(['--full']);
    expect(full.printed).to.deep.include({ added: 0, changed: 0, deleted: 1 });
    expect(full.printed.candidates).to.deep.equal({ added: 0, changed: 0, deleted: 1 });
    expect(await lines(path.join(dir, 'vacancies.jsonl'))).to.deep.equal((await truth()).vacancies);
    expect(await lines(path.join(dir, 'candidates.jsonl'))).to.deep.equal((await truth()).candidates);
    expect((await readdir(path.join(dir, '.sync'))).sort()).to.deep.equal(['state.json']);
    // Candidates' names, e-mails and phones: readable by the owner only.
    for (const file of ['vacancies.jsonl', 'candidates.jsonl', '.sync/state.json']) expect((await stat(path.join(dir, file))).mode & 0o777, file).to.equal(0o600);
  });

  it('answers --help with its flags, and is listed in the top-level help', async () => {
    const io = new TestIo();
    expect(await runAdminCli(['sync', '--help'], noDatabase, io)).to.equal(0);
    for (const flag of ['--base-url', '--key-file', '--key', '--out', '--full', '--full-every', '--page-size']) expect(io.stdout).to.contain(flag);
    // The ways that keep the key out of ps and shell history come first.
    const text = io.stdout.replace(/\s+/g, ' ');
    expect(text).to.contain('The key comes from --key-file PATH or --key KEY (not both), either of which overrides the environment variable INTEGRATION_API_KEY, used when neither is given');
    expect(text.indexOf('--key-file <path>')).to.be.lessThan(text.indexOf('--key <key>'));
    const top = new TestIo();
    expect(await runAdminCli(['--help'], noDatabase, top)).to.equal(0);
    expect(top.stdout).to.match(/^ {2}sync\b/m);
  });

  it('redraws one progress line per resource on a terminal', async () => {
    const vacancy = await tenant.addVacancy();
    for (let i = 0; i < 5; i++) await tenant.addManualCandidate(vacancy.id, `Кандидат ${i}`);
    const { status, io } = await sync(['--page-size', '2'], new TestIo(true));
    expect(status).to.equal(0);
    expect(io.stderr).to.contain('\r[').and.contain('\u001b[K');
    expect(io.stderr.split('\n')).to.have.length(3);
    expect(io.stderr.endsWith('\n')).to.equal(true);
    expect(io.stderr).to.contain('candidates (full pass): page 3, 5 records');
  });

  it('after a crash keeps the files as they were committed, then goes on and converges', async () => {
    const vacancy = await tenant.addVacancy();
    for (let i = 0; i < 6; i++) await tenant.addManualCandidate(vacancy.id, `Кандидат ${i}`);
    const client = { baseUrl: server.baseUrl, apiKey: tenant.key };
    await mirrorToDirectory({ client, directory: dir, pageSize: 2 });
    const before = await readFile(path.join(dir, 'candidates.jsonl'), 'utf8');
    for (let i = 6; i < 10; i++) await tenant.addManualCandidate(vacancy.id, `Кандидат ${i}`);

    const crashed = await mirrorToDirectory({
      client, directory: dir, pageSize: 2,
      onPage: (event) => {
        if (event.resource === 'candidates' && event.page === 2) throw new Error('killed');
      },
    }).catch((error: Error) => error.message);
    expect(crashed).to.equal('killed');
    expect(await readFile(path.join(dir, 'candidates.jsonl'), 'utf8'), 'the file is replaced only whole').to.equal(before);

    const resumed = await mirrorToDirectory({ client, directory: dir, pageSize: 2 });
    expect(resumed.candidates).to.deep.equal({ added: 4, changed: 0, deleted: 0 });
    expect(resumed.report.candidates!.resumed).to.equal(true);
    expect(await lines(path.join(dir, 'candidates.jsonl'))).to.deep.equal((await truth()).candidates);
  });

  it('fails on one line, naming the answer of the API and never the key, and refuses a directory another sync holds', async () => {
    const good = tenant;
    tenant = { ...tenant, key: `${tenant.key.slice(0, -4)}AAAA` };
    const unauthorized = await sync();
    expect(unauthorized.status).to.equal(1);
    expect(unauthorized.io.stderr).to.match(/^error: the API at .* answered 401 unauthorized: A valid service key is required in the X-API-Key header\. \(request id [^)]+\)\n$/);
    expect(unauthorized.io.stderr).to.not.contain(tenant.key);
    await expectNoDirectory(dir);

    tenant = good;
    await mkdir(path.join(dir, '.sync'), { recursive: true });
    await writeFile(path.join(dir, '.sync', 'lock'), String(process.ppid));
    const locked = await sync();
    expect(locked.status).to.equal(1);
    expect(locked.io.stderr).to.contain(`Another sync (process ${process.ppid})`);
  });

  it('checks the key\'s scopes before it writes anything: a key that may not read both resources leaves no file, and names every scope it lacks', async () => {
    const vacancy = await tenant.addVacancy();
    await tenant.addManualCandidate(vacancy.id);
    for (const [scopes, missing] of [
      [['vacancies:read'], 'the scope candidates:read'],
      [['candidates:read'], 'the scope vacancies:read'],
      [['applications:write'], 'the scopes vacancies:read and candidates:read'],
    ] as const) {
      const narrow = await tenant.issueKey(scopes);
      const io = new TestIo();
      expect(await runAdminCli(['sync', '--base-url', `${server.origin}/api`, '--key', narrow.key, '--out', dir], noDatabase, io), scopes.join()).to.equal(1);
      expect(io.stderr).to.equal(
        `error: The key lacks ${missing} (the API answered 403); nothing was written. ` +
          'A sync of vacancies and candidates needs a key with vacancies:read and candidates:read.\n',
      );
      await expectNoDirectory(dir);
    }
    // A mirror already there is left as it was.
    expect((await sync()).status).to.equal(0);
    const before = await snapshot(dir);
    const narrow = await tenant.issueKey(['vacancies:read']);
    await tenant.addVacancy();
    expect(await runAdminCli(['sync', '--base-url', `${server.origin}/api`, '--key', narrow.key, '--out', dir], noDatabase, new TestIo())).to.equal(1);
    expect(await snapshot(dir)).to.deep.equal(before);
  });

  it('as a process, takes the key from INTEGRATION_API_KEY or --key-file, and prints plain progress lines with a rate', async () => {
    const vacancy = await tenant.addVacancy();
    for (let i = 0; i < 3; i++) await tenant.addManualCandidate(vacancy.id, `Кандидат ${i}`);
    const base = ['sync', '--base-url', `${server.origin}/api`, '--out', dir];

    const fromEnv = await runAdmin([...base, '--page-size', '2'], { env: { INTEGRATION_API_KEY: tenant.key } });
    expect(jsonOf(fromEnv)).to.deep.include({ added: 4, changed: 0, deleted: 0 });
    expect(fromEnv.stderr).to.match(/^candidates \(full pass\): page 1, 2 records, \d+\.\d s, \d+ records\/s$/m);
    expect(fromEnv.stderr).to.match(/^candidates \(full pass\): page 2, 3 records, \d+\.\d s, \d+ records\/s, done$/m);
    expect(fromEnv.stderr).to.not.contain(tenant.key);

    // The key alone on a line, or the JSON document that key issue --out writes.
    const plain = path.join(path.dirname(dir), 'key.txt');
    await writeFile(plain, `${tenant.key}\n`, { mode: 0o600 });
    const fromFile = await runAdmin([...base, '--key-file', plain]);
    expect(jsonOf(fromFile)).to.deep.include({ added: 0, changed: 0, deleted: 0 });
    const document = path.join(path.dirname(dir), 'portal-key.json');
    await writeFile(document, JSON.stringify({ id: 'x', key: tenant.key, scopes: [] }, null, 2), { mode: 0o600 });
    expect(jsonOf(await runAdmin([...base, '--key-file', document, '--full']))).to.deep.include({ added: 0, changed: 0, deleted: 0 });
  });

  it('refuses, on one line and without repeating what the key sources hold, no key, two keys, and a key file it cannot use', async () => {
    const secret = `${tenant.key.slice(0, -4)}ZZZZ`;
    const files = path.dirname(dir);
    const file = async (name: string, content: string) => {
      await writeFile(path.join(files, name), content);
      return path.join(files, name);
    };
    const unreadable = await file('unreadable.txt', secret);
    await chmod(unreadable, 0o000);
    const base = ['sync', '--base-url', `${server.origin}/api`, '--out', dir];
    const env = { INTEGRATION_API_KEY: secret };
    const cases: [string[], Record<string, string>, string | RegExp][] = [
      [[], {}, 'error: No key: give --key-file PATH, or set INTEGRATION_API_KEY, or pass --key KEY (which other users can see in ps).'],
      [[], { INTEGRATION_API_KEY: '' }, /^error: No key \(INTEGRATION_API_KEY is set but empty\): /],
      [['--key-file', await file('k.txt', secret), '--key', secret], {}, 'error: Give --key-file or --key, not both.'],
      [['--key-file', path.join(files, 'k.txt'), '--key', secret], env, 'error: Give --key-file or --key, not both.'],
      [['--key-file', path.join(files, 'missing.txt')], {}, `error: Cannot read --key-file ${path.join(files, 'missing.txt')}: no such file.`],
      [['--key-file', files], {}, `error: Cannot read --key-file ${files}: it is a directory.`],
      [['--key-file', await file('empty.txt', ' \n')], {}, `error: --key-file ${path.join(files, 'empty.txt')} is empty; expected a service key.`],
      [['--key-file', await file('two.txt', `${secret}\n${secret}\n`)], {}, /^error: --key-file .*two\.txt holds more than one line; /],
      [['--key-file', await file('broken.json', `{"key": "${secret}"`)], {}, /^error: --key-file .*broken\.json starts like JSON but is not valid JSON; /],
      [['--key-file', await file('nokey.json', `{"token": "${secret}"}`)], {}, /^error: --key-file .*nokey\.json is JSON without a "key" string; /],
      [['--key', `${secret} extra`], {}, 'error: --key holds spaces or characters that no service key has.'],
      [[], { INTEGRATION_API_KEY: `${secret}\u0007` }, 'error: INTEGRATION_API_KEY holds spaces or characters that no service key has.'],
    ];
    // As root, a file of mode 000 is readable still: that case is only checked where permissions hold.
    if (process.getuid?.() !== 0) cases.push([['--key-file', unreadable], {}, `error: Cannot read --key-file ${unreadable}: permission denied.`]);
    for (const [args, caseEnv, expected] of cases) {
      const io = new TestIo(false, caseEnv);
      const status = await runAdminCli([...base, ...args], noDatabase, io);
      const run = { status, stdout: io.stdout, stderr: io.stderr };
      const line = errorOf(run);
      if (typeof expected === 'string') expect(line).to.equal(expected);
      else expect(line).to.match(expected);
      expect(io.stderr, args.join(' ')).to.not.contain(secret.slice(-12));
    }
    // The process refuses the two options together as well.
    const twice = await runAdmin([...base, '--key-file', path.join(files, 'k.txt'), '--key', secret]);
    expect(errorOf(twice)).to.equal('error: Give --key-file or --key, not both.');
  });

  it('takes --key-file or --key over INTEGRATION_API_KEY, and the variable when neither is given', async () => {
    const base = ['sync', '--base-url', `${server.origin}/api`, '--out', dir];
    // A well-formed key the service does not know, and one no service key could be: either would fail the run if it were used.
    const stale = { INTEGRATION_API_KEY: `${tenant.key.slice(0, -4)}ZZZZ` };
    const broken = { INTEGRATION_API_KEY: 'not a key' };
    const keyFile = path.join(path.dirname(dir), 'key.txt');
    await writeFile(keyFile, `${tenant.key}\n`, { mode: 0o600 });
    for (const env of [stale, broken]) {
      for (const args of [['--key', tenant.key], ['--key-file', keyFile]]) {
        const io = new TestIo(false, env);
        const status = await runAdminCli([...base, ...args], noDatabase, io);
        expect({ status, stderr: io.stderr }, `${args[0]} with ${env.INTEGRATION_API_KEY}`).to.deep.include({ status: 0 });
      }
    }
    // The process, with the variable exported in its own environment.
    expect(jsonOf(await runAdmin([...base, '--key', tenant.key], { env: stale }))).to.deep.include({ deleted: 0 });
    const fromStale = await runAdmin(base, { env: stale });
    expect(fromStale.status).to.not.equal(0);
    expect(fromStale.stderr).to.not.contain(stale.INTEGRATION_API_KEY.slice(-12));
  });

  it('refuses a --base-url with a password in it without repeating it, and one that is not a URL', async () => {
    const run = async (baseUrl: string) => {
      const io = new TestIo(false, { INTEGRATION_API_KEY: tenant.key });
      const status = await runAdminCli(['sync', '--base-url', baseUrl, '--out', dir], noDatabase, io);
      return errorOf({ status, stdout: io.stdout, stderr: io.stderr });
    };
    const withPassword = await run(`http://operator:hunter2@${new URL(server.origin).host}/api`);
    expect(withPassword).to.equal('error: --base-url may not hold a user name or password; the service key is all the API takes');
    expect(await run('kz.example.com/api')).to.match(/^error: --base-url is not a URL; /);
    expect(await run('ftp://kz.example.com/api')).to.equal('error: --base-url must be an http:// or https:// URL');
  });
});
