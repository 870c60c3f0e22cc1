import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const HZ = 100;

interface ProcessTicks {
  readonly role: string;
  readonly ticks: number;
}

/** CPU ticks of every process, each given a role; and the machine's busy and total ticks. */
export interface CpuSnapshot {
  readonly processes: ReadonlyMap<number, ProcessTicks>;
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
    const processes = new Map<number, ProcessTicks>();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const pid = Number(entry);
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ticks = Number(fields[11]) + Number(fields[12]);
        processes.set(pid, { role: roleOf(pid, comm, roles), ticks });
      } catch {
        // Gone meanwhile.
      }
    }
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    const total = cpu.reduce((a, b) => a + b, 0);
    return { processes, busy: total - (cpu[3] ?? 0) - (cpu[4] ?? 0), total };
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
    const then = before.processes.get(pid)?.ticks ?? 0;
    byRole[now.role] = (byRole[now.role] ?? 0) + (now.ticks - then) / HZ;
  }
  for (const role of Object.keys(byRole)) byRole[role] = Math.round((byRole[role] as number) * 100) / 100;
  return { secondsByRole: byRole, machineBusyPercent: Math.round(((after.busy - before.busy) / (after.total - before.total)) * 1000) / 10 };
}
