import { IntegrationClient } from '../../../clients/typescript/src/index.js';
import { listenThenServe, logToStderr, type RunningServer } from '../../shared/listen-then-serve.js';
import { publicOriginOf } from './cross-site.js';
import { createPortalApp, type PortalLog } from './portal-app.js';
import { SubmitLimiter, type SubmitBudget } from './submit-limiter.js';
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
  /**
   * The address visitors open (PORTAL_PUBLIC_URL), whose origin is the only one a form may be posted from
   * when the browser sends no Sec-Fetch-Site. Default: the listening address.
   */
  readonly publicUrl?: string;
  /** Applications per client address and window. Default 20 per 600 s. */
  readonly submitBudget?: SubmitBudget;
  /** Proxies in front of the portal that append to X-Forwarded-For. Default 0: the socket's address is the client. */
  readonly trustProxy?: number;
}

export const DEFAULT_SUBMIT_BUDGET: SubmitBudget = { points: 20, windowS: 600 };

export type RunningPortal = RunningServer;

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
  // Checked before listening: a mistyped PORTAL_PUBLIC_URL stops the start instead of refusing every visitor.
  const configuredOrigin = config.publicUrl === undefined ? undefined : publicOriginOf(config.publicUrl);
  const log = config.log ?? logToStderr;
  return listenThenServe(config.port, config.host ?? '127.0.0.1', (url) =>
    createPortalApp({
      client,
      catalog: new VacancyCatalog(client, { ttlMs: config.cacheTtlMs ?? 30_000 }),
      siteTitle: config.siteTitle ?? 'Карьера у нас',
      source: config.source ?? 'career-portal',
      log,
      publicOrigin: configuredOrigin ?? url,
      submitLimiter: new SubmitLimiter(config.submitBudget ?? DEFAULT_SUBMIT_BUDGET),
      trustProxy: config.trustProxy ?? 0,
    }),
  );
}
