import { expect } from 'chai';
import { InMemoryCompanyRepository } from '../../adapters/persistence/in-memory/in-memory-company.repository.js';
import { InMemoryDatabase } from '../../adapters/persistence/in-memory/in-memory-database.js';
import { InMemoryServiceKeyRepository } from '../../adapters/persistence/in-memory/in-memory-service-key.repository.js';
import { NodeCryptoSecrets } from '../../adapters/system/node-crypto-secrets.js';
import { UuidV7IdGenerator } from '../../adapters/system/uuid-v7-id-generator.js';
import type { KeyRegistryChange, ServiceKeyRepository } from '../../application/ports/service-key-repository.port.js';
import { ADMIN_CLI_ACTOR } from '../../application/use-cases/actor.js';
import { AuthenticateKey, type AuthenticateKeyOptions } from '../../application/use-cases/authenticate-key.use-case.js';
import { CreateCompany } from '../../application/use-cases/create-company.use-case.js';
import { IssueKey } from '../../application/use-cases/issue-key.use-case.js';
import { ListKeys } from '../../application/use-cases/list-keys.use-case.js';
import { RevokeKey } from '../../application/use-cases/revoke-key.use-case.js';
import type { KeyEvent } from '../../domain/service-key/key-event.js';
import { UnauthorizedError, type ServiceKey } from '../../domain/service-key/service-key.js';
import { at } from '../support/builders.js';
import { rejectionOf } from '../support/catching.js';
import { ManualClock } from '../support/manual-clock.js';

/** The in-memory registry, counting the reads and usage writes that reach it; usage writes can be made to fail. */
class CountingKeyRepository implements ServiceKeyRepository {
  reads = 0;
  usageWrites: { keyId: string; at: Date }[] = [];
  failUsageWrites = false;
  /** Ids the registry answers as unknown, as it would before a key is issued under them. */
  readonly hidden = new Set<string>();

  constructor(private readonly inner: ServiceKeyRepository) {}

  insert(key: ServiceKey) {
    return this.inner.insert(key);
  }
  findById(id: string) {
    this.reads += 1;
    return this.hidden.has(id) ? Promise.resolve(null) : this.inner.findById(id);
  }
  listByCompany(companyId: string) {
    return this.inner.listByCompany(companyId);
  }
  update(key: ServiceKey) {
    return this.inner.update(key);
  }
  write(change: KeyRegistryChange) {
    return this.inner.write(change);
  }
  async recordUsage(keyId: string, when: Date, firstUse?: KeyEvent) {
    this.usageWrites.push({ keyId, at: when });
    if (this.failUsageWrites) throw new Error('registry unreachable');
    return this.inner.recordUsage(keyId, when, firstUse);
  }
  recordEventOnce(event: KeyEvent) {
    return this.inner.recordEventOnce(event);
  }
  listEvents(companyId: string, page: { limit: number; after: string | null }) {
    return this.inner.listEvents(companyId, page);
  }
}

function aRegistry(options: AuthenticateKeyOptions) {
  const db = new InMemoryDatabase();
  const clock = new ManualClock();
  const secrets = new NodeCryptoSecrets();
  const companies = new InMemoryCompanyRepository(db);
  const keys = new CountingKeyRepository(new InMemoryServiceKeyRepository(db));
  const ids = new UuidV7IdGenerator();
  const authenticateKey = new AuthenticateKey(keys, secrets, ids, clock, options);
  const createCompany = new CreateCompany(companies, ids, clock);
  const issueKey = new IssueKey(companies, keys, secrets, ids, clock);
  return {
    clock,
    keys,
    authenticateKey,
    authenticate: (presentedKey: string) => authenticateKey.execute({ presentedKey }),
    revoke: (keyId: string) => new RevokeKey(keys, ids, clock).execute({ keyId, actor: ADMIN_CLI_ACTOR }),
    async issue(expiresAt: Date | null = null) {
      const company = await createCompany.execute({ name: 'ТОО «Тест»' });
      const issued = await issueKey.execute({ companyId: company.id, scopes: ['vacancies:read'], name: 'portal', expiresAt, actor: ADMIN_CLI_ACTOR });
      const lastUsedAt = async () => (await new ListKeys(companies, keys, clock).execute({ companyId: company.id }))[0]?.lastUsedAt ?? null;
      return { ...issued, lastUsedAt };
    },
  };
}

