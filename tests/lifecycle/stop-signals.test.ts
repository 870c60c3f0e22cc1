import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * takeStopSignals in a process of its own (its listeners stay installed for good): `script` runs with
 * `signals` taken, real signals sent to the process itself, and prints what it saw.
 */
async function inProcess(script: string): Promise<string> {
  const program = `
    import { takeStopSignals } from './infrastructure/stop-signals.ts';
    const signals = takeStopSignals();
    const wait = (ms) => new Promise((done) => setTimeout(done, ms));
    ${script}
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], { cwd: REPO_ROOT, timeout: 30_000 });
  return stdout.trim();
}

describe('takeStopSignals (the service\'s and the feed\'s SIGTERM and SIGINT)', function () {
  this.timeout(60_000);

  it('runs the stop once the process has started, for a signal during the start, saying so', async () => {
    const seen = await inProcess(`
      process.kill(process.pid, 'SIGTERM');
      await wait(200);
      signals.whenStopped((signal, duringStart) => console.log(signal, duringStart));
    `);
    expect(seen).to.equal('SIGTERM true');
  });

  it('runs the stop at the signal once started, once, whatever repeats follow (Ctrl-C comes twice under npm)', async () => {
    const seen = await inProcess(`
      signals.whenStopped((signal, duringStart) => console.log(signal, duringStart));
      process.kill(process.pid, 'SIGINT');
      await wait(200);
      process.kill(process.pid, 'SIGINT');
      process.kill(process.pid, 'SIGTERM');
      await wait(200);
      console.log('still running');
    `);
    expect(seen.split('\n')).to.deep.equal(['SIGINT false', 'still running']);
  });
});
