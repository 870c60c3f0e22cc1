import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An example's web server, listening. */
export interface RunningServer {
  /** http://host:port */
  readonly url: string;
  close(): Promise<void>;
}

/** A line of JSON on stderr per event: the examples' log when none is given. */
export function logToStderr(event: string, details: Record<string, unknown>): void {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), event, ...details })}\n`);
}

/**
 * Listens on host and port, then makes the app with the address listened on: port 0 picks one, and the
 * default public origin names it. No request is served before the app is made.
 */
export async function listenThenServe(port: number, host: string, makeApp: (url: string) => { callback(): RequestListener }): Promise<RunningServer> {
  const server = createServer();
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(port, host, () => listening());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  server.on('request', makeApp(url).callback());
  return {
    url,
    close: () =>
      new Promise<void>((closed, failed) => {
        server.close((error) => (error ? failed(error) : closed()));
        server.closeAllConnections();
      }),
  };
}
