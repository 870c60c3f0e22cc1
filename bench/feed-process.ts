import { spawn, type ChildProcess } from 'node:child_process';
import type { BenchQueue } from './feed-broker.js';

/** A feed consumer (the service's or the ceiling) in a process of its own. */
export interface ConsumerProcess {
  readonly name: string;
  readonly pid: number;
  /** SIGTERM (the consumer finishes what it holds and exits 0), then the exit. */
  stop(): Promise<number | null>;
}

export interface ConsumerSpec {
  readonly name: string;
  /** Run as `node [nodeArgs] <script>`, through tsx when it is TypeScript. */
  readonly script: string;
  readonly env: Record<string, string>;
  readonly nodeArgs?: readonly string[];
}

/**
 * Starts a consumer and resolves once the broker lists a consumer on the bench's queue: from then on it takes
 * messages. Its output is passed on to stderr, each line prefixed with its name.
 */
export async function startConsumer(spec: ConsumerSpec, queue: BenchQueue): Promise<ConsumerProcess> {
  const loader = spec.script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...(spec.nodeArgs ?? []), ...loader, spec.script], {
    env: { ...process.env, ...spec.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const relay = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output.push(text);
    for (const line of text.split('\n')) if (line.trim() !== '') process.stderr.write(`[${spec.name}] ${line}\n`);
  };
  child.stdout?.on('data', relay);
  child.stderr?.on('data', relay);
  let exited = false;
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => ((exited = true), resolve(code))));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited) throw new Error(`${spec.name} exited before it consumed:\n${output.join('')}`);
    if ((await queue.state()).consumers > 0) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${spec.name} did not consume from ${queue.name} within 120 s:\n${output.join('')}`);
    }
    await new Promise((done) => setTimeout(done, 20));
  }
  return { name: spec.name, pid: child.pid as number, stop: () => stopChild(child, exit) };
}

async function stopChild(child: ChildProcess, exit: Promise<number | null>): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const force = setTimeout(() => child.kill('SIGKILL'), 30_000);
  child.kill('SIGTERM');
  const code = await exit;
  clearTimeout(force);
  return code;
}
