import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/**
 * A TCP relay in front of a store, that a test can cut (every connection dropped, new ones reset at
 * once) and restore: an outage of the store as its clients see it, without stopping a server that
 * other tests share.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private down = false;

  private constructor(
    private readonly server: ReturnType<typeof createServer>,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    let proxy: TcpProxy | undefined;
    const server = createServer((client) => proxy?.relay(client, target));
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    proxy = new TcpProxy(server, (server.address() as AddressInfo).port);
    return proxy;
  }

  cut(): void {
    this.down = true;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  restore(): void {
    this.down = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((closed) => this.server.close(() => closed()));
  }

  private relay(client: Socket, target: { host: string; port: number }): void {
    if (this.down) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    for (const [from, to] of [[client, upstream], [upstream, client]] as const) {
      this.sockets.add(from);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        this.sockets.delete(from);
        to.destroy();
      });
      from.pipe(to);
    }
  }
}
