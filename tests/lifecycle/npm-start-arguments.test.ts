import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from './support/npm-start.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `npm start -- ARGS` as a user types it: its exit code and what it printed. */
function npmStartWith(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, failed) => {
    const child = spawn('npm', ['start', '--', ...args], { cwd: REPO_ROOT, env: cleanEnv({ PORT: '0', STORE: 'memory' }), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // Should it serve after all, it must not outlive the test.
    const timer = setTimeout(() => child.kill('SIGTERM'), 60_000);
    child.once('error', failed);
    child.once('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

describe('npm start and its command line (settings are environment variables)', function () {
  this.timeout(120_000);

  it('prints its usage with --help, naming its variables, and exits 0 without starting', async () => {
    const run = await npmStartWith(['--help']);
    expect(run.code).to.equal(0);
    for (const name of ['PORT', 'DATABASE_URL', 'METRICS_PORT', 'MANAGEMENT_PORT', 'SIGTERM']) expect(run.stdout).to.contain(name);
    expect(run.stdout).to.not.match(/"msg":"listening/);
  });

  it('refuses an argument it does not take, which would otherwise be ignored, and exits 1 without starting', async () => {
    const run = await npmStartWith(['--port', '9000']);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain('integration-api: cannot start: npm start takes no arguments but --help; its settings are environment variables');
    expect(run.stderr).to.contain('Got "--port" "9000".');
    expect(run.stdout).to.not.match(/listening/);
  });
});