describe('Service key lifecycle across instances (AuthenticateKey with its registry cache)', () => {
  it('shuts a revoked key out within the cache TTL, and serves it from the cache until then', async () => {
    const registry = aRegistry({ keyCacheTtlMs: 5_000 });
    const key = await registry.issue();
    registry.clock.set(at(1_000));
    await registry.authenticate(key.key);

    // Another instance revokes it in the shared registry; this one still trusts what it read at 1 s.
    await registry.revoke(key.id);
    const readsBefore = registry.keys.reads;
    registry.clock.set(at(5_999));
    expect((await registry.authenticate(key.key)).keyId, 'within the TTL the cached key is used').to.equal(key.id);
    expect(registry.keys.reads, 'a cached key costs no registry read').to.equal(readsBefore);

    registry.clock.set(at(6_000));
    expect(await rejectionOf(registry.authenticate(key.key))).to.be.instanceOf(UnauthorizedError);
  });

  it('reads the registry at every request when the TTL is 0, so a revocation holds at once', async () => {
    const registry = aRegistry({ keyCacheTtlMs: 0 });
    const key = await registry.issue();
    await registry.authenticate(key.key);
    await registry.revoke(key.id);
    expect(await rejectionOf(registry.authenticate(key.key))).to.be.instanceOf(UnauthorizedError);
  });

  it('refuses a key from the moment it expires, though it is cached', async () => {
    const registry = aRegistry({ keyCacheTtlMs: 5_000 });
    const key = await registry.issue(at(10_000));
    registry.clock.set(at(9_000));
    await registry.authenticate(key.key);
    registry.clock.set(at(9_999));
    await registry.authenticate(key.key);
    registry.clock.set(at(10_000));
    expect(await rejectionOf(registry.authenticate(key.key))).to.be.instanceOf(UnauthorizedError);
    expect(registry.keys.reads, 'the refusal came from the cached key, not a fresh read').to.equal(1);
  });

  it('refuses a wrong secret for a cached key id', async () => {
    const registry = aRegistry({ keyCacheTtlMs: 5_000 });
    const key = await registry.issue();
    await registry.authenticate(key.key);
    const forged = `${key.key.slice(0, -1)}${key.key.endsWith('A') ? 'B' : 'A'}`;
    expect(await rejectionOf(registry.authenticate(forged))).to.be.instanceOf(UnauthorizedError);
  });

  it('reads the registry once per TTL for an unknown key id, however often it is presented', async () => {
    const registry = aRegistry({ keyCacheTtlMs: 5_000 });
    const unknown = `ik_${'Q'.repeat(12)}_${'s'.repeat(40)}`;
    registry.clock.set(at(1_000));
    await Promise.all(Array.from({ length: 20 }, () => rejectionOf(registry.authenticate(unknown))));
    for (let t = 1_000; t < 6_000; t += 250) {
      registry.clock.set(at(t));
      expect(await rejectionOf(registry.authenticate(unknown))).to.be.instanceOf(UnauthorizedError);
    }
    expect(registry.keys.reads, 'one read for the whole window').to.equal(1);
    registry.clock.set(at(6_000));
    expect(await rejectionOf(registry.authenticate(unknown))).to.be.instanceOf(UnauthorizedError);
    expect(registry.keys.reads, 'read again once the window has passed').to.equal(2);
  });

  it('accepts a key issued under an id that was just looked up in vain, once the TTL of the miss has passed', async () => {
    const registry = aRegistry({ keyCacheTtlMs: 5_000 });
    const key = await registry.issue();
    // The miss is made to happen before the issue: the registry answers "no such key" for this id once.
    registry.keys.hidden.add(key.id);
    registry.clock.set(at(1_000));
    expect(await rejectionOf(registry.authenticate(key.key))).to.be.instanceOf(UnauthorizedError);
    registry.keys.hidden.delete(key.id);

    registry.clock.set(at(5_999));
    expect(await rejectionOf(registry.authenticate(key.key)), 'the miss is trusted within the TTL').to.be.instanceOf(UnauthorizedError);
    registry.clock.set(at(6_000));
    expect((await registry.authenticate(key.key)).keyId, 'and not a millisecond longer').to.equal(key.id);
  });

  it('keeps at most 10 000 unknown ids, forgetting the oldest first', async () => {
    const registry = aRegistry({ keyCacheTtlMs: 5_000 });
    const unknown = (n: number) => `ik_${String(n).padStart(12, 'u')}_${'s'.repeat(40)}`;
    for (let n = 0; n <= 10_000; n++) await rejectionOf(registry.authenticate(unknown(n)));
    expect(registry.keys.reads).to.equal(10_001);
    await rejectionOf(registry.authenticate(unknown(10_000)));
    await rejectionOf(registry.authenticate(unknown(1)));
    expect(registry.keys.reads, 'the newest are still known as unknown').to.equal(10_001);
    await rejectionOf(registry.authenticate(unknown(0)));
    expect(registry.keys.reads, 'the oldest was forgotten to make room').to.equal(10_002);
  });

  it('writes lastUsedAt once for a burst of 100 concurrent requests, with one registry read, and again only a minute later', async () => {
    const registry = aRegistry({ keyCacheTtlMs: 5_000 });
    const key = await registry.issue();
    registry.clock.set(at(1_000));
    const principals = await Promise.all(Array.from({ length: 100 }, () => registry.authenticate(key.key)));
    expect(principals.every((p) => p.keyId === key.id)).to.equal(true);
    await registry.authenticateKey.settle();
    expect(registry.keys.usageWrites).to.deep.equal([{ keyId: key.id, at: at(1_000) }]);
    expect(registry.keys.reads, 'concurrent misses share one read').to.equal(1);
    expect(await key.lastUsedAt()).to.deep.equal(at(1_000));

    // The cache is refreshed every 5 s, but the write is due again only a minute after the last one.
    for (let t = 2_000; t < 61_000; t += 1_000) {
      registry.clock.set(at(t));
      await registry.authenticate(key.key);
    }
    await registry.authenticateKey.settle();
    expect(registry.keys.usageWrites).to.have.length(1);
    registry.clock.set(at(61_000));
    await registry.authenticate(key.key);
    await registry.authenticateKey.settle();
    expect(registry.keys.usageWrites.map((w) => w.at)).to.deep.equal([at(1_000), at(61_000)]);
    expect(await key.lastUsedAt()).to.deep.equal(at(61_000));
  });

  it('does not fail or hold up a request when writing lastUsedAt fails, and reports the failure', async () => {
    const failures: { error: unknown; keyId: string }[] = [];
    const registry = aRegistry({ keyCacheTtlMs: 5_000, onUsageRecordFailed: (error, keyId) => failures.push({ error, keyId }) });
    const key = await registry.issue();
    registry.keys.failUsageWrites = true;
    expect((await registry.authenticate(key.key)).keyId).to.equal(key.id);
    await registry.authenticateKey.settle();
    expect(failures).to.have.length(1);
    expect(failures[0]?.keyId).to.equal(key.id);
    expect((failures[0]?.error as Error).message).to.equal('registry unreachable');
    // Not retried at every request while the registry fails: the next attempt is a minute later.
    for (let i = 0; i < 10; i++) await registry.authenticate(key.key);
    await registry.authenticateKey.settle();
    expect(registry.keys.usageWrites).to.have.length(1);
  });
});
