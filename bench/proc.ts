import { readdirSync, readFileSync } from 'node:fs';

/* What Linux's /proc says of a process and of the machine: CPU time and resident memory, read in one place. */

/** A process as /proc/<pid>/stat shows it (Linux): its command name, its parent, and its CPU time so far. */
export interface ProcessStat {
  readonly pid: number;
  readonly comm: string;
  readonly ppid: number;
  /** utime + stime, all its threads, in ms. */
  readonly cpuMs: number;
}

/**
 * A process's CPU time so far (user and system, all its threads), or one thread's, in ms: utime and stime of
 * /proc/<pid>/stat, in clock ticks of 1/100 s (Linux). Throws when the process is gone.
 */
export function processCpuMs(pid: number, thread?: number): number {
  return statOf(pid, readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8')).cpuMs;
}

/** Every process /proc lists now; one that ends between the listing and its read is passed over. */
export function processStats(): ProcessStat[] {
  const stats: ProcessStat[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      stats.push(statOf(Number(entry), readFileSync(`/proc/${entry}/stat`, 'utf8')));
    } catch {
      // Gone meanwhile.
    }
  }
  return stats;
}

/** A process's resident memory now (VmRSS) or at its peak (VmHWM), in MiB (/proc/<pid>/status). Throws when it is gone. */
export function processMemoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (match === null) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(match[1]) / 1024;
}

/**
 * The machine's CPU time so far over all its cores, in clock ticks, and how much of it was idle: the first line
 * of /proc/stat, user to steal (guest time is counted in user and nice already); idle and iowait are idle.
 */
export function machineCpuTicks(): { readonly idle: number; readonly total: number } {
  const ticks = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1, 9).map(Number);
  return { idle: (ticks[3] ?? 0) + (ticks[4] ?? 0), total: ticks.reduce((sum, tick) => sum + tick, 0) };
}

/** The command name may hold spaces and parentheses: the fields are counted after its last closing parenthesis. */
function statOf(pid: number, text: string): ProcessStat {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    pid,
    comm: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')),
    ppid: Number(fields[1]),
    cpuMs: (Number(fields[11]) + Number(fields[12])) * 10,
  };
}
