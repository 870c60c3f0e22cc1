import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of PostgreSQL that pauses as PgBouncer's PAUSE does: a client still connects and logs in
 * (the relay passes everything until the server's first ReadyForQuery), but what it sends after that is held,
 * not answered and not refused, until `resume()` forwards it in order. Connections stay open throughout.
 */
export class PausingRelay {
  private readonly links = new Set<{ client: Socket; upstream: Socket; held: Buffer[] }>();
  private paused = false;
  /** Connections a client closed while the relay was paused (it gave up waiting). */
  closedWhilePaused = 0;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<PausingRelay> {
    let relay: PausingRelay | undefined;
    const server = createServer((client) => relay?.accept(client, target));
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    relay = new PausingRelay(server, (server.address() as AddressInfo).port);
    return relay;
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    for (const link of this.links) {
      for (const chunk of link.held.splice(0)) link.upstream.write(chunk);
    }
  }

  /** Connections whose client has sent something that is held now (a question waiting for the resume). */
  get waiting(): number {
    return [...this.links].filter((link) => link.held.length > 0).length;
  }

  /** Client connections open now. */
  get open(): number {
    return this.links.size;
  }

  async close(): Promise<void> {
    for (const { client, upstream } of this.links) {
      client.destroy();
      upstream.destroy();
    }
    this.links.clear();
    await new Promise<void>((closed) => this.server.close(() => closed()));
  }

  private accept(client: Socket, target: { host: string; port: number }): void {
    const upstream = connect(target.port, target.host);
    const link = { client, upstream, held: [] as Buffer[] };
    this.links.add(link);
    let loggedIn = false;
    let pending = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      if (!loggedIn) {
        // Server messages: a type byte and a length that counts itself; the login ends at the first 'Z'.
        pending = Buffer.concat([pending, chunk]);
        while (!loggedIn && pending.length >= 5) {
          const length = pending.readUInt32BE(1);
          if (pending.length < 1 + length) break;
          loggedIn = pending[0] === 0x5a;
          pending = pending.subarray(1 + length);
        }
      }
      client.write(chunk);
    });
    client.on('data', (chunk: Buffer) => {
      if (loggedIn && this.paused) link.held.push(chunk);
      else upstream.write(chunk);
    });
    const end = () => {
      if (!this.links.delete(link)) return;
      if (this.paused) this.closedWhilePaused++;
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  }
}
