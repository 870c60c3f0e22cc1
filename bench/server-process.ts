import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { processMemoryMb } from './proc.js';

/** A server under test, in a process of its own (the load comes from the bench's process). */
export interface ServerProcess {
  readonly name: string;
  readonly pid: number;
  readonly origin: string;
  /** Resident memory now, in MB (VmRSS). */
  rssMb(): number;
  /** Starts watching the peak resident memory afresh (VmHWM is reset where the kernel allows it). */
  resetPeak(): void;
  /** The peak resident memory since start or the last resetPeak, in MB. */
  peakMb(): number;
  stop(): Promise<void>;
}

export interface ServerSpec {
  readonly name: string;
  /** The script, run as `node [nodeArgs] <script>`, through tsx when it is TypeScript. */
  readonly script: string;
  readonly env: Record<string, string>;
  readonly nodeArgs?: readonly string[];
  /** The path that answers 200 once the server is ready. */
  readonly readyPath: string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function startServer(spec: ServerSpec): Promise<ServerProcess> {
  const port = await freePort();
  const loader = spec.script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...(spec.nodeArgs ?? []), ...loader, spec.script], {
    env: { ...process.env, ...spec.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr.push(chunk.toString('utf8'));
    process.stderr.write(`[${spec.name}] ${chunk.toString('utf8')}`);
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitReady(child, `${origin}${spec.readyPath}`, spec.name, stderr);
  const pid = child.pid as number;
  let sampledPeak = 0;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, statusMb(pid, 'VmRSS'));
  }, 100);
  sampler.unref();
  return {
    name: spec.name,
    pid,
    origin,
    rssMb: () => statusMb(pid, 'VmRSS'),
    resetPeak: () => {
      sampledPeak = statusMb(pid, 'VmRSS');
      try {
        // "5" resets the peak resident set size (VmHWM) of the process (proc(5), clear_refs).
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
      } catch {
        // Not allowed here: the 100 ms samples of VmRSS stand in.
      }
    },
    peakMb: () => Math.max(sampledPeak, statusMb(pid, 'VmHWM'), statusMb(pid, 'VmRSS')),
    stop: () => stopChild(child, sampler),
  };
}

async function waitReady(child: ChildProcess, url: string, name: string, stderr: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  for (;;) {
    if (exited) throw new Error(`${name} exited before it was ready:\n${stderr.join('')}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not answer ${url} within 60 s:\n${stderr.join('')}`);
    }
    await new Promise((done) => setTimeout(done, 200));
  }
}

function stopChild(child: ChildProcess, sampler: NodeJS.Timeout): Promise<void> {
  clearInterval(sampler);
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** 0 once the process is gone. */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    return processMemoryMb(pid, field);
  } catch {
    return 0;
  }
}
