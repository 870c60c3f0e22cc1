import { createServer, ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Container } from 'inversify';
import type Koa from 'koa';
import { answerClientErrorsWithProblems } from '../adapters/http/client-errors.js';
import { createHttpApp } from '../adapters/http/create-http-app.js';
import { CONFIG } from './container/infrastructure.tokens.js';
import { resolve } from './container/typed-binding.js';
import { openHttpDependencies } from './http-dependencies.js';

/**
 * Once every request in flight is answered, a connection still open has no request of ours on it: it is
 * idle, or a client is half-way through sending a request it started after the drain began. The latter
 * gets this long to finish (and is then answered with `Connection: close`) before it is cut.
 */
const STRAGGLER_GRACE_MS = 1_000;

export interface RunningServer {
  readonly server: Server;
  /** http://host:port, without a path. */
  readonly origin: string;
  /**
   * Drains: stops accepting connections, answers every later response with `Connection: close` (so each
   * busy keep-alive connection closes right after its answer), closes idle connections at once, and
   * resolves as soon as the last request in flight has been answered and its handler has finished. A
   * handler counts as in flight also when its client has hung up meanwhile: its work (an application being
   * stored) still needs the databases, which the caller closes next. Requests still running after
   * `drainTimeoutMs` (default: wait for them all) have their connections cut, and are waited for no longer.
   */
  close(options?: { drainTimeoutMs?: number }): Promise<void>;
}

/** Serves the HTTP adapter on the configured address (port 0 picks a free one). */
export async function startHttpServer(container: Container, overrides: { port?: number; host?: string } = {}): Promise<RunningServer> {
  const config = resolve(container, CONFIG);
  const app = createHttpApp(await openHttpDependencies(container));
  return serveKoaApp(app, overrides.port ?? config.port, overrides.host ?? config.host);
}

/**
 * A Koa app on its own listener with the public listener's manners: problem documents for what Node's parser
 * refuses, bounded waits for slow clients, and a drain on close. The management API is served the same way.
 */
export async function serveKoaApp(app: Koa, port: number, host: string): Promise<RunningServer> {
  const inFlight = new RequestsInFlight(app.callback());
  const server = createServer({ ServerResponse: inFlight.responseClass }, inFlight.handle);
  answerClientErrorsWithProblems(server);
  // Bounded waits for slow clients, so that a stuck peer cannot hold a connection forever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolveListen());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    origin: `http://${shownHost}:${address.port}`,
    close: (options = {}) => drain(server, inFlight, options.drainTimeoutMs),
  };
}

async function drain(server: Server, inFlight: RequestsInFlight, drainTimeoutMs: number | undefined): Promise<void> {
  inFlight.startDraining();
  const closed = new Promise<void>((resolveClose, reject) => server.close((error) => (error ? reject(error) : resolveClose())));
  server.closeIdleConnections();
  const timers: NodeJS.Timeout[] = [];
  const deadline = new Promise<'deadline'>((passed) => {
    if (drainTimeoutMs !== undefined) timers.push(setTimeout(() => passed('deadline'), drainTimeoutMs));
  });
  const answered = inFlight.finished().then(() => {
    // Connections whose last answer carried `Connection: close` end by themselves once it is flushed.
    server.closeIdleConnections();
    timers.push(setTimeout(() => server.closeAllConnections(), STRAGGLER_GRACE_MS));
    return closed.then(() => 'drained' as const);
  });
  const outcome = await Promise.race([answered, deadline]).finally(() => timers.forEach(clearTimeout));
  if (outcome === 'deadline') {
    server.closeAllConnections();
    await closed;
  }
}

type Headers = OutgoingHttpHeaders | OutgoingHttpHeader[];

/**
 * Counts requests until their handler has finished and their response is done (sent, or its connection
 * gone), and marks every response written after the drain began `Connection: close`.
 */
class RequestsInFlight {
  private running = 0;
  private draining = false;
  private waiters: (() => void)[] = [];
  readonly responseClass: typeof ServerResponse;

  constructor(private readonly handler: (request: IncomingMessage, response: ServerResponse) => Promise<void>) {
    const requests = this;
    // Headers are decided when they are written, after Koa (which clears headers on errors) is done with them.
    // The cast: Node's option is typed generically over the request class; this server uses IncomingMessage.
    this.responseClass = class DrainAwareResponse extends ServerResponse {
      override writeHead(statusCode: number, reasonOrHeaders?: string | Headers, headers?: Headers): this {
        if (requests.draining && !this.headersSent) this.setHeader('Connection', 'close');
        return typeof reasonOrHeaders === 'string' ? super.writeHead(statusCode, reasonOrHeaders, headers) : super.writeHead(statusCode, reasonOrHeaders);
      }
    } as unknown as typeof ServerResponse;
  }

  readonly handle = (request: IncomingMessage, response: ServerResponse): void => {
    this.running += 2;
    response.once('close', () => this.done());
    // Koa's handler answers errors itself and never rejects; the catch only keeps the count right.
    this.handler(request, response)
      .catch(() => undefined)
      .finally(() => this.done());
  };

  startDraining(): void {
    this.draining = true;
  }

  finished(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((wake) => this.waiters.push(wake));
  }

  private done(): void {
    this.running--;
    if (this.running === 0) for (const wake of this.waiters.splice(0)) wake();
  }
}
