import { ADMIN_CLI_ACTOR } from '../../../application/use-cases/actor.js';
import { expect } from 'chai';
import { InMemoryCompanyRepository } from '../../../adapters/persistence/in-memory/in-memory-company.repository.js';
import { InMemoryDatabase } from '../../../adapters/persistence/in-memory/in-memory-database.js';
import { InMemoryServiceKeyRepository } from '../../../adapters/persistence/in-memory/in-memory-service-key.repository.js';
import { NodeCryptoSecrets } from '../../../adapters/system/node-crypto-secrets.js';
import { UuidV7IdGenerator } from '../../../adapters/system/uuid-v7-id-generator.js';
import type { Secrets } from '../../../application/ports/secrets.port.js';
import { AuthenticateKey } from '../../../application/use-cases/authenticate-key.use-case.js';
import { CreateCompany } from '../../../application/use-cases/create-company.use-case.js';
import { IssueKey } from '../../../application/use-cases/issue-key.use-case.js';
import { parseServiceKey } from '../../../domain/service-key/service-key-format.js';
import { UnauthorizedError } from '../../../domain/service-key/service-key.js';
import { at } from '../../support/builders.js';
import { rejectionOf } from '../../support/catching.js';
import { ManualClock } from '../../support/manual-clock.js';
import { withWorld } from '../../support/use-case-world.js';

