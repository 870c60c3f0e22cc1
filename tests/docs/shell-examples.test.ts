import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { stablePort } from '../support/stable-port.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { cleanEnv } from '../lifecycle/support/npm-start.js';
import { shellExamplesOf, type ShellExample } from './support/shell-examples.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The documents whose shell examples a reader runs: the README and everything under docs/. */
const DOCUMENTS = ['README.md', ...readdirSync(join(REPO_ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
/** Addresses the examples name, and the ones this run listens on instead. */
const SERVICE_ADDRESSES = ['http://127.0.0.1:8080', 'https://kz.example.com'];
const PORTAL_ADDRESS = 'http://127.0.0.1:3000';
/** The management listener's default address, and the Service keys page's. */
const MANAGEMENT_ADDRESS = 'http://127.0.0.1:8081';
const SERVICE_KEYS_ADDRESS = 'http://127.0.0.1:3001';
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function realCurl(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('The examples use curl, which is not installed: apt-get install -y curl');
  }
}

/** A service key or a platform token's field, as a file the examples write would hold them. */
const SECRET = /\bik_[A-Za-z0-9]{12}_[A-Za-z0-9]{32,}|"token"\s*:/;

/** Files under `directory` that hold a key or a token and that others than their owner may read, with their modes. */
function secretFilesReadableByOthers(directory: string): string[] {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => (statSync(file).mode & 0o077) !== 0 && SECRET.test(readFileSync(file, 'utf8')))
    .map((file) => `${file.slice(directory.length + 1)} (${(statSync(file).mode & 0o777).toString(8)})`);
}

interface Run {
  readonly status: number | null;
  readonly output: string;
}

/**
 * Runs the README's and docs/'s shell examples as a reader would, one after another in a scratch directory
 * that looks like the checkout (its files linked, its own var/), against a service that the examples start
 * themselves (`<!-- example: service URL -->`), on a throwaway database. Every curl fails on an HTTP error
 * (a shim adds --fail-with-body), and every example runs under `set -euo pipefail`: an example that no
 * longer matches the server fails here.
 */
describe('Shell examples in the README and docs/', function () {
  this.timeout(300_000);
  const database = usePostgresTestDatabase();
  let workspace: string;
  let env: NodeJS.ProcessEnv;
  let apiPort: number;
  let portalPort: number;
  let managementPort: number;
  let serviceKeysPort: number;
  /** Running service examples, by the origin they serve: a later one on the same origin replaces the earlier. */
  const services = new Map<string, ChildProcess>();

  before(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'shell-examples-'));
    chmodSync(workspace, 0o755);
    for (const entry of readdirSync(REPO_ROOT)) {
      if (entry !== 'var' && entry !== '.git' && entry !== 'node_modules') symlinkSync(join(REPO_ROOT, entry), join(workspace, entry));
    }
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(workspace, 'node_modules'));
    mkdirSync(join(workspace, 'var'));
    const shims = join(workspace, '.shims');
    mkdirSync(shims);
    writeFileSync(join(shims, 'curl'), `#!/bin/sh\nexec ${realCurl()} --fail-with-body "$@"\n`, { mode: 0o755 });
    apiPort = await stablePort();
    portalPort = await stablePort();
    managementPort = await stablePort();
    serviceKeysPort = await stablePort();
    env = {
      ...cleanEnv({ DATABASE_URL: database().businessUrl, DATA_DIR: join(workspace, 'var'), PORT: String(apiPort) }),
      MANAGEMENT_PORT: String(managementPort),
      SERVICE_KEYS_PORT: String(serviceKeysPort),
      PATH: `${shims}:${process.env.PATH ?? ''}`,
    };
  });

  afterEach(async () => stopServices());
  after(() => rmSync(workspace, { recursive: true, force: true }));

  function localised(script: string): string {
    let text = script;
    for (const address of SERVICE_ADDRESSES) text = text.split(address).join(`http://127.0.0.1:${apiPort}`);
    text = text.split(MANAGEMENT_ADDRESS).join(`http://127.0.0.1:${managementPort}`);
    text = text.split(SERVICE_KEYS_ADDRESS).join(`http://127.0.0.1:${serviceKeysPort}`);
    return text.split(PORTAL_ADDRESS).join(`http://127.0.0.1:${portalPort}`).replace(/PORTAL_PORT=3000/g, `PORTAL_PORT=${portalPort}`);
  }

  function run(example: ShellExample, extraEnv: NodeJS.ProcessEnv = {}): Promise<Run> {
    return new Promise((done) => {
      const child = spawn('bash', ['-c', `set -euo pipefail\n${localised(example.script)}`], { cwd: workspace, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.on('close', (status) => done({ status, output }));
    });
  }

  async function startService(example: ShellExample): Promise<void> {
    if (example.reason === null) throw new Error(`${example.file}:${example.line}: "example: service" needs the URL that answers once it serves`);
    const readyUrl = localised(example.reason);
    const origin = new URL(readyUrl).origin;
    const earlier = services.get(origin);
    if (earlier !== undefined) await stop(earlier);
    const child = spawn('bash', ['-c', localised(example.script)], { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    services.set(origin, child);
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${example.file}:${example.line}: the service example exited (${child.exitCode}):\n${output}`);
      const answered = await fetch(readyUrl).then((response) => response.ok, () => false);
      if (answered) return;
      if (Date.now() > deadline) throw new Error(`${example.file}:${example.line}: ${readyUrl} did not answer within 120 s:\n${output}`);
      await sleep(200);
    }
  }

  /** Service examples that had to be killed: they did not stop on SIGTERM (what a reader's Ctrl-C sends them). */
  const unstoppable: string[] = [];

  /**
   * SIGTERM to the example's process group, as Ctrl-C in its terminal would stop it (the whole pipeline: a
   * `| tee` included); SIGKILL, and a note for the test to fail on, if any process of it is still there 15 s later.
   */
  async function stop(child: ChildProcess): Promise<void> {
    if (child.pid === undefined) return;
    const group = child.pid;
    const groupAlive = () => {
      try {
        process.kill(-group, 0);
        return true;
      } catch {
        return false;
      }
    };
    if (!groupAlive()) return;
    process.kill(-group, 'SIGTERM');
    const deadline = Date.now() + 15_000;
    while (groupAlive() && Date.now() < deadline) await sleep(100);
    if (!groupAlive()) return;
    unstoppable.push(child.spawnargs.at(-1) ?? String(group));
    process.kill(-group, 'SIGKILL');
  }

  async function stopServices(): Promise<void> {
    const running = [...services.values()];
    services.clear();
    for (const child of running.reverse()) await stop(child);
  }

  /**
   * A document written for integrators of a running deployment starts no service of its own: the runner
   * starts one (`npm start`, as the README does) with a demo company, and hands its key to the examples in
   * INTEGRATION_API_KEY, where the document tells the reader to keep theirs.
   */
  async function ambientService(document: string): Promise<NodeJS.ProcessEnv> {
    const service: ShellExample = { file: document, line: 0, kind: 'service', reason: 'http://127.0.0.1:8080/readyz', script: 'npm start' };
    await startService(service);
    const seed: ShellExample = { ...service, kind: 'run', script: 'npm run -s admin -- seed demo --vacancies 5 --candidates 20 --out var/ambient-demo.json' };
    const seeded = await run(seed);
    expect(seeded.status, seeded.output).to.equal(0);
    const key = execFileSync(process.execPath, ['-p', 'require("./var/ambient-demo.json").key'], { cwd: workspace, encoding: 'utf8' }).trim();
    return { INTEGRATION_API_KEY: key };
  }

  for (const document of DOCUMENTS) {
    const examples = shellExamplesOf(join(REPO_ROOT, document));
    if (examples.every((example) => example.kind === 'not-run')) continue;
    it(`${document}: every shell example runs against the service it describes (${examples.length} examples)`, async () => {
      const startsItsOwn = examples.some((example) => example.kind === 'service');
      const extraEnv = startsItsOwn ? {} : await ambientService(document);
      for (const example of examples) {
        if (example.kind === 'not-run') continue;
        if (example.kind === 'service') {
          await startService(example);
          continue;
        }
        const result = await run(example, extraEnv);
        expect(result.status, `${document}:${example.line} exited ${result.status}:\n${example.script}\n--- output (its end) ---\n${result.output.slice(-3000)}`).to.equal(0);
      }
      await stopServices();
      expect(unstoppable.splice(0), 'service examples still running 15 s after SIGTERM to their process group').to.deep.equal([]);
      expect(secretFilesReadableByOthers(join(workspace, 'var')), 'files the examples wrote with a live key or token in them').to.deep.equal([]);
    });
  }

  it('finds the examples of every document, and a reason for each one not run', () => {
    const all = DOCUMENTS.flatMap((document) => shellExamplesOf(join(REPO_ROOT, document)));
    expect(all.filter((example) => example.kind === 'run').length).to.be.at.least(4);
    for (const example of all.filter((e) => e.kind === 'not-run')) expect(example.reason, `${example.file}:${example.line}`).to.be.a('string');
  });
});
