import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { aTenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const clientPackage = path.join(root, 'clients/typescript');

/** A plain Node program of an integrator, in JavaScript: what the compiled package must serve. */
const PROGRAM = `
import { ApiError, IntegrationClient } from '@hiring/integration-client';
import { mirrorToDirectory } from '@hiring/integration-client/node';

const client = new IntegrationClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY });
const page = await client.listVacancies({ status: 'all' });
const application = await client.submitApplication({ externalId: 'portal-1', vacancyId: page.items[0].id, candidate: { name: 'Айгерим Нурланова' } });
const missing = await client.submitApplication({ externalId: 'portal-2', vacancyId: 'нет', candidate: { name: 'X' } }).catch((error) => error);
const mirror = await mirrorToDirectory({ client, directory: process.env.OUT });
console.log(JSON.stringify({ titles: page.items.map((v) => v.title), application: application.status, notFound: missing instanceof ApiError && missing.code, added: mirror.added }));
`;

/** A TypeScript program of an integrator: the shipped declarations must type it, and catch a mistake. */
const TYPED = `
import { IntegrationClient, type ApplicationRequest, type Problem, type Vacancy } from '@hiring/integration-client';
import { FileSyncStateStore, JsonlMirror } from '@hiring/integration-client/node';

const client = new IntegrationClient({ baseUrl: 'http://127.0.0.1:8080/api', apiKey: 'k' });
export async function titles(): Promise<string[]> {
  const page = await client.listVacancies({ status: 'archived', since: new Date() });
  return page.items.map((v: Vacancy) => v.title);
}
export const request: ApplicationRequest = { externalId: 'e', vacancyId: 'v', candidate: { name: 'n' }, referral: { name: 'r' } };
export const code = (p: Problem): string => p.code;
export const state = new FileSyncStateStore('state.json');
export const mirror = JsonlMirror.open<Vacancy>('vacancies.jsonl');
`;

describe('npm install ./clients/typescript in a fresh project', function () {
  this.timeout(180_000);
  let project: string;
  let server: TestServer;

  before(async () => {
    project = await mkdtemp(path.join(tmpdir(), 'integrator-'));
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'career-portal', private: true, type: 'module', allowScripts: { '@hiring/integration-client': true } }, null, 2),
    );
    // Offline: the package needs nothing from a registry; its prepare script compiles it with TypeScript.
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', clientPackage], { cwd: project });
    server = await startTestServer();
  });

  after(async () => {
    await server?.close();
    await rm(project, { recursive: true, force: true });
  });

  it('builds the package, whose compiled JavaScript works against the service', async () => {
    const installed = JSON.parse(await readFile(path.join(project, 'node_modules/@hiring/integration-client/package.json'), 'utf8'));
    expect(installed.name).to.equal('@hiring/integration-client');
    const tenant = await aTenant(server);
    await tenant.addVacancy({ title: 'Оператор call-центра', status: 'paused' });
    await writeFile(path.join(project, 'program.mjs'), PROGRAM);
    const { stdout } = await run(process.execPath, ['program.mjs'], {
      cwd: project,
      env: { ...process.env, BASE_URL: `${server.origin}/api`, API_KEY: tenant.key, OUT: path.join(project, 'mirror') },
    });
    expect(JSON.parse(stdout)).to.deep.equal({ titles: ['Оператор call-центра'], application: 'created', notFound: 'not_found', added: 2 });
    expect((await readFile(path.join(project, 'mirror/candidates.jsonl'), 'utf8')).trim().split('\n')).to.have.length(1);
  });

  it('ships declarations that type an integrator program and reject a wrong one', async () => {
    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    const options = ['--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', '--typeRoots', path.join(root, 'node_modules/@types')];
    await writeFile(path.join(project, 'typed.ts'), TYPED);
    await run(process.execPath, [tsc, ...options, 'typed.ts'], { cwd: project });

    await writeFile(path.join(project, 'wrong.ts'), `${TYPED}\nexport const wrong: ApplicationRequest = { externalId: 'e', candidate: { name: 'n' } };\nclient.listVacancies({ status: 'deleted' });\n`);
    const failure = await run(process.execPath, [tsc, ...options, 'wrong.ts'], { cwd: project }).catch((error: { stdout: string }) => error.stdout);
    expect(failure).to.contain("Property 'vacancyId' is missing").and.contain('"deleted"');
  });
});
