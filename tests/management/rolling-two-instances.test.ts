import { expect } from 'chai';
import type { Container } from 'inversify';
import { pino } from 'pino';
import { KEY_CACHE_TTL_MAX_MS } from '../../infrastructure/config.schema.js';
import type { RunningServer } from '../../infrastructure/http-server.js';
import { ApiClient } from '../support/api-client.js';
import { ManagementClient } from '../support/management-client.js';
import { serviceModules } from '../support/management-test-server.js';
import { ManualClock } from '../support/manual-clock.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';

/** The largest bound the service allows; nothing waits for it, the clock is moved by hand. */
const KEY_CACHE_TTL_MS = KEY_CACHE_TTL_MAX_MS;
/** Longer than the cache's lifetime: by the old key's end every instance has read it since the roll. */
const LONG_OVERLAP_MS = 60_000;
/** Shorter than the cache's lifetime: an instance that read the key before the roll may take it until rolledAt + KEY_CACHE_TTL_MS. */
const SHORT_OVERLAP_MS = 1_000;
/**
 * Years after the database's own now(): the expiries are in the database's future, so an instance that let
 * the database's clock decide (or anything but the service's Clock) would take the old key past its end.
 */
const START = new Date('2031-03-01T08:00:00.000Z');

interface Instance {
  readonly container: Container;
  readonly api: RunningServer;
  readonly management: RunningServer | null;
  readonly errors: () => string[];
}

type Which = 'old' | 'new';

/** One request to the public API, with the moment it was sent and answered (ms after the roll, on the shared clock). */
interface Probe {
  readonly instance: number;
  readonly which: Which;
  readonly sentAt: number;
  readonly answeredAt: number;
  readonly status: number;
}

/**
 * Two instances of the service (a container each: own pools, own key cache), sharing one PostgreSQL key
 * registry, each serving the public API; the first serves the management API too, as `npm start` does.
 * Both run on one manual clock: the clock stands still while a request is under way and moves only between
 * requests, so every probe lies wholly on one side of any moment, whatever the machine's speed, and the
 * boundaries are checked to the millisecond.
 */
