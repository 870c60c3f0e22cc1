import { expect } from 'chai';
import { parseServiceKey } from '../../../domain/service-key/service-key-format.js';
import { UnauthorizedError } from '../../../domain/service-key/service-key.js';
import { at } from '../../support/builders.js';
import { rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';

describe('AuthenticateKey (X-API-Key)', () => {
  const world = withWorld();

  async function issued(options: { scopes?: string[]; expiresAt?: Date | null } = {}) {
    const companyId = await world().company();
    const key = await world().use('issueKey').execute({
      companyId, name: 'portal', scopes: options.scopes ?? ['vacancies:read', 'applications:write'], expiresAt: options.expiresAt ?? null,
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
    await world().use('revokeKey').execute({ keyId: revoked.key.id });
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
