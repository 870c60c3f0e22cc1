import type { Logger } from 'pino';
import { endLogs } from './logger.js';

/**
 * SIGTERM and SIGINT, taken from the moment this is called (the first line of a process's main module): one
 * that arrives while the process is still starting (an embedded PostgreSQL launching, migrations, a broker
 * connection) stops it as soon as it has started, cleanly, rather than killing it half-way. Repeats are
 * ignored: Ctrl-C reaches the process twice (from the terminal's process group and from npm, which forwards
 * it), and a listener must stay installed so that no repeat falls back to Node's default (exit at once).
 */
export function takeStopSignals(): { whenStopped(stop: (signal: string, duringStart: boolean) => void): void } {
  let requested: string | null = null;
  let onStop: ((signal: string, duringStart: boolean) => void) | null = null;
  const request = (signal: string) => {
    if (requested !== null) return;
    requested = signal;
    onStop?.(signal, false);
  };
  process.on('SIGINT', () => request('SIGINT'));
  process.on('SIGTERM', () => request('SIGTERM'));
  return {
    /**
     * Sets what stopping does, once the process has started; runs it at once for a signal that came earlier
     * (`duringStart`: the process was never ready, so nothing needs the time a running one gives a balancer).
     */
    whenStopped(stop) {
      onStop = stop;
      if (requested !== null) stop(requested, true);
    },
  };
}

/**
 * The end of a process that was asked to stop: `work` closes what it holds, in its order; then "stopped" is
 * logged, the log stream is ended (logger.ts says why) and the process exits 0, or 1 if the work failed.
 */
export async function stopThenExit(logger: Logger, work: () => Promise<void>): Promise<never> {
  try {
    await work();
    logger.info('stopped');
    await endLogs(logger);
    process.exit(0);
  } catch (error) {
    logger.error({ err: error }, 'could not stop cleanly');
    await endLogs(logger);
    process.exit(1);
  }
}
