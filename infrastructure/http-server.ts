import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Container } from 'inversify';
import { answerClientErrorsWithProblems } from '../adapters/http/client-errors.js';
import { createHttpApp } from '../adapters/http/create-http-app.js';
import { CONFIG } from './container/infrastructure.tokens.js';
import { resolve } from './container/typed-binding.js';
import { openHttpDependencies } from './http-dependencies.js';

export interface RunningServer {
  readonly server: Server;
  /** http://host:port, without a path. */
  readonly origin: string;
  /**
   * Stops accepting connections and waits for requests in flight, closing idle keep-alive connections.
   * A request counts as in flight until its handler has finished, also when its client has hung up
   * meanwhile: its work (an application being stored) still needs the databases, which the caller
   * closes next. Requests still running after `drainTimeoutMs` (default: wait for them all) have
   * their connections cut, and are waited for no longer.
   */
  close(options?: { drainTimeoutMs?: number }): Promise<void>;
}

/** Serves the HTTP adapter on the configured address (port 0 picks a free one). */
export async function startHttpServer(container: Container, overrides: { port?: number; host?: string } = {}): Promise<RunningServer> {
  const config = resolve(container, CONFIG);
  const app = createHttpApp(await openHttpDependencies(container));
  const handlers = new HandlersInFlight(app.callback());
  const server = createServer(handlers.handle);
  answerClientErrorsWithProblems(server);
  // Bounded waits for slow clients, so that a stuck peer cannot hold a connection forever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(overrides.port ?? config.port, overrides.host ?? config.host, () => resolveListen());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    origin: `http://${host}:${address.port}`,
    close: async (options = {}) => {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((passed) => {
        if (options.drainTimeoutMs !== undefined) timer = setTimeout(passed, options.drainTimeoutMs);
      });
      const closed = new Promise<void>((resolveClose, reject) => {
        server.close((error) => (error ? reject(error) : resolveClose()));
        server.closeIdleConnections();
      });
      const drained = Promise.all([closed, handlers.finished()]).then(() => 'drained' as const);
      const outcome = await Promise.race([drained, deadline.then(() => 'deadline' as const)]).finally(() => clearTimeout(timer));
      if (outcome === 'deadline') {
        server.closeAllConnections();
        await closed;
      }
    },
  };
}

/** Counts the Koa handlers that have not finished, whether or not their clients are still there. */
class HandlersInFlight {
  private running = 0;
  private waiters: (() => void)[] = [];

  constructor(private readonly handler: (request: IncomingMessage, response: ServerResponse) => Promise<void>) {}

  readonly handle = (request: IncomingMessage, response: ServerResponse): void => {
    this.running++;
    // Koa's handler answers errors itself and never rejects; the catch only keeps the count right.
    this.handler(request, response)
      .catch(() => undefined)
      .finally(() => {
        this.running--;
        if (this.running === 0) for (const wake of this.waiters.splice(0)) wake();
      });
  };

  finished(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((wake) => this.waiters.push(wake));
  }
}
