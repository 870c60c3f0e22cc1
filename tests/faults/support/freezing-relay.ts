import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of PostgreSQL that can go silent: frozen, it neither forwards nor answers nor
 * closes anything, on the connections it has and on new ones (accepted, then ignored). That is a network
 * partition or a frozen host as a client sees it: no error, no reset, only waiting. Thawed, new
 * connections flow again; the ones that saw the freeze stay dead, as after a real partition.
 */
export class FreezingRelay {
  private readonly sockets = new Set<Socket>();
  private frozen = false;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<FreezingRelay> {
    let relay: FreezingRelay | undefined;
    const server = createServer((client) => relay?.accept(client, target));
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    relay = new FreezingRelay(server, (server.address() as AddressInfo).port);
    return relay;
  }

  freeze(): void {
    this.frozen = true;
    for (const socket of this.sockets) {
      socket.unpipe();
      socket.pause();
    }
  }

  thaw(): void {
    this.frozen = false;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await new Promise<void>((closed) => this.server.close(() => closed()));
  }

  private accept(client: Socket, target: { host: string; port: number }): void {
    this.sockets.add(client);
    client.on('error', () => undefined);
    client.on('close', () => this.sockets.delete(client));
    if (this.frozen) {
      client.pause();
      return;
    }
    const upstream = connect(target.port, target.host);
    this.sockets.add(upstream);
    for (const [from, to] of [[client, upstream], [upstream, client]] as const) {
      from.on('error', () => to.destroy());
      from.on('close', () => {
        this.sockets.delete(from);
        if (!this.frozen) to.destroy();
      });
      from.pipe(to);
    }
  }
}

/** The URL with its host and port replaced, to reach the database through a relay. */
export function throughPort(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return parsed.toString();
}
