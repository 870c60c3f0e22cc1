import { mkdir, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { join } from 'node:path';

/** One row of the table: what was measured, for us and for the ceilings, and how we stand. */
export interface ScenarioResult {
  readonly scenario: string;
  /** The figure that `ours`, `ceiling` and `ratio` speak of. */
  readonly metric: string;
  readonly ours: number | null;
  /** The node:http + pg ceiling (or, where noted, another reference). */
  readonly ceiling: number | null;
  readonly ratio: number | null;
  /** e.g. ">= 0.75" (of the ratio) or "<= 300" (of ours). */
  readonly target: string | null;
  readonly met: boolean | null;
  /** The bare node:http ceiling, where it applies. */
  readonly bare?: number | null;
  /** p50 and p99 latency in ms, for the throughput scenarios. */
  readonly oursLatencyMs?: readonly [number, number];
  readonly ceilingLatencyMs?: readonly [number, number] | null;
  /** Every figure behind the row: latencies, bytes, errors. */
  readonly details: Record<string, unknown>;
}

export interface MachineInfo {
  readonly nproc: number;
  readonly cpu: string;
  readonly memoryGb: number;
  readonly node: string;
}

export function machineInfo(): MachineInfo {
  let cpu = 'unknown';
  try {
    cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpu;
  } catch {
    // Not Linux.
  }
  return { nproc: availableParallelism(), cpu, memoryGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10, node: process.version };
}

/** A ratio judged against "<= x" or ">= x"; a target on ours when `onOurs`. */
export function judge(value: number | null, target: string | null): boolean | null {
  if (value === null || target === null) return null;
  const [op, bound] = target.split(' ');
  return op === '>=' ? value >= Number(bound) : value <= Number(bound);
}

function cell(value: number | null | undefined): string {
  if (value === null || value === undefined) return '-';
  return Math.abs(value) >= 100 ? String(Math.round(value)) : String(Math.round(value * 100) / 100);
}

export function formatTable(results: readonly ScenarioResult[]): string {
  const header = ['scenario', 'metric', 'ours', 'ceiling', 'ratio', 'target', 'met', 'bare node:http', 'ours p50/p99 ms', 'ceiling p50/p99 ms'];
  const latency = (pair: readonly [number, number] | null | undefined) => (pair ? `${cell(pair[0])}/${cell(pair[1])}` : '-');
  const rows = results.map((r) => [
    r.scenario, r.metric, cell(r.ours), cell(r.ceiling), cell(r.ratio), r.target ?? '-', r.met === null ? '-' : r.met ? 'yes' : 'NO', cell(r.bare),
    latency(r.oursLatencyMs), latency(r.ceilingLatencyMs),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => (i >= 2 ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i >= 2 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

export async function writeResults(dir: string, document: Record<string, unknown>): Promise<string> {
  await mkdir(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/:/g, '-').replace(/\..+$/, '');
  const path = join(dir, `${stamp}.json`);
  await writeFile(path, `${JSON.stringify(document, null, 2)}\n`);
  return path;
}
