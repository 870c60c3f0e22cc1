import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IntegrationClient } from '../../../clients/typescript/src/index.js';
import { createPortalApp, type PortalLog } from './portal-app.js';
import { VacancyCatalog } from './vacancy-catalog.js';

export interface PortalConfig {
  /** `{base_url}` of the API deployment, ending in /api. */
  readonly apiBaseUrl: string;
  /** A key with vacancies:read and applications:write; candidates:read is not needed and should not be given. */
  readonly apiKey: string;
  readonly port: number;
  readonly host?: string;
  readonly siteTitle?: string;
  readonly source?: string;
  /** How long the list of vacancies is kept. Default 30 s. */
  readonly cacheTtlMs?: number;
  readonly log?: PortalLog;
}

export interface RunningPortal {
  /** http://host:port */
  readonly url: string;
  close(): Promise<void>;
}

export async function startPortal(config: PortalConfig): Promise<RunningPortal> {
  const client = new IntegrationClient({
    baseUrl: config.apiBaseUrl,
    apiKey: config.apiKey,
    // A visitor is waiting: a few quick retries, then a friendly "try again in a minute" (the form keeps
    // its values and its externalId, so the visitor's own retry is as safe as ours).
    retry: { maxAttempts: 3, baseDelayMs: 300, maxDelayMs: 2_000, maxRetryAfterMs: 3_000 },
    timeoutMs: 10_000,
    userAgent: 'career-portal-example/1.0',
  });
  const log = config.log ?? ((event, details) => process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), event, ...details })}\n`));
  const app = createPortalApp({
    client,
    catalog: new VacancyCatalog(client, { ttlMs: config.cacheTtlMs ?? 30_000 }),
    siteTitle: config.siteTitle ?? 'Карьера у нас',
    source: config.source ?? 'career-portal',
    log,
  });
  const server = createServer(app.callback());
  const host = config.host ?? '127.0.0.1';
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(config.port, host, () => listening());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((closed, failed) => {
        server.close((error) => (error ? failed(error) : closed()));
        server.closeAllConnections();
      }),
  };
}
