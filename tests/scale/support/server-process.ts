import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Settings of the test run's own environment that must not leak into a spawned server. */
export const SERVICE_ENV = [
  'PORT', 'HOST', 'STORE', 'DATABASE_URL', 'KEYS_DATABASE_URL', 'DATA_DIR', 'EMBEDDED_PG_PORT', 'REGION', 'PUBLIC_BASE_URL',
  'RATE_LIMIT_POINTS', 'RATE_LIMIT_WINDOW_S', 'RATE_LIMIT_STORE', 'REDIS_URL', 'KEY_CACHE_TTL_MS', 'LOG_LEVEL', 'METRICS', 'METRICS_HOST', 'METRICS_PORT', 'TRUST_PROXY',
  'MANAGEMENT_HOST', 'MANAGEMENT_PORT', 'SHUTDOWN_DELAY_MS',
  'DB_POOL_MAX', 'DB_STATEMENT_TIMEOUT_MS', 'DB_CONNECT_TIMEOUT_MS', 'DB_ACQUIRE_TIMEOUT_MS', 'DB_IDLE_IN_TRANSACTION_TIMEOUT_MS',
];

/** The JSON log lines among what a process printed (npm's and the build's plain lines are passed over). */
export function jsonLogLines(output: string): Record<string, unknown>[] {
  return output.split('\n').flatMap((line) => {
    try {
      return line.startsWith('{') ? [JSON.parse(line) as Record<string, unknown>] : [];
    } catch {
      return [];
    }
  });
}

export interface ServerProcess {
  readonly child: ChildProcess;
  /** http://127.0.0.1:port */
  readonly origin: string;
  readonly port: number;
  /** `{base_url}/integration/v1` */
  readonly apiUrl: string;
  /** http://host:port/internal/v1 of the management listener, as its listening line names it; null when it is off. */
  readonly managementUrl: string | null;
  /** Resolves with the exit code (or the signal that ended it). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Its JSON log lines so far. */
  logs(): Record<string, unknown>[];
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * `node --import tsx infrastructure/main.ts`, the service as `npm start` runs it, on a port of its
 * choosing (PORT=0; the address is read from its "listening" log line). The management listener is off
 * (MANAGEMENT_PORT=0) unless `env` names a port: its default, 8081, would be one port for every process.
 */
export async function startServerProcess(env: Record<string, string>, startTimeoutMs = 45_000): Promise<ServerProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of SERVICE_ENV) delete childEnv[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'infrastructure/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...childEnv, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', MANAGEMENT_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const logs = () => jsonLogLines(output);

  const listeningLine = await new Promise<Record<string, unknown>>((listening, failed) => {
    const timer = setTimeout(() => failed(new Error(`the server did not start within ${startTimeoutMs} ms:\n${output}`)), startTimeoutMs);
    const check = () => {
      const line = logs().find((l) => l.msg === 'integration API listening');
      if (line === undefined) return;
      clearTimeout(timer);
      child.stdout?.off('data', check);
      listening(line);
    };
    child.stdout?.on('data', check);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      failed(new Error(`the server exited (${code ?? signal}) before it listened:\n${output}`));
    });
  });

  const origin = String(listeningLine.origin);
  return {
    child,
    origin,
    managementUrl: typeof listeningLine.management === 'string' ? listeningLine.management : null,
    port: Number(new URL(origin).port),
    apiUrl: `${origin}/api/integration/v1`,
    exited,
    output: () => output,
    logs,
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
