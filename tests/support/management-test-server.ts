import type { ManagementDependencies } from '../../adapters/management/management-dependencies.js';
import type { AppConfig } from '../../infrastructure/config.js';
import { ApiClient } from './api-client.js';
import { API_PATH } from './http-test-server.js';
import { ManagementClient } from './management-client.js';
import { closeServer, listenOnEphemeralPort, startTestContainer } from './test-container.js';

export const MANAGEMENT_PATH = '/internal/v1';

export interface ManagementTestServerOptions {
  readonly config?: Partial<AppConfig>;
  /** Replacements for the management adapter's dependencies (a failing use case, say). */
  readonly overrides?: Partial<ManagementDependencies>;
}

/**
 * The service's modules, loaded the way the service loads them. Under mocha with tsx a test file's static
 * imports and a dynamic import() load two copies of a module; the container loads its PostgreSQL adapters with
 * import(), so an entity restored by them throws the domain errors of that copy, which a statically imported
 * error mapping would not know (a 500 where a 409 is due). Loaded with import() too, app, use cases and
 * adapters are one copy, as in the running service.
 */
export async function serviceModules() {
  const [container, binding, tokens, http, management, httpApp, managementApp, clientErrors] = await Promise.all([
    import('../../infrastructure/container/build-container.js'),
    import('../../infrastructure/container/typed-binding.js'),
    import('../../infrastructure/container/use-case.tokens.js'),
    import('../../infrastructure/http-dependencies.js'),
    import('../../infrastructure/management-dependencies.js'),
    import('../../adapters/http/create-http-app.js'),
    import('../../adapters/management/create-management-app.js'),
    import('../../adapters/http/client-errors.js'),
  ]);
  return { ...container, ...binding, ...tokens, ...http, ...management, ...httpApp, ...managementApp, ...clientErrors };
}

/**
 * The management app and the public app of one container, each on its own ephemeral port, as `npm start`
 * runs them: in-memory stores, or a fresh PostgreSQL database when TEST_STORE=postgres. A platform token is
 * issued through the use case the CLI calls; every log line of both apps is kept.
 */
export async function startManagementTestServer(options: ManagementTestServerOptions = {}) {
  const { buildContainer, disposeContainer, resolve, USE_CASES, httpDependencies, managementDependencies, createHttpApp, createManagementApp, answerClientErrorsWithProblems } =
    await serviceModules();
  const { container, clock, logs, rawLogs, dispose } = await startTestContainer({ buildContainer, disposeContainer }, options.config);
  const listen = (app: Parameters<typeof listenOnEphemeralPort>[0]) => listenOnEphemeralPort(app, answerClientErrorsWithProblems);
  const management = await listen(createManagementApp({ ...managementDependencies(container), ...options.overrides }));
  const publicApi = await listen(createHttpApp(httpDependencies(container)));
  const issuePlatformToken = resolve(container, USE_CASES.issuePlatformToken);
  const platformToken = await issuePlatformToken.execute({ name: 'test platform service' });
  const managementUrl = `${management.origin}${MANAGEMENT_PATH}`;

  return {
    managementOrigin: management.origin,
    managementUrl,
    publicOrigin: publicApi.origin,
    token: platformToken.token,
    tokenId: platformToken.id,
    /** A client with the platform token and an actor. */
    client: new ManagementClient(managementUrl, platformToken.token),
    /** A client of the public API with a service key. */
    publicClient: (key: string | undefined) => new ApiClient(`${publicApi.origin}${API_PATH}`, key),
    /** Another token, as `admin platform-token issue` makes it: every scope and company unless told. */
    issuePlatformToken: (name = 'another platform service', limits: Omit<Parameters<typeof issuePlatformToken.execute>[0], 'name'> = {}) =>
      issuePlatformToken.execute({ name, ...limits }),
    revokePlatformToken: (id: string) => resolve(container, USE_CASES.revokePlatformToken).execute({ id }),
    clock,
    logs,
    rawLogs,
    close: async () => {
      for (const { server } of [management, publicApi]) await closeServer(server);
      await resolve(container, USE_CASES.authenticateKey).settle();
      await dispose();
    },
  };
}

export type ManagementTestServer = Awaited<ReturnType<typeof startManagementTestServer>>;
