import { expect } from 'chai';
import type { Container } from 'inversify';
import { pino } from 'pino';
import type { RunningServer } from '../../infrastructure/http-server.js';
import { ApiClient } from '../support/api-client.js';
import { ManagementClient } from '../support/management-client.js';
import { serviceModules } from '../support/management-test-server.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { sleep } from '../rate-limit/support/stores.js';

/** Small, so the test is short; the bound it shows holds for any KEY_CACHE_TTL_MS. */
const KEY_CACHE_TTL_MS = 2_000;
const OVERLAP_MS = 6_000;
/** Beyond the latest moment the old key may still be taken: its end, or the roll plus a cache's lifetime. */
const SLACK_MS = 10_000;

interface Instance {
  readonly container: Container;
  readonly api: RunningServer;
  readonly management: RunningServer | null;
  readonly errors: () => string[];
}

interface Observation {
  readonly instance: number;
  readonly which: 'old' | 'new';
  readonly status: number;
  readonly answeredAt: number;
}

/**
 * Two instances of the service (a container each: own pools, own key cache), sharing one PostgreSQL key
 * registry, each serving the public API; the first serves the management API too, as `npm start` does.
 */
describe('Rolling a key, on two instances sharing the key registry (PostgreSQL)', function () {
  this.timeout(90_000);
  const database = usePostgresTestDatabase();
  const instances: Instance[] = [];

  before(async function () {
    const { buildContainer, startHttpServer, startManagementServer } = await modules();
    for (const withManagement of [true, false]) {
      const lines: string[] = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
      const url = database().businessUrl;
      const container = await buildContainer({ profile: 'postgres', logger, config: { databaseUrl: url, keysDatabaseUrl: url, keyCacheTtlMs: KEY_CACHE_TTL_MS, rateLimitPoints: 100_000 } });
      const api = await startHttpServer(container, { port: 0, host: '127.0.0.1' });
      const management = withManagement ? await startManagementServer(container, { port: 0, host: '127.0.0.1' }) : null;
      instances.push({ container, api, management, errors: () => lines.filter((line) => JSON.parse(line).level >= 50) });
    }
  });

  after(async () => {
    const { disposeContainer, resolve, USE_CASES } = await modules();
    for (const { container, api, management } of instances) {
      await Promise.all([api.close(), management?.close()]);
      await resolve(container, USE_CASES.authenticateKey).settle();
      await disposeContainer(container);
    }
    for (const instance of instances) expect(instance.errors()).to.deep.equal([]);
  });

  it('takes both keys on both instances until the old one ends, then only the new one', async () => {
    const { resolve, USE_CASES } = await modules();
    const [first, second] = instances as [Instance, Instance];
    const token = await resolve(first.container, USE_CASES.issuePlatformToken).execute({ name: 'rolling test' });
    const management = new ManagementClient(`${first.management!.origin}/internal/v1`, token.token, 'rotator');
    const companyId = (await management.post('/companies', { name: 'ТОО «Ротация»' })).body.id;
    const old = (await management.post(`/companies/${companyId}/keys`, { name: 'Портал', scopes: ['vacancies:read'] })).body;
    const publics = [first, second].map((instance) => new ApiClient(`${instance.api.origin}/api/integration/v1`));
    // Each instance reads the old key now, and holds it in its cache as it was before the roll.
    for (const api of publics) expect((await api.get('/vacancies', { key: old.key })).status).to.equal(200);

    const rolledAt = Date.now();
    const rolled = await management.post(`/companies/${companyId}/keys/${old.id}/roll`, { oldKeyExpiresAt: new Date(rolledAt + OVERLAP_MS).toISOString() });
    expect(rolled.status, rolled.text).to.equal(201);
    const endsAt = Date.parse(rolled.body.rolled.expiresAt);
    const keys = { old: old.key as string, new: rolled.body.issued.key as string };

    const seen: Observation[] = [];
    const probe = async () => {
      await Promise.all(
        publics.flatMap((api, instance) =>
          (['old', 'new'] as const).map(async (which) => {
            const { status } = await api.get('/vacancies', { key: keys[which] });
            seen.push({ instance, which, status, answeredAt: Date.now() });
          }),
        ),
      );
    };
    const oldRefusedEverywhere = () => [0, 1].every((instance) => seen.some((o) => o.instance === instance && o.which === 'old' && o.status === 401));
    const deadline = Math.max(endsAt, rolledAt + KEY_CACHE_TTL_MS) + SLACK_MS;
    while (!oldRefusedEverywhere() && Date.now() < deadline) {
      await probe();
      await sleep(100);
    }
    expect(oldRefusedEverywhere(), 'both instances refuse the old key in the end').to.equal(true);
    expect(seen.filter((o) => o.which === 'new' && o.status !== 200), 'the new key works on both instances from the roll on').to.deep.equal([]);
    const refusedEarly = seen.filter((o) => o.which === 'old' && o.status !== 200 && o.answeredAt < endsAt);
    expect(refusedEarly, 'the old key is never refused before its end').to.deep.equal([]);
    expect(seen.filter((o) => o.which === 'old' && o.answeredAt < endsAt).length, 'the old key was seen working during the overlap').to.be.greaterThan(0);

    // From now on only the new key, on both instances.
    const after: number[] = [];
    for (const api of publics) after.push((await api.get('/vacancies', { key: keys.old })).status, (await api.get('/vacancies', { key: keys.new })).status);
    expect(after).to.deep.equal([401, 200, 401, 200]);
  });
});

async function modules() {
  const [base, http, management] = await Promise.all([
    serviceModules(),
    import('../../infrastructure/http-server.js'),
    import('../../infrastructure/management-server.js'),
  ]);
  return { ...base, ...http, ...management };
}
