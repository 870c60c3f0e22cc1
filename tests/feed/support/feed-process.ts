import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { jsonLogLines, SERVICE_ENV } from '../../scale/support/server-process.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Settings of the feed that must not leak from the test run's environment into a consumer. */
const FEED_ENV = ['FEED_URL', 'FEED_QUEUE', 'FEED_PREFETCH', 'FEED_MAX_HELD_BYTES', 'FEED_TOMBSTONE_DAYS', 'FEED_MAX_ATTEMPTS', 'FEED_RETRY_DELAYS_MS'];

export interface FeedProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
  logs(): Record<string, unknown>[];
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`; resolves with how it ended. */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL: no drain, no acks of what is in flight. */
  kill(): Promise<void>;
}

/** `node --import tsx infrastructure/feed-main.ts`, the consumer as `npm run feed` runs it; resolves once it consumes. */
export async function startFeedProcess(env: Record<string, string>, startTimeoutMs = 45_000): Promise<FeedProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [...SERVICE_ENV, ...FEED_ENV]) delete childEnv[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'infrastructure/feed-main.ts'], {
    cwd: REPO_ROOT,
    env: { ...childEnv, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const logs = () => jsonLogLines(output);
  await new Promise<void>((started, failed) => {
    const timer = setTimeout(() => failed(new Error(`the feed consumer did not start within ${startTimeoutMs} ms:\n${output}`)), startTimeoutMs);
    const check = () => {
      if (!logs().some((line) => line.msg === 'feed consumer started')) return;
      clearTimeout(timer);
      child.stdout?.off('data', check);
      started();
    };
    child.stdout?.on('data', check);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      failed(new Error(`the feed consumer exited (${code ?? signal}) before it started:\n${output}`));
    });
  });
  return {
    child,
    exited,
    output: () => output,
    logs,
    async stop(graceMs = 20_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        const ended = await exited;
        clearTimeout(timer);
        return ended;
      }
      return exited;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
