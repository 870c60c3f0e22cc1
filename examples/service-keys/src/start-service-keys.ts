import { publicOriginOf } from '../../career-portal/src/cross-site.js';
import { listenThenServe, logToStderr, type RunningServer } from '../../shared/listen-then-serve.js';
import type { PageLog } from './api-failure.js';
import { FormTokens } from './form-token.js';
import type { Language } from './i18n/dictionary.js';
import type { IdentitySource } from './identity.js';
import { ManagementClient } from './management-client.js';
import { createServiceKeysApp } from './service-keys-app.js';

export interface ServiceKeysConfig {
  /** The management listener of the API: http://127.0.0.1:8081. */
  readonly managementUrl: string;
  /** A platform token (pt_...). It stays in this process: sent to the API, never to a browser. */
  readonly platformToken: string;
  readonly identity: IdentitySource;
  readonly port: number;
  readonly host?: string;
  /** The address people open (SERVICE_KEYS_PUBLIC_URL); default: the listening address. */
  readonly publicUrl?: string;
  /** When neither ?lang= nor Accept-Language picks one. Default ru. */
  readonly defaultLanguage?: Language;
  /** IANA zone of the times shown. Default UTC. */
  readonly timeZone?: string;
  /** The form tokens' HMAC key; default: random for this process (forms open across a restart then expire). */
  readonly formSecret?: Buffer;
  /** Origins that may show the page in a frame. Default: none. */
  readonly frameAncestors?: readonly string[];
  readonly log?: PageLog;
  /** For tests: the clock of the page (relative times, expiries it sends). */
  readonly now?: () => Date;
}

export type RunningServiceKeys = RunningServer;

export async function startServiceKeys(config: ServiceKeysConfig): Promise<RunningServiceKeys> {
  const configuredOrigin = config.publicUrl === undefined ? undefined : publicOriginOf(config.publicUrl);
  const log: PageLog = config.log ?? logToStderr;
  return listenThenServe(config.port, config.host ?? '127.0.0.1', (url) =>
    createServiceKeysApp({
      client: new ManagementClient({ baseUrl: config.managementUrl, token: config.platformToken }),
      identity: config.identity,
      formTokens: new FormTokens({ secret: config.formSecret ?? FormTokens.randomSecret(), ...(config.now === undefined ? {} : { now: () => config.now!().getTime() }) }),
      publicOrigin: configuredOrigin ?? url,
      defaultLanguage: config.defaultLanguage ?? 'ru',
      timeZone: config.timeZone ?? 'UTC',
      frameAncestors: config.frameAncestors ?? [],
      log,
      ...(config.now === undefined ? {} : { now: config.now }),
    }),
  );
}
