import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Container } from 'inversify';
import { createHttpApp } from '../adapters/http/create-http-app.js';
import { CONFIG } from './container/infrastructure.tokens.js';
import { resolve } from './container/typed-binding.js';
import { httpDependencies } from './http-dependencies.js';

export interface RunningServer {
  readonly server: Server;
  /** http://host:port, without a path. */
  readonly origin: string;
  /** Stops accepting connections and waits for requests in flight, closing idle keep-alive connections. */
  close(): Promise<void>;
}

/** Serves the HTTP adapter on the configured address (port 0 picks a free one). */
export async function startHttpServer(container: Container, overrides: { port?: number; host?: string } = {}): Promise<RunningServer> {
  const config = resolve(container, CONFIG);
  const app = createHttpApp(httpDependencies(container));
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
    close: () =>
      new Promise<void>((resolveClose, reject) => {
        server.close((error) => (error ? reject(error) : resolveClose()));
        server.closeIdleConnections();
      }),
  };
}
