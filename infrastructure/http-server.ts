import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Container } from 'inversify';
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
   * Requests still running after `drainTimeoutMs` (default: wait for them all) have their connections cut.
   */
  close(options?: { drainTimeoutMs?: number }): Promise<void>;
}

/** Serves the HTTP adapter on the configured address (port 0 picks a free one). */
export async function startHttpServer(container: Container, overrides: { port?: number; host?: string } = {}): Promise<RunningServer> {
  const config = resolve(container, CONFIG);
  const app = createHttpApp(await openHttpDependencies(container));
  const server = createServer(app.callback());
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
    close: (options = {}) =>
      new Promise<void>((resolveClose, reject) => {
        const deadline = options.drainTimeoutMs === undefined ? undefined : setTimeout(() => server.closeAllConnections(), options.drainTimeoutMs);
        server.close((error) => {
          clearTimeout(deadline);
          if (error) reject(error);
          else resolveClose();
        });
        server.closeIdleConnections();
      }),
  };
}