describe('AuthenticateKey (X-API-Key)', () => {
  const world = withWorld();

  async function issued(options: { scopes?: string[]; expiresAt?: Date | null } = {}) {
    const companyId = await world().company();
    const key = await world().use('issueKey').execute({
      companyId, name: 'portal', scopes: options.scopes ?? ['vacancies:read', 'applications:write'], expiresAt: options.expiresAt ?? null, actor: ADMIN_CLI_ACTOR,
    });
    return { companyId, key };
  }

  const authenticate = (presentedKey: string | undefined) => world().use('authenticateKey').execute({ presentedKey });

  async function lastUsedAt(companyId: string): Promise<string | null> {
    const [listing] = await world().use('listKeys').execute({ companyId });
    return listing?.lastUsedAt?.toISOString() ?? null;
  }

  it('names the key, its company and its scopes for a valid key', async () => {
    const { companyId, key } = await issued();
    expect(await authenticate(key.key)).to.deep.equal({ keyId: key.id, companyId, scopes: ['vacancies:read', 'applications:write'] });
  });

  it('refuses a missing, malformed, unknown, wrong, revoked or expired key with one and the same UnauthorizedError', async () => {
    const { key } = await issued({ expiresAt: at(60_000) });
    const revoked = await issued();
    await world().use('revokeKey').execute({ keyId: revoked.key.id, actor: ADMIN_CLI_ACTOR });
    const { keyId, secret } = parseServiceKey(key.key) ?? { keyId: '', secret: '' };
    const wrongSecret = `ik_${keyId}_${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    const unknownId = `ik_${keyId.slice(0, -1)}${keyId.endsWith('A') ? 'B' : 'A'}_${secret}`;

    const presented: Record<string, string | undefined> = {
      missing: undefined,
      empty: '',
      malformed: 'please-let-me-in',
      'another prefix': key.key.replace('ik_', 'IK_'),
      'unknown key id': unknownId,
      'wrong secret': wrongSecret,
      revoked: revoked.key.key,
    };
    const messages = new Set<string>();
    for (const [what, value] of Object.entries(presented)) {
      const error = await rejectionOf(authenticate(value));
      expect(error, what).to.be.instanceOf(UnauthorizedError);
      messages.add((error as Error).message);
    }
    world().clock.set(at(60_000));
    const expired = await rejectionOf(authenticate(key.key));
    expect(expired, 'expired').to.be.instanceOf(UnauthorizedError);
    messages.add((expired as Error).message);
    expect(messages.size).to.equal(1);
  });

  it('accepts a key until the moment it expires', async () => {
    const { key } = await issued({ expiresAt: at(60_000) });
    world().clock.set(at(59_999));
    expect((await authenticate(key.key)).keyId).to.equal(key.id);
  });

  it('records lastUsedAt at the first use and then at most once a minute', async () => {
    const { companyId, key } = await issued();
    expect(await lastUsedAt(companyId)).to.equal(null);
    world().clock.set(at(1_000));
    await authenticate(key.key);
    expect(await lastUsedAt(companyId)).to.equal(at(1_000).toISOString());
    world().clock.set(at(60_999));
    await authenticate(key.key);
    expect(await lastUsedAt(companyId)).to.equal(at(1_000).toISOString());
    world().clock.set(at(61_000));
    await authenticate(key.key);
    expect(await lastUsedAt(companyId)).to.equal(at(61_000).toISOString());
  });

  it('records no use for a refused key', async () => {
    const { companyId, key } = await issued();
    const { keyId, secret } = parseServiceKey(key.key) ?? { keyId: '', secret: '' };
    await rejectionOf(authenticate(`ik_${keyId}_${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`));
    expect(await lastUsedAt(companyId)).to.equal(null);
  });
});

/** The real secrets port, counting its hashings and comparisons and keeping what was compared. */
class CountingSecrets implements Secrets {
  hashings = 0;
  readonly comparisons: { presented: string; stored: string }[] = [];
  private readonly inner = new NodeCryptoSecrets();

  randomBase62(length: number): string {
    return this.inner.randomBase62(length);
  }
  sha256(text: string): string {
    this.hashings += 1;
    return this.inner.sha256(text);
  }
  hashesEqual(a: string, b: string): boolean {
    this.comparisons.push({ presented: a, stored: b });
    return this.inner.hashesEqual(a, b);
  }
}

describe('AuthenticateKey: the work of a refusal', () => {
  async function setUp() {
    const db = new InMemoryDatabase();
    const clock = new ManualClock();
    const secrets = new CountingSecrets();
    const companies = new InMemoryCompanyRepository(db);
    const keys = new InMemoryServiceKeyRepository(db);
    const company = await new CreateCompany(companies, new UuidV7IdGenerator(), clock).execute({ name: 'ТОО «Тест»' });
    const ids = new UuidV7IdGenerator();
    const issued = await new IssueKey(companies, keys, secrets, ids, clock).execute({ companyId: company.id, scopes: ['vacancies:read'], name: 'portal', expiresAt: null, actor: ADMIN_CLI_ACTOR });
    const authenticateKey = new AuthenticateKey(keys, secrets, ids, clock);
    const { keyId, secret } = parseServiceKey(issued.key) ?? { keyId: '', secret: '' };
    const other = (text: string) => `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`;
    /** The hashings and comparisons that authenticating `presented` costs. */
    async function workOf(presented: string) {
      const hashingsBefore = secrets.hashings;
      const comparisonsBefore = secrets.comparisons.length;
      expect(await rejectionOf(authenticateKey.execute({ presentedKey: presented }))).to.be.instanceOf(UnauthorizedError);
      return { hashings: secrets.hashings - hashingsBefore, comparisons: secrets.comparisons.slice(comparisonsBefore) };
    }
    return { workOf, wrongSecret: `ik_${keyId}_${other(secret)}`, unknownId: `ik_${other(keyId)}_${secret}` };
  }

  it('hashes the secret and compares it once, in constant time, against a stand-in hash when the key id is unknown', async () => {
    const { workOf, unknownId } = await setUp();
    const unknown = await workOf(unknownId);
    expect(unknown.hashings, 'the presented secret alone is hashed').to.equal(1);
    expect(unknown.comparisons).to.have.length(1);
    const [comparison] = unknown.comparisons;
    expect(comparison!.stored, 'a hash of the same form as a stored one').to.match(/^[0-9a-f]{64}$/);
    expect(comparison!.stored).to.not.equal(comparison!.presented);
  });

  it('does the same hashing and comparison for an unknown key id as for a known id with a wrong secret', async () => {
    const { workOf, unknownId, wrongSecret } = await setUp();
    const unknown = await workOf(unknownId);
    const wrong = await workOf(wrongSecret);
    expect({ hashings: unknown.hashings, comparisons: unknown.comparisons.length }).to.deep.equal({ hashings: wrong.hashings, comparisons: wrong.comparisons.length });
    expect(unknown.comparisons[0]!.stored.length).to.equal(wrong.comparisons[0]!.stored.length);
  });
});
