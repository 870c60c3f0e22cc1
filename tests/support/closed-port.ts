import { createServer, type AddressInfo } from 'node:net';

/** A port that nothing listens on: taken from the system, then let go. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((closed) => server.close(() => closed()));
  return port;
}
