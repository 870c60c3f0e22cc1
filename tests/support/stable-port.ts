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
  const [low, high] = drawRange();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await isFree(port)) return port;
  }
  throw new Error(`No free port found in ${low}..${high - 1} after 50 tries`);
}

/** The draw's bounds, [low, high): below the ephemeral range when it leaves at least 1,000 ports there. */
function drawRange(): [number, number] {
  const ephemeralStart = ephemeralRangeStart();
  if (ephemeralStart !== null && ephemeralStart - LOWEST >= 1_000) return [LOWEST, ephemeralStart];
  // An unusual range, or no /proc: a band that servers and tests rarely use.
  return [LOWEST, 30_000];
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
