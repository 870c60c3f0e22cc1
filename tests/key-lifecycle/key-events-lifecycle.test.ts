import { expect } from 'chai';
import { InMemoryCompanyRepository } from '../../adapters/persistence/in-memory/in-memory-company.repository.js';
import { InMemoryDatabase } from '../../adapters/persistence/in-memory/in-memory-database.js';
import { InMemoryServiceKeyRepository } from '../../adapters/persistence/in-memory/in-memory-service-key.repository.js';
import { NodeCryptoSecrets } from '../../adapters/system/node-crypto-secrets.js';
import { UuidV7IdGenerator } from '../../adapters/system/uuid-v7-id-generator.js';
import { ADMIN_CLI_ACTOR } from '../../application/use-cases/actor.js';
import { AuthenticateKey, type AuthenticateKeyOptions } from '../../application/use-cases/authenticate-key.use-case.js';
import { CreateCompany } from '../../application/use-cases/create-company.use-case.js';
import { IssueKey } from '../../application/use-cases/issue-key.use-case.js';
import { ListKeyEvents } from '../../application/use-cases/list-key-events.use-case.js';
import { RevokeKey } from '../../application/use-cases/revoke-key.use-case.js';
import type { KeyEvent } from '../../domain/service-key/key-event.js';
import { UnauthorizedError } from '../../domain/service-key/service-key.js';
import { at } from '../support/builders.js';
import { rejectionOf } from '../support/catching.js';
import { ManualClock } from '../support/manual-clock.js';

const MINUTE = 60_000;

/** The in-memory registry whose once-per-key event writes can be made to fail. */
class FlakyKeyRepository extends InMemoryServiceKeyRepository {
  failEventWrites = false;
  eventWrites = 0;

  override async recordEventOnce(event: KeyEvent): Promise<void> {
    this.eventWrites += 1;
    if (this.failEventWrites) throw new Error('registry unreachable');
    return super.recordEventOnce(event);
  }
}

/** One registry, a clock, and as many service instances (AuthenticateKey each) as a test asks for. */
async function aRegistry() {
  const db = new InMemoryDatabase();
  const clock = new ManualClock();
  const secrets = new NodeCryptoSecrets();
  const ids = new UuidV7IdGenerator();
  const companies = new InMemoryCompanyRepository(db);
  const keys = new FlakyKeyRepository(db);
  const company = await new CreateCompany(companies, ids, clock).execute({ name: 'ТОО «Тест»' });
  return {
    clock,
    keys,
    instance: (options: AuthenticateKeyOptions = {}) => new AuthenticateKey(keys, secrets, ids, clock, options),
    issue: (expiresAt: Date | null) =>
      new IssueKey(companies, keys, secrets, ids, clock).execute({ companyId: company.id, scopes: ['vacancies:read'], name: 'portal', expiresAt, actor: ADMIN_CLI_ACTOR }),
    revoke: (keyId: string) => new RevokeKey(keys, ids, clock).execute({ keyId, actor: ADMIN_CLI_ACTOR }),
    async events(type: KeyEvent['type']) {
      const { items } = await new ListKeyEvents(companies, keys).execute({ companyId: company.id, limit: 100, cursor: null });
      return items.filter((e) => e.type === type).map(({ id: _id, ...e }) => e);
    },
  };
}

