import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { stablePort, stablePortRange } from '../support/stable-port.js';

/** The start of the system's ephemeral range, or null where it cannot be read (no /proc). */
function ephemeralStart(): number | null {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return null;
  }
}

function listenOn(port: number): Promise<Server> {
  return new Promise((listening, failed) => {
    const server = createServer();
    server.once('error', failed);
    server.listen(port, '127.0.0.1', () => listening(server));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((closed) => server.close(() => closed()));
}

describe('stablePort (the tests\' ports for servers started later or started again)', () => {
  it('draws ports below the system\'s ephemeral range, which listen(0) and outgoing connections take from', async () => {
    const range = stablePortRange();
    const start = ephemeralStart();
    // Where the range leaves room below it (Linux's default starts at 32768), the draw is there.
    expect(range.belowEphemeral).to.equal(start !== null && start - 20_000 >= 1_000);
    if (range.belowEphemeral) expect(range.high).to.equal(start);
    const ports = await Promise.all(Array.from({ length: 40 }, () => stablePort()));
    for (const port of ports) {
      expect(port).to.be.at.least(range.low);
      expect(port).to.be.below(range.high);
    }
    expect(new Set(ports).size).to.be.above(30); // drawn at random, not handed out in order
  });

  it('gives a port a server can listen on, and passes over one that is taken', async () => {
    const taken = await listenOn(await stablePort());
    const takenPort = (taken.address() as { port: number }).port;
    const random = Math.random;
    const { low, high } = stablePortRange();
    const draws = [takenPort, takenPort + 1].map((port) => (port - low + 0.5) / (high - low));
    Math.random = () => draws.shift() ?? random();
    try {
      const port = await stablePort();
      expect(port).to.not.equal(takenPort);
      expect(draws).to.have.length(0); // the taken port was drawn first, and passed over
      await close(await listenOn(port));
    } finally {
      Math.random = random;
      await close(taken);
    }
  });
});
