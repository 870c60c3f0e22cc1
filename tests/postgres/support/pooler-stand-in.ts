import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/** What PgBouncer accepts at its defaults, besides user and database (see ../shared/STACK.md, "Connection pooler"). */
export const POOLER_STARTUP_PARAMETERS = ['user', 'database', 'client_encoding', 'DateStyle', 'TimeZone', 'standard_conforming_strings', 'application_name'];

const PROTOCOL_3 = 196_608;
const SSL_REQUEST = 80_877_103;
const GSS_REQUEST = 80_877_104;
const CANCEL_REQUEST = 80_877_102;

/**
 * A relay in front of PostgreSQL that does to a client what a transaction pooler does, without pooling:
 * it records each connection's startup parameters and drops those PgBouncer would refuse (as
 * `ignore_startup_parameters` would, so that settings sent that way silently do not apply), and when a
 * client leaves (a Terminate, a closed socket) it keeps the server session open if that session is idle,
 * as a pooler keeps its server connection, and closes it if it is inside a transaction. Whatever a client
 * left on its session (a session advisory lock, say) thus stays on the server, as behind PgBouncer.
 */
export class PoolerStandIn {
  /** The startup parameters of every connection, as the client sent them. */
  readonly startups: Record<string, string>[] = [];
  /** The SQL of every simple query and every statement parsed, in order. */
  readonly statements: string[] = [];
  /** Names of the prepared statements clients created (unnamed ones are not listed). */
  readonly namedStatements: string[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<PoolerStandIn> {
    let relay: PoolerStandIn | undefined;
    const server = createServer((client) => relay?.serve(client, target));
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    relay = new PoolerStandIn(server, (server.address() as AddressInfo).port);
    return relay;
  }

  /** The same URL with this relay's host and port. */
  urlOf(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  /** Parameter names sent that PgBouncer would have refused. */
  refusedParameters(): string[] {
    return [...new Set(this.startups.flatMap((params) => Object.keys(params).filter((name) => !POOLER_STARTUP_PARAMETERS.includes(name))))];
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((done) => this.server.close(() => done()));
  }

  /** Query ('Q': the SQL) and Parse ('P': a statement name, then the SQL). */
  private inspect(message: Buffer): void {
    const strings = message.subarray(5).toString('utf8').split('\0');
    if (message[0] === 0x51) this.statements.push(strings[0] ?? '');
    if (message[0] === 0x50) {
      if ((strings[0] ?? '') !== '') this.namedStatements.push(strings[0] as string);
      this.statements.push(strings[1] ?? '');
    }
  }

  private track(socket: Socket): Socket {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    return socket;
  }

  private serve(client: Socket, target: { host: string; port: number }): void {
    this.track(client);
    let pending = Buffer.alloc(0);
    let server: Socket | null = null;
    // I: idle, T/E: inside a transaction block, as the server's last ReadyForQuery said.
    let serverStatus = 'I';
    let clientGone = false;
    const leave = () => {
      if (clientGone) return;
      clientGone = true;
      client.destroy();
      if (server !== null && serverStatus !== 'I') server.destroy();
    };
    client.on('close', leave);
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      if (server === null) {
        if (pending.length < 8 || pending.length < pending.readInt32BE(0)) return;
        const length = pending.readInt32BE(0);
        const code = pending.readInt32BE(4);
        const first = pending.subarray(0, length);
        pending = pending.subarray(length);
        if (code === SSL_REQUEST || code === GSS_REQUEST) return void client.write('N');
        server = this.track(connect(target.port, target.host));
        if (code === CANCEL_REQUEST) return void server.end(first);
        if (code !== PROTOCOL_3) return leave();
        const params = parseStartup(first);
        this.startups.push(params);
        server.write(startupMessage(Object.fromEntries(Object.entries(params).filter(([name]) => POOLER_STARTUP_PARAMETERS.includes(name)))));
        const replies = new MessageReader((type, message) => {
          if (type === 'Z') serverStatus = String.fromCharCode(message[5] as number);
        });
        server.on('data', (data: Buffer) => {
          replies.push(data);
          if (!clientGone) client.write(data);
        });
        server.on('close', () => client.destroy());
      }
      // Typed messages from here on; a Terminate is the pooler's to keep, not the server's.
      while (pending.length >= 5 && pending.length >= 1 + pending.readInt32BE(1)) {
        const size = 1 + pending.readInt32BE(1);
        const message = pending.subarray(0, size);
        pending = pending.subarray(size);
        if (message[0] === 0x58) return leave();
        this.inspect(message);
        (server as Socket).write(message);
      }
    });
  }
}

function parseStartup(message: Buffer): Record<string, string> {
  const parts = message.subarray(8).toString('utf8').split('\0');
  const params: Record<string, string> = {};
  for (let i = 0; i + 1 < parts.length && parts[i] !== ''; i += 2) params[parts[i] as string] = parts[i + 1] as string;
  return params;
}

function startupMessage(params: Record<string, string>): Buffer {
  const body = Buffer.from(`${Object.entries(params).map(([name, value]) => `${name}\0${value}\0`).join('')}\0`, 'utf8');
  const head = Buffer.alloc(8);
  head.writeInt32BE(8 + body.length, 0);
  head.writeInt32BE(PROTOCOL_3, 4);
  return Buffer.concat([head, body]);
}

/** Splits a stream of typed protocol messages (type byte, int32 length) and hands each one over. */
class MessageReader {
  private buffered = Buffer.alloc(0);

  constructor(private readonly onMessage: (type: string, message: Buffer) => void) {}

  push(chunk: Buffer): void {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    while (this.buffered.length >= 5 && this.buffered.length >= 1 + this.buffered.readInt32BE(1)) {
      const size = 1 + this.buffered.readInt32BE(1);
      this.onMessage(String.fromCharCode(this.buffered[0] as number), this.buffered.subarray(0, size));
      this.buffered = this.buffered.subarray(size);
    }
  }
}