describe('Key events the service records by itself: expired and first_used', () => {
  it('records expired once, at the first refusal for expiry, with the expiry met, on two instances sharing the registry', async () => {
    const registry = await aRegistry();
    const key = await registry.issue(at(10 * MINUTE));
    const [one, two] = [registry.instance({ keyCacheTtlMs: 5_000 }), registry.instance()];
    registry.clock.set(at(10 * MINUTE + 1_000));
    for (let n = 0; n < 5; n++) {
      expect(await rejectionOf(one.execute({ presentedKey: key.key }))).to.be.instanceOf(UnauthorizedError);
      expect(await rejectionOf(two.execute({ presentedKey: key.key }))).to.be.instanceOf(UnauthorizedError);
      registry.clock.advance(MINUTE);
    }
    await Promise.all([one.settle(), two.settle()]);
    expect(await registry.events('expired')).to.deep.equal([
      { keyId: key.id, type: 'expired', at: at(10 * MINUTE + 1_000), actor: null, via: null, successorKeyId: null, expiresAt: at(10 * MINUTE) },
    ]);
    expect(registry.keys.eventWrites, 'each instance tried once').to.equal(2);
  });

  it('records no expiry for a wrong secret, an unknown id, or a key revoked before it expired', async () => {
    const registry = await aRegistry();
    const expiring = await registry.issue(at(MINUTE));
    const revoked = await registry.issue(at(MINUTE));
    await registry.revoke(revoked.id);
    const service = registry.instance();
    registry.clock.set(at(2 * MINUTE));
    const forged = `${expiring.key.slice(0, -1)}${expiring.key.endsWith('A') ? 'B' : 'A'}`;
    for (const presentedKey of [forged, `ik_${'Q'.repeat(12)}_${'s'.repeat(40)}`, revoked.key]) {
      expect(await rejectionOf(service.execute({ presentedKey }))).to.be.instanceOf(UnauthorizedError);
    }
    await service.settle();
    expect(await registry.events('expired')).to.deep.equal([]);
    expect(registry.keys.eventWrites).to.equal(0);
  });

  it('reports a failed expiry write, still refuses the key, and tries again at a later refusal', async () => {
    const registry = await aRegistry();
    const key = await registry.issue(at(MINUTE));
    const failures: string[] = [];
    const service = registry.instance({ onUsageRecordFailed: (_error, keyId) => failures.push(keyId) });
    registry.keys.failEventWrites = true;
    registry.clock.set(at(2 * MINUTE));
    expect(await rejectionOf(service.execute({ presentedKey: key.key }))).to.be.instanceOf(UnauthorizedError);
    await service.settle();
    expect(failures).to.deep.equal([key.id]);
    expect(await registry.events('expired')).to.deep.equal([]);

    registry.keys.failEventWrites = false;
    registry.clock.set(at(3 * MINUTE));
    expect(await rejectionOf(service.execute({ presentedKey: key.key }))).to.be.instanceOf(UnauthorizedError);
    await service.settle();
    expect((await registry.events('expired')).map((e) => e.at)).to.deep.equal([at(3 * MINUTE)]);
  });

  it('records first_used once, at the first accepted request, however many instances and minutes follow', async () => {
    const registry = await aRegistry();
    const key = await registry.issue(null);
    // Cached instances keep a copy of the key read before any use (lastUsedAt null) for their TTL.
    const instances = [registry.instance({ keyCacheTtlMs: 10 * MINUTE }), registry.instance({ keyCacheTtlMs: 10 * MINUTE }), registry.instance()];
    registry.clock.set(at(1_000));
    await Promise.all(instances.map((service) => service.execute({ presentedKey: key.key })));
    for (let t = 2; t < 6; t++) {
      registry.clock.set(at(t * MINUTE));
      for (const service of instances) await service.execute({ presentedKey: key.key });
    }
    await Promise.all(instances.map((service) => service.settle()));
    expect(await registry.events('first_used')).to.deep.equal([
      { keyId: key.id, type: 'first_used', at: at(1_000), actor: null, via: null, successorKeyId: null, expiresAt: null },
    ]);
  });

  it('records no first use for a key that is never accepted', async () => {
    const registry = await aRegistry();
    const key = await registry.issue(at(MINUTE));
    const service = registry.instance();
    registry.clock.set(at(MINUTE));
    await rejectionOf(service.execute({ presentedKey: key.key }));
    await service.settle();
    expect(await registry.events('first_used')).to.deep.equal([]);
  });
});
