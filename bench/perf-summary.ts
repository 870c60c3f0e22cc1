import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { codeArea } from './code-area.js';

/**
 * `npx tsx bench/perf-summary.ts PERF.DATA [--pid PID] [--from S] [--to S] [--by package|function]`: where the
 * CPU went in a `perf record -a -g` of the whole machine, from `perf script`'s samples (each one a sample of
 * CPU time, unlike `--cpu-prof`, which samples the wall clock and charges a preempted thread's waits to the
 * code it was in). Prints the share of every process; then, for PostgreSQL's processes, the phases of a
 * statement (raw parsing, parse analysis, planning, executor, index and heap writes, TOAST, WAL flush,
 * commit, client I/O) from their call stacks; then, with `--pid`, that Node process by the package (or the
 * function) of the innermost JavaScript frame of each sample, its garbage collection and JIT compilation
 * apart, main thread and helper threads apart. `--from`/`--to`: seconds after the first sample of `--pid`
 * (or of the recording), to keep a steady round and leave out a warm-up.
 *
 * How the bench/README's figures were recorded (the service's JIT frames named by `--perf-basic-prof`):
 *   NODE_OPTIONS=--perf-basic-prof npx tsx bench/post-probe.ts bench_small --only new --rounds 3 --duration 6 &
 *   perf record -a -g -F 499 -o /tmp/perf.data -- sleep 55
 * Needs Linux's perf (Debian: `apt-get install linux-perf`).
 */
interface Options {
  readonly file: string;
  readonly pid: string | undefined;
  readonly from: number;
  readonly to: number;
  readonly by: 'package' | 'function';
}

interface Sample {
  readonly command: string;
  readonly pid: string;
  readonly tid: string;
  readonly time: number;
  /** Innermost frame first: each frame's symbol (a JIT frame: `JS:*name file:line:column`). */
  readonly frames: readonly string[];
}

const POSTGRES_PHASES: readonly (readonly [string, RegExp])[] = [
  ['TOAST compression', /pglz_compress|toast_compress/],
  ['TOAST decompression', /pglz_decompress|detoast/],
  ['WAL flush', /XLogFlush|issue_xlog_fsync/],
  ['commit', /CommitTransaction|AbortTransaction/],
  ['raw parsing', /pg_parse_query|raw_parser/],
  ['parse analysis', /parse_analyze|pg_analyze_and_rewrite|pg_rewrite_query/],
  ['planning', /pg_plan_queries|standard_planner|GetCachedPlan|BuildCachedPlan/],
  ['executor start', /ExecutorStart/],
  ['executor end', /ExecutorEnd/],
  ['index inserts', /ExecInsertIndexTuples|_bt_doinsert/],
  ['heap update', /heap_update/],
  ['heap insert', /heap_insert/],
  ['executor, the rest', /ExecutorRun|PortalRun/],
  ['reading from the client', /pq_getbyte|pq_recvbuf|secure_read|pq_getmessage|ReadCommand/],
  ['writing to the client', /pq_flush|secure_write|internal_flush/],
];
const GC = /Scavenge|MarkCompact|Heap::CollectGarbage|ConcurrentMarking|Sweeper|MinorMC/;
const COMPILE = /v8::internal::compiler::|v8::internal::Compiler|v8::internal::Parser|PreParser|maglev::|baseline::|OptimizingCompileDispatcher/;

const USAGE = 'Usage: npx tsx bench/perf-summary.ts PERF.DATA [--pid PID] [--from S] [--to S] [--by package|function]\n';

function fail(message: string): never {
  process.stderr.write(`perf-summary: ${message}\n${USAGE}`);
  process.exit(2);
}

