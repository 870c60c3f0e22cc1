import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Where stable ports are drawn from when the system's ephemeral range cannot be read or leaves no room below it. */
const LOWEST = 20_000;

/**
 * A port that nothing listens on now and that the system will not hand out by itself: drawn at random below
 * the ephemeral range (`net.ipv4.ip_local_port_range`), from which both a listen on port 0 and an outgoing
 * connection take theirs. A port from `listen(0)` let go at once may be given to another process before the
 * test binds it again, and a server stopped and started again on its port (a database under an outage test)
 * leaves it free for seconds; in parallel test runs both happened within the range. Here only another draw
 * of this function can meet it, one chance in thousands, and only if both are drawn at the same moment.
 */
export async function stablePort(): Promise<number> {
  const { low, high } = stablePortRange();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await isFree(port)) return port;
  }
  throw new Error(`No free port found in ${low}..${high - 1} after 50 tries`);
}

export interface StablePortRange {
  /** The draw's bounds, [low, high). */
  readonly low: number;
  readonly high: number;
  /** False when the ephemeral range leaves no room below it (or cannot be read): the draw is then inside it. */
  readonly belowEphemeral: boolean;
}

let warned = false;

/** Below the ephemeral range when it leaves at least 1,000 ports there; else a band tests rarely meet, said once. */
export function stablePortRange(): StablePortRange {
  const ephemeralStart = ephemeralRangeStart();
  if (ephemeralStart !== null && ephemeralStart - LOWEST >= 1_000) return { low: LOWEST, high: ephemeralStart, belowEphemeral: true };
  if (!warned) {
    warned = true;
    process.stderr.write(`stablePort: the ephemeral port range (net.ipv4.ip_local_port_range) starts at ${ephemeralStart ?? 'an unknown port'}, leaving no room below it; ports are drawn from ${LOWEST}..29999, where another process may be given one meanwhile\n`);
  }
  return { low: LOWEST, high: 30_000, belowEphemeral: false };
}

function ephemeralRangeStart(): number | null {
  try {
    const [start] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const value = Number(start);
    return Number.isInteger(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', () => answer(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => answer(true)));
  });
}
