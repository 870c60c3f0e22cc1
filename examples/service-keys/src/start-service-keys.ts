import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { publicOriginOf } from '../../career-portal/src/cross-site.js';
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

export interface RunningServiceKeys {
  /** http://host:port */
  readonly url: string;
  close(): Promise<void>;
}

export async function startServiceKeys(config: ServiceKeysConfig): Promise<RunningServiceKeys> {
  const configuredOrigin = config.publicUrl === undefined ? undefined : publicOriginOf(config.publicUrl);
  const log: PageLog = config.log ?? ((event, details) => process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), event, ...details })}\n`));
  // The app is made once the port is known (port 0 picks one): the default public origin names it.
  const server = createServer();
  const host = config.host ?? '127.0.0.1';
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(config.port, host, () => listening());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const app = createServiceKeysApp({
    client: new ManagementClient({ baseUrl: config.managementUrl, token: config.platformToken }),
    identity: config.identity,
    formTokens: new FormTokens({ secret: config.formSecret ?? FormTokens.randomSecret(), ...(config.now === undefined ? {} : { now: () => config.now!().getTime() }) }),
    publicOrigin: configuredOrigin ?? url,
    defaultLanguage: config.defaultLanguage ?? 'ru',
    timeZone: config.timeZone ?? 'UTC',
    frameAncestors: config.frameAncestors ?? [],
    log,
    ...(config.now === undefined ? {} : { now: config.now }),
  });
  server.on('request', app.callback());
  return {
    url,
    close: () =>
      new Promise<void>((closed, failed) => {
        server.close((error) => (error ? failed(error) : closed()));
        server.closeAllConnections();
      }),
  };
}
