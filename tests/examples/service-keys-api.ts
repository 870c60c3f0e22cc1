import { pino } from 'pino';
import { buildContainer, disposeContainer } from '../../infrastructure/container/build-container.js';
import { resolve } from '../../infrastructure/container/typed-binding.js';
import { USE_CASES } from '../../infrastructure/container/use-case.tokens.js';
import { startHttpServer } from '../../infrastructure/http-server.js';
import { startManagementServer } from '../../infrastructure/management-server.js';
import { ManagementClient, type CallerContext } from '../../examples/service-keys/src/management-client.js';

/**
 * The integration API as `npm start` runs it, in this process, on the memory store: the public listener
 * and the management listener over one container, on free ports, and a platform token issued by the use
 * case the admin CLI's `platform-token issue` calls. Every log line is kept, for tests that look for secrets.
 */
export async function startKeyService() {
  const logLines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
  const container = await buildContainer({
    profile: 'memory',
    logger,
    config: { region: 'kz', publicBaseUrl: 'https://kz.example.test/api', rateLimitPoints: 10_000, rateLimitWindowS: 60 },
  });
  const api = await startHttpServer(container, { port: 0, host: '127.0.0.1' });
  const management = await startManagementServer(container, { port: 0, host: '127.0.0.1' });
  if (management === null) throw new Error('the management listener did not start');
  const { id: platformTokenId, token: platformToken } = await resolve(container, USE_CASES.issuePlatformToken).execute({ name: 'service-keys page' });
  const managementUrl = management.origin;

  return {
    managementUrl,
    platformToken,
    platformTokenId,
    /** `{base_url}/integration/v1` of the public API. */
    publicApi: `${api.origin}/api/integration/v1`,
    createCompany: async (name: string) => (await resolve(container, USE_CASES.createCompany).execute({ name })).id,
    /** The management API as the page calls it, for setting a scene and for checking what the page did. */
    client: new ManagementClient({ baseUrl: managementUrl, token: platformToken }),
    revokePlatformToken: async () => resolve(container, USE_CASES.revokePlatformToken).execute({ id: platformTokenId }),
    /** Another token, limited as `admin platform-token issue --scopes --companies` would. */
    issuePlatformToken: async (limits: { scopes?: string[]; companies?: string[] }) =>
      resolve(container, USE_CASES.issuePlatformToken).execute({ name: 'read-only page', ...limits }),
    rawLogs: () => logLines.join(''),
    close: async () => {
      await Promise.all([api.close(), management.close()]);
      await resolve(container, USE_CASES.authenticateKey).settle();
      await disposeContainer(container);
    },
  };
}

export type KeyService = Awaited<ReturnType<typeof startKeyService>>;

/** GET on the public API with a service key; the status, as an integrator's first call sees it. */
export async function publicGet(service: KeyService, key: string, path: string): Promise<number> {
  const response = await fetch(`${service.publicApi}${path}`, { headers: { 'X-API-Key': key } });
  await response.arrayBuffer();
  return response.status;
}

/** POST on the public API with a service key and a JSON body; the status and the problem's code, if any. */
export async function publicPost(service: KeyService, key: string, path: string, body: unknown): Promise<{ status: number; code: string | null }> {
  const response = await fetch(`${service.publicApi}${path}`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await response.json().catch(() => null)) as { code?: unknown } | null;
  return { status: response.status, code: typeof answer?.code === 'string' ? answer.code : null };
}

/** Waits until the key's use is listed (it is recorded in the background, after the answer). */
export async function untilUsed(service: KeyService, caller: CallerContext, keyId: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const key = (await service.client.listKeys(caller)).find((candidate) => candidate.id === keyId);
    if (key?.lastUsedAt !== null && key?.lastUsedAt !== undefined) return;
    await new Promise((resume) => setTimeout(resume, 25));
  }
  throw new Error(`the use of key ${keyId} was never recorded`);
}

/** Waits (up to 10 s) for the public API to refuse a revoked key, which it may trust for KEY_CACHE_TTL_MS; the last status. */
export async function untilRefused(service: KeyService, key: string): Promise<number> {
  let status = 0;
  for (let attempt = 0; attempt < 100 && status !== 401; attempt++) {
    if (attempt > 0) await new Promise((resume) => setTimeout(resume, 100));
    status = await publicGet(service, key, '/vacancies');
  }
  return status;
}

/** The form token of the first form on a page of the service keys page. */
export function formToken(page: string): string {
  const token = /name="token" value="([^"]+)"/.exec(page)?.[1];
  if (token === undefined) throw new Error('no form token on the page');
  return token;
}
