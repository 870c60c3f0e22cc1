import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The admin CLI's entry, as `npm run admin` starts it. */
export const ADMIN_ENTRY = path.join(root, 'infrastructure/admin-cli.ts');

export interface AdminRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly env?: Readonly<Record<string, string>>;
  /** Written to the process's standard input, which is then closed. */
  readonly input?: string;
}

/** Runs one admin command as its own process, the way an operator does, and collects what it printed. */
export function runAdmin(args: readonly string[], options: RunOptions = {}): Promise<AdminRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ADMIN_ENTRY, ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMPDIR: process.env.TMPDIR ?? '/tmp', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
    child.stdin.end(options.input ?? '');
  });
}

/** The JSON a successful command printed; fails with what it said otherwise. */
export function jsonOf<T = unknown>(run: AdminRun): T {
  if (run.status !== 0) throw new Error(`the command failed with status ${String(run.status)}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

/** The one error line of a failed command; fails when the command succeeded or said more than one line. */
export function errorOf(run: AdminRun): string {
  if (run.status === 0) throw new Error(`expected a failure, but the command succeeded: ${run.stdout}`);
  const lines = run.stderr.split('\n').filter((line) => line !== '');
  if (lines.length !== 1) throw new Error(`expected one line on stderr, got ${lines.length}: ${run.stderr}`);
  return lines[0] as string;
}