function parseOptions(argv: readonly string[]): Options {
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { pid: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, by: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    fail((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const [file, ...others] = positionals;
  if (file === undefined) fail('the recording (PERF.DATA) is missing');
  if (others.length > 0) fail(`one recording only (got ${positionals.length} arguments besides the options)`);
  const value = (name: string) => values[name] as string | undefined;
  const seconds = (name: string, fallback: number) => {
    const given = value(name);
    const n = given === undefined ? fallback : Number(given);
    if (Number.isNaN(n) || n < 0) fail(`--${name} takes seconds (a number >= 0), not ${given}`);
    return n;
  };
  const pid = value('pid');
  if (pid !== undefined && !/^\d+$/.test(pid)) fail(`--pid takes a process id, not ${pid}`);
  const by = value('by') ?? 'package';
  if (by !== 'package' && by !== 'function') fail(`--by takes package or function, not ${by}`);
  return { file, pid, from: seconds('from', 0), to: seconds('to', Infinity), by };
}

async function* samplesOf(file: string): AsyncGenerator<Sample> {
  const perf = spawn('perf', ['script', '-i', file, '-F', 'comm,pid,tid,time,ip,sym'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const errors: string[] = [];
  perf.stderr?.on('data', (chunk: Buffer) => errors.push(chunk.toString('utf8')));
  const exit = new Promise<number | null>((resolve) => perf.on('close', resolve));
  perf.on('error', (error) => {
    process.stderr.write(`perf-summary: cannot run perf (${error.message}); install it: apt-get install linux-perf\n`);
    process.exit(1);
  });
  let head: Omit<Sample, 'frames'> | null = null;
  let frames: string[] = [];
  for await (const line of createInterface({ input: perf.stdout as NodeJS.ReadableStream })) {
    if (line.trim() === '') {
      if (head !== null) yield { ...head, frames };
      head = null;
      frames = [];
    } else if (!/^\s/.test(line)) {
      const match = /^(.*?)\s+(\d+)\/(\d+)\s+([\d.]+):/.exec(line.trim());
      head = match === null ? null : { command: match[1] as string, pid: match[2] as string, tid: match[3] as string, time: Number(match[4]) };
    } else if (head !== null) {
      // "address symbol (object)": the address dropped.
      frames.push(line.trim().replace(/^[0-9a-f]+ /, ''));
    }
  }
  if (head !== null) yield { ...head, frames };
  const code = await exit;
  if (code !== 0) {
    process.stderr.write(`perf-summary: perf script exited ${code}:\n${errors.join('')}`);
    process.exit(1);
  }
}

/** Where a JavaScript frame's code lives (`JS:*name file:///…/dist/adapters/…:16:35`): its script, line and column left out. */
function packageOf(frame: string): string {
  const script = (frame.split(' ').at(-1) ?? '').replace(/(:\d+)+$/, '');
  return codeArea(script);
}

function nodeCategory(sample: Sample, by: Options['by']): string {
  const stack = sample.frames.join(' ');
  if (GC.test(stack)) return 'garbage collection';
  if (COMPILE.test(stack)) return 'JIT compilation';
  const js = sample.frames.find((frame) => frame.startsWith('JS:'));
  if (js !== undefined) return by === 'package' ? packageOf(js) : js;
  if (/uv__io_poll|epoll_wait/.test(stack)) return 'event loop poll (epoll)';
  return `native ${(sample.frames[0] ?? '?').slice(0, 60)}`;
}

function postgresPhase(sample: Sample): string {
  const stack = sample.frames.join(' ');
  return POSTGRES_PHASES.find(([, pattern]) => pattern.test(stack))?.[0] ?? 'other';
}

function print(title: string, counts: Map<string, number>, limit = 40): void {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  process.stdout.write(`\n${title}: ${total} samples\n`);
  for (const [key, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, limit)) {
    process.stdout.write(`${((100 * n) / Math.max(total, 1)).toFixed(1).padStart(6)} %  ${String(n).padStart(6)}  ${key}\n`);
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const processes = new Map<string, number>();
  const postgres = new Map<string, number>();
  const node = new Map<string, number>();
  const add = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  let start: number | undefined;
  for await (const sample of samplesOf(options.file)) {
    if (start === undefined && (options.pid === undefined || sample.pid === options.pid)) start = sample.time;
    if (start === undefined) continue;
    const at = sample.time - start;
    if (at < options.from || at >= options.to) continue;
    add(processes, sample.command === 'swapper' ? 'idle' : `${sample.command} ${sample.pid}`);
    if (sample.command === 'postgres') add(postgres, postgresPhase(sample));
    if (sample.pid === options.pid) add(node, `${sample.tid === sample.pid ? 'main  ' : 'helper'} ${nodeCategory(sample, options.by)}`);
  }
  if (processes.size === 0) {
    process.stderr.write('perf-summary: no call-graph samples in the window (record with -g; check --pid, --from and --to)\n');
    process.exit(1);
  }
  print('Processes (every CPU)', processes, 15);
  print("PostgreSQL's processes, by phase", postgres);
  if (options.pid !== undefined) print(`Process ${options.pid}, by ${options.by}`, node, 50);
}

await main();
