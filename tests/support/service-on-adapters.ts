import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Container, ContainerModule } from 'inversify';
import { pino } from 'pino';
import { createHttpApp } from '../../adapters/http/create-http-app.js';
import { API_ROOT } from '../../adapters/http/http-state.js';
import { BOARD_REPOSITORY } from '../../application/ports/board-repository.port.js';
import { CANDIDATE_REPOSITORY } from '../../application/ports/candidate-repository.port.js';
import type { Clock } from '../../application/ports/clock.port.js';
import { COMPANY_REPOSITORY } from '../../application/ports/company-repository.port.js';
import { FEED_LEDGER } from '../../application/ports/feed-ledger.port.js';
import { ID_GENERATOR, type IdGenerator } from '../../application/ports/id-generator.port.js';
import type { PortToken } from '../../application/ports/port-token.js';
import { SERVICE_KEY_REPOSITORY } from '../../application/ports/service-key-repository.port.js';
import { UNIT_OF_WORK } from '../../application/ports/unit-of-work.port.js';
import { VACANCY_REPOSITORY } from '../../application/ports/vacancy-repository.port.js';
import { loadConfig, type AppConfig } from '../../infrastructure/config.js';
import { coreModule } from '../../infrastructure/container/core.module.js';
import { READINESS } from '../../infrastructure/container/infrastructure.tokens.js';
import { rateLimitModule } from '../../infrastructure/container/rate-limit.module.js';
import { bindPort, resolve } from '../../infrastructure/container/typed-binding.js';
import { USE_CASES } from '../../infrastructure/container/use-case.tokens.js';
import { useCasesModule } from '../../infrastructure/container/use-cases.module.js';
import { httpDependencies } from '../../infrastructure/http-dependencies.js';
import type { PersistenceAdapters } from '../contract/persistence-adapters.js';

type UseCaseName = keyof typeof USE_CASES;
type UseCaseOf<K extends UseCaseName> = (typeof USE_CASES)[K] extends PortToken<infer T> ? T : never;

/** What a client receives, the body as the bytes on the wire. */
export interface WireResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface ServiceOnAdapters {
  /** A use case of this service's container, the very instance the routes call. */
  use<K extends UseCaseName>(name: K): UseCaseOf<K>;
  /** GET `path` under the API root with `X-API-Key: <key>`, asking for no compression. */
  get(path: string, key: string): Promise<WireResponse>;
  close(): Promise<void>;
}

/**
 * The real Koa app, composed by the composition root's own modules (core, use cases, rate limits), with its
 * persistence ports bound to the given adapters and its ids taken from `ids`: the HTTP path of the service
 * on a store a test made (a contract suite's adapters, a clock of the test's in their unit of work).
 * Everything is imported statically, so that under mocha no module of an adapter is loaded twice.
 */
export async function startServiceOnAdapters(adapters: PersistenceAdapters, options: { clock: Clock; ids: IdGenerator }): Promise<ServiceOnAdapters> {
  const config: AppConfig = {
    ...loadConfig({}),
    region: 'kz',
    publicBaseUrl: 'https://kz.example.test/api',
    rateLimitStore: 'memory',
    rateLimitPoints: 1_000_000,
    rateLimitWindowS: 60,
    metrics: false,
  };
  const container = new Container({ defaultScope: 'Singleton' });
  await container.loadAsync(coreModule(config, pino({ level: 'silent' }), options.clock), useCasesModule, storeModule(adapters), rateLimitModule);
  container.rebind(ID_GENERATOR).toConstantValue(options.ids);
  const server = createServer(createHttpApp(httpDependencies(container)).callback());
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    use: <K extends UseCaseName>(name: K) => resolve(container, USE_CASES[name] as PortToken<UseCaseOf<K>>),
    get: (path, key) => getBytes(`${origin}${API_ROOT}${path}`, key),
    async close() {
      await new Promise<void>((done, fail) => {
        server.close((error) => (error ? fail(error) : done()));
        server.closeAllConnections();
      });
      // The key registry's background writes (last use of a key) finish before the store goes away.
      await resolve(container, USE_CASES.authenticateKey).settle();
      await container.unbindAllAsync();
    },
  };
}

function storeModule(a: PersistenceAdapters): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bindPort(bind, COMPANY_REPOSITORY).toConstantValue(a.companies);
    bindPort(bind, SERVICE_KEY_REPOSITORY).toConstantValue(a.keys);
    bindPort(bind, VACANCY_REPOSITORY).toConstantValue(a.vacancies);
    bindPort(bind, BOARD_REPOSITORY).toConstantValue(a.boards);
    bindPort(bind, CANDIDATE_REPOSITORY).toConstantValue(a.candidates);
    bindPort(bind, UNIT_OF_WORK).toConstantValue(a.unitOfWork);
    bindPort(bind, FEED_LEDGER).toConstantValue(a.feedLedger);
    bindPort(bind, READINESS).toConstantValue(async () => true);
  });
}

function getBytes(url: string, key: string): Promise<WireResponse> {
  return new Promise((done, fail) => {
    // No Accept-Encoding: identity, the bytes the route wrote (fetch would ask for gzip and inflate it).
    const outgoing = request(url, { method: 'GET', headers: { 'x-api-key': key } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', fail);
      response.on('end', () => done({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    outgoing.on('error', fail);
    outgoing.end();
  });
}
