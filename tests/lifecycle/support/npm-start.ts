import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { jsonLogLines, SERVICE_ENV } from '../../scale/support/server-process.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface NpmStart {
  /** The `npm` process: the leader of a process group of its own, as a terminal's foreground job is. */
  readonly npm: ChildProcess;
  readonly apiUrl: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
  /** The service's JSON log lines so far. */
  logs(): Record<string, unknown>[];
  /** SIGKILL to the whole group, for clean-up after a failed test. */
  kill(): void;
}

/** The test run's environment without the service's settings; the management listener off unless `env` names a port. */
export function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of SERVICE_ENV) delete childEnv[name];
  return { ...childEnv, HOST: '127.0.0.1', LOG_LEVEL: 'info', MANAGEMENT_PORT: '0', ...env };
}

/** `npm start`, exactly as the README says, on a port of its choosing (read from its "listening" line). */
export async function npmStart(env: Record<string, string>, startTimeoutMs = 90_000): Promise<NpmStart> {
  const npm = spawn('npm', ['start'], { cwd: REPO_ROOT, env: cleanEnv({ PORT: '0', ...env }), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  npm.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  npm.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => npm.once('exit', (code, signal) => done({ code, signal })));
  const logs = () => jsonLogLines(output);
  const kill = () => {
    try {
      if (npm.pid !== undefined) process.kill(-npm.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const apiUrl = await new Promise<string>((listening, failed) => {
    const timer = setTimeout(() => failed(new Error(`npm start did not listen within ${startTimeoutMs} ms:\n${output}`)), startTimeoutMs);
    const check = () => {
      const line = logs().find((l) => l.msg === 'integration API listening');
      if (line === undefined) return;
      clearTimeout(timer);
      npm.stdout?.off('data', check);
      listening(`${String(line.origin)}/api/integration/v1`);
    };
    npm.stdout?.on('data', check);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      failed(new Error(`npm start exited (${code ?? signal}) before it listened:\n${output}`));
    });
  });
  return { npm, apiUrl, exited, output: () => output, logs, kill };
}

/**
 * `npm start -- ARGS` expected to end by itself (a failed start, --help): its exit code, what it printed on each
 * stream, and how long it ran. Should it serve after all, it is stopped after `timeoutMs`.
 */
export function npmStartToExit(
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((done, failed) => {
    const child = spawn('npm', ['start', ...(args.length > 0 ? ['--', ...args] : [])], { cwd: REPO_ROOT, env: cleanEnv({ PORT: '0', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.once('error', failed);
    child.once('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}
