import { readFileSync } from 'node:fs';
import { machineCpuTicks, processStats } from './proc.js';

interface ProcessCpu {
  readonly role: string;
  readonly cpuMs: number;
}

/** CPU time of every process, each given a role; and the machine's busy and total ticks. */
export interface CpuSnapshot {
  readonly processes: ReadonlyMap<number, ProcessCpu>;
  readonly busy: number;
  readonly total: number;
}

export interface CpuRoles {
  /** The consumer's process. */
  readonly consumerPid: number;
  /** Backends of this database are PostgreSQL's work for the run. */
  readonly database: string;
  /** Extra processes by pid and role (the API, during the latency run). */
  readonly extra?: ReadonlyMap<number, string>;
}

/**
 * Who used the CPU during a run, from /proc (Linux): the consumer, PostgreSQL's backends of the bench's
 * database, PostgreSQL's other processes (WAL writer, checkpointer, other databases' backends: other people's
 * tests on a shared machine), RabbitMQ, this bench process, and everything else. A process that started
 * during the run counts from zero; one that ended during it is not seen (the consumer's pooled backends live
 * through the run).
 */
export function cpuSnapshot(roles: CpuRoles): CpuSnapshot | null {
  try {
    const processes = new Map<number, ProcessCpu>();
    for (const stat of processStats()) processes.set(stat.pid, { role: roleOf(stat.pid, stat.comm, roles), cpuMs: stat.cpuMs });
    const { idle, total } = machineCpuTicks();
    return { processes, busy: total - idle, total };
  } catch {
    return null;
  }
}

function roleOf(pid: number, comm: string, roles: CpuRoles): string {
  if (pid === roles.consumerPid) return 'consumer';
  if (pid === process.pid) return 'bench process';
  const extra = roles.extra?.get(pid);
  if (extra !== undefined) return extra;
  if (comm === 'beam.smp') return 'rabbitmq';
  if (comm === 'postgres') {
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      // Gone.
    }
    return cmdline.includes(` ${roles.database} `) ? 'postgres: bench database backends' : 'postgres: other processes';
  }
  return 'other processes';
}

export interface CpuUse {
  /** Seconds of CPU by role over the run, and the machine's idle share. */
  readonly secondsByRole: Record<string, number>;
  /** Of both cores over the run, in percent. */
  readonly machineBusyPercent: number;
}

export function cpuUse(before: CpuSnapshot | null, after: CpuSnapshot | null): CpuUse | null {
  if (before === null || after === null || after.total === before.total) return null;
  const byRole: Record<string, number> = {};
  for (const [pid, now] of after.processes) {
    const then = before.processes.get(pid)?.cpuMs ?? 0;
    byRole[now.role] = (byRole[now.role] ?? 0) + (now.cpuMs - then) / 1000;
  }
  for (const role of Object.keys(byRole)) byRole[role] = Math.round((byRole[role] as number) * 100) / 100;
  return { secondsByRole: byRole, machineBusyPercent: Math.round(((after.busy - before.busy) / (after.total - before.total)) * 1000) / 10 };
}
