import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestServer } from '../support/http-test-server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const redocly = path.join(root, 'node_modules/@redocly/cli/bin/cli.js');

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

/** Runs the real linter, with the committed redocly.yaml, on a document written to a temporary file. */
async function lint(document: unknown): Promise<LintReport> {
  const dir = await mkdtemp(path.join(tmpdir(), 'openapi-lint-'));
  try {
    const file = path.join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document, null, 2));
    const run = await promisify(execFile)(process.execPath, [redocly, 'lint', '--config', path.join(root, 'redocly.yaml'), '--format=json', file], {
      cwd: dir,
      // No usage data leaves the machine, and no look-up of newer versions.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((failure: { stdout?: string }) => ({ stdout: failure.stdout ?? '' }));
    return JSON.parse(run.stdout) as LintReport;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const summary = (report: LintReport) => report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);

describe('The OpenAPI document under a real linter (@redocly/cli)', function () {
  this.timeout(60_000);
  let document: any;

  before(async () => {
    const server = await startTestServer();
    try {
      document = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
    } finally {
      await server.close();
    }
  });

  it('has no error and no warning under the committed rules', async () => {
    const report = await lint(document);
    expect(summary(report)).to.deep.equal([]);
    expect(report.totals).to.include({ errors: 0, warnings: 0 });
  });

  it('would report an example that breaks its schema, a missing request id header and an error that is not problem+json', async () => {
    const broken = structuredClone(document);
    const post = broken.paths['/integration/v1/applications'].post;
    post.requestBody.content['application/json'].examples.full.value.candidate.name = 42;
    delete post.responses['201'].headers['X-Request-Id'];
    post.responses['404'].content = { 'text/plain': { schema: { type: 'string' } } };
    const rules = (await lint(broken)).problems.map((p) => p.ruleId);
    expect(rules).to.include.members(['no-invalid-media-type-examples', 'response-contains-header', 'operation-4xx-problem-details-rfc7807']);
  });
});
