import { readFileSync } from 'node:fs';

/**
 * A process's CPU time so far (user and system, all its threads), or one thread's, in ms: utime and stime of
 * /proc/<pid>/stat, in clock ticks of 1/100 s (Linux). The command name may hold spaces: the fields are counted
 * after its closing parenthesis.
 */
export function processCpuMs(pid: number, thread?: number): number {
  const text = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