describe('Rolling a key, on two instances sharing the key registry (PostgreSQL)', function () {
  this.timeout(90_000);
  const database = usePostgresTestDatabase({ separateRegistry: true });
  const clock = new ManualClock(START);
  const instances: Instance[] = [];
  let management: ManagementClient;
  let publics: ApiClient[];

  before(async function () {
    const { buildContainer, startHttpServer, startManagementServer, resolve, USE_CASES } = await modules();
    for (const withManagement of [true, false]) {
      const lines: string[] = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
      const { businessUrl, registryUrl } = database();
      const config = { databaseUrl: businessUrl, keysDatabaseUrl: registryUrl, keyCacheTtlMs: KEY_CACHE_TTL_MS, rateLimitPoints: 100_000 };
      const container = await buildContainer({ profile: 'postgres', clock, logger, config });
      const api = await startHttpServer(container, { port: 0, host: '127.0.0.1' });
      const managementServer = withManagement ? await startManagementServer(container, { port: 0, host: '127.0.0.1' }) : null;
      instances.push({ container, api, management: managementServer, errors: () => lines.filter((line) => JSON.parse(line).level >= 50) });
    }
    const token = await resolve(instances[0]!.container, USE_CASES.issuePlatformToken).execute({ name: 'rolling test' });
    management = new ManagementClient(`${instances[0]!.management!.origin}/internal/v1`, token.token, 'rotator');
    publics = instances.map((instance) => new ApiClient(`${instance.api.origin}/api/integration/v1`));
  });

  after(async () => {
    const { disposeContainer, resolve, USE_CASES } = await modules();
    for (const { container, api, management: server } of instances) {
      await Promise.all([api.close(), server?.close()]);
      await resolve(container, USE_CASES.authenticateKey).settle();
      await disposeContainer(container);
    }
    for (const instance of instances) expect(instance.errors()).to.deep.equal([]);
  });

  /** A company with one key, read by no instance yet. */
  async function aKey(): Promise<{ companyId: string; id: string; key: string }> {
    const companyId = (await management.post('/companies', { name: 'ТОО «Ротация»' })).body.id;
    const issued = await management.post(`/companies/${companyId}/keys`, { name: 'Портал', scopes: ['vacancies:read'] });
    expect(issued.status, issued.text).to.equal(201);
    return { companyId, id: issued.body.id, key: issued.body.key };
  }

  /** Rolls at the clock's now; the old key's end as the answer gives it, which must be the one asked for. */
  async function roll(companyId: string, keyId: string, overlapMs: number): Promise<{ rolledAt: number; endsAt: number; newKey: string }> {
    const rolledAt = clock.now().getTime();
    const rolled = await management.post(`/companies/${companyId}/keys/${keyId}/roll`, { oldKeyExpiresAt: new Date(rolledAt + overlapMs).toISOString() });
    expect(rolled.status, rolled.text).to.equal(201);
    const endsAt = Date.parse(rolled.body.rolled.expiresAt);
    expect(endsAt - rolledAt).to.equal(overlapMs);
    return { rolledAt, endsAt, newKey: rolled.body.issued.key };
  }

  /** Moves the clock to `rolledAt + offsetMs`, then asks each instance with each key, one request at a time. */
  async function probeAt(offsetMs: number, rolledAt: number, keys: Record<Which, string>, seen: Probe[]): Promise<void> {
    clock.set(new Date(rolledAt + offsetMs));
    for (const [instance, api] of publics.entries()) {
      for (const which of ['old', 'new'] as const) {
        const sentAt = clock.now().getTime() - rolledAt;
        const { status } = await api.get('/vacancies', { key: keys[which] });
        seen.push({ instance, which, sentAt, answeredAt: clock.now().getTime() - rolledAt, status });
      }
    }
  }

  const show = (probes: Probe[]) => probes.map(({ instance, which, sentAt, status }) => `instance ${instance}, ${which} key, sent at roll+${sentAt} ms: ${status}`);

  it('takes the old key on both instances until its end and refuses it from that very millisecond on, once they read it after the roll; the new key throughout', async () => {
    const old = await aKey();
    // Both instances hold the key as it was before the roll (no expiry) ...
    for (const api of publics) expect((await api.get('/vacancies', { key: old.key })).status).to.equal(200);
    const { rolledAt, endsAt, newKey } = await roll(old.companyId, old.id, LONG_OVERLAP_MS);
    const end = endsAt - rolledAt;
    const seen: Probe[] = [];
    // ... until the cache's lifetime is over: from roll+KEY_CACHE_TTL_MS on each has read it again, after the
    // roll. The probe just before the end reads it once more (its entry is older than the lifetime), so the
    // probes at and after the end are answered from what an instance read after the roll.
    const offsets = [0, KEY_CACHE_TTL_MS, end / 2, end - 1, end, end + 1, end + 4_000, end + KEY_CACHE_TTL_MS, end + 60_000];
    for (const offset of offsets) await probeAt(offset, rolledAt, { old: old.key, new: newKey }, seen);

    const oneSided = seen.filter((p) => p.sentAt === p.answeredAt);
    expect(oneSided, 'the clock stands still during a request').to.have.length(seen.length);
    const before = seen.filter((p) => p.which === 'old' && p.answeredAt < end);
    const after = seen.filter((p) => p.which === 'old' && p.sentAt >= end);
    expect(show(before.filter((p) => p.status !== 200)), 'the old key works on both instances until its end').to.deep.equal([]);
    expect(show(after.filter((p) => p.status !== 401)), 'the old key is refused on both instances from its end on').to.deep.equal([]);
    expect(show(seen.filter((p) => p.which === 'new' && p.status !== 200)), 'the new key works on both instances from the roll on').to.deep.equal([]);
    for (const instance of [0, 1]) {
      expect(before.filter((p) => p.instance === instance).length, `instance ${instance} was asked before the end`).to.be.greaterThan(0);
      expect(after.filter((p) => p.instance === instance).length, `instance ${instance} was asked after the end`).to.be.greaterThan(0);
    }
  });

  it('refuses the old key on every instance from rolledAt + KEY_CACHE_TTL_MS on when one held it from before a shorter overlap, at its end on one that read it after; the new key throughout', async () => {
    const old = await aKey();
    // Instance 1 reads the key at the very moment of the roll, before it: the longest an entry from before a
    // roll can live. Its entry is stamped with the moment its read began, which the clock keeps still.
    expect((await publics[1]!.get('/vacancies', { key: old.key })).status).to.equal(200);
    const { rolledAt, endsAt, newKey } = await roll(old.companyId, old.id, SHORT_OVERLAP_MS);
    const end = endsAt - rolledAt;
    const seen: Probe[] = [];
    // Instance 0 first reads the key at roll+0, after the roll; instance 1 answers from its entry until it ages out.
    const ttl = KEY_CACHE_TTL_MS;
    const offsets = [0, end - 1, end, end + 1, ttl - 1, ttl, ttl + 1, 2 * ttl, 4 * ttl - 1, 4 * ttl, 4 * ttl + 60_000];
    for (const offset of offsets) await probeAt(offset, rolledAt, { old: old.key, new: newKey }, seen);

    expect(seen.filter((p) => p.sentAt === p.answeredAt), 'the clock stands still during a request').to.have.length(seen.length);
    const olds = seen.filter((p) => p.which === 'old');
    expect(show(olds.filter((p) => p.answeredAt < end && p.status !== 200)), 'the old key works on both instances until its end').to.deep.equal([]);
    expect(show(olds.filter((p) => p.instance === 0 && p.sentAt >= end && p.status !== 401)), 'instance 0, which read the key after the roll, refuses it from its end on').to.deep.equal([]);
    expect(show(olds.filter((p) => p.sentAt >= ttl && p.status !== 401)), 'no instance takes the old key from rolledAt + KEY_CACHE_TTL_MS on').to.deep.equal([]);
    expect(show(olds.filter((p) => p.status !== 200 && p.status !== 401)), 'nothing but a yes or a no in between').to.deep.equal([]);
    expect(show(seen.filter((p) => p.which === 'new' && p.status !== 200)), 'the new key works on both instances from the roll on').to.deep.equal([]);
    expect(olds.filter((p) => p.instance === 1 && p.sentAt >= ttl).length, 'instance 1 was asked after the bound').to.be.greaterThan(0);
  });
});

async function modules() {
  const [base, http, managementServer] = await Promise.all([
    serviceModules(),
    import('../../infrastructure/http-server.js'),
    import('../../infrastructure/management-server.js'),
  ]);
  return { ...base, ...http, ...managementServer };
}
