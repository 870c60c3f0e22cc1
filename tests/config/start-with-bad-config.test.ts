import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runAdmin } from '../cli/support/run-admin.js';
import { cleanEnv } from '../lifecycle/support/npm-start.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PASSWORD = 'Correct-Horse-9-Battery';

/** `npm start`, as a user runs it, to its exit; everything it (and npm) printed. */
function startService(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((done, failed) => {
    const child = spawn('npm', ['start'], { cwd: REPO_ROOT, env: cleanEnv({ PORT: '0', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000); // a stale dist/ is built first
    child.once('error', failed);
    child.once('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

const BAD = {
  // The port is out of range, so this is not even a URL; the password must not be printed all the same.
  DATABASE_URL: `postgresql://integration:${PASSWORD}@db.internal:70000/integration`,
  REDIS_URL: `redis://:${PASSWORD}@`,
  PUBLIC_BASE_URL: 'notaurl',
};

describe('a start with bad settings', function () {
  this.timeout(90_000);

  it('stops the service before it listens, naming every bad variable and never printing a password', async () => {
    const { code, output } = await startService(BAD);
    expect(code, output).to.equal(1);
    expect(output).to.contain('integration-api: cannot start: 3 settings are invalid:');
    expect(output).to.match(/DATABASE_URL must be a PostgreSQL URL[^\n]*got "postgresql:\/\/integration:\*\*\*@db\.internal:70000\/integration"/);
    expect(output).to.match(/REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(output).to.match(/PUBLIC_BASE_URL must be an http:\/\/ or https:\/\/ URL[^\n]*got "notaurl"/);
    expect(output).not.to.contain(PASSWORD);
    expect(output).not.to.contain('integration API listening');
  });

  it('stops every admin command the same way, on one line', async () => {
    const run = await runAdmin(['company', 'create', '--name', 'Acme'], { env: BAD });
    expect(run.status).to.equal(1);
    const lines = run.stderr.split('\n').filter((line) => line !== '');
    expect(lines, run.stderr).to.have.length(1);
    expect(lines[0]).to.match(/^error: 3 settings are invalid: DATABASE_URL must be .* PUBLIC_BASE_URL must be .* REDIS_URL must be /);
    expect(run.stderr + run.stdout).not.to.contain(PASSWORD);
  });
});
