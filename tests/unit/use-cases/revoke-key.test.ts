import { ADMIN_CLI_ACTOR } from '../../../application/use-cases/actor.js';
import { expect } from 'chai';
import { NotFoundError } from '../../../domain/shared/domain-error.js';
import { UnauthorizedError } from '../../../domain/service-key/service-key.js';
import { at, T0 } from '../../support/builders.js';
import { pointersOf, rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';

describe('RevokeKey (key revoke)', () => {
  const world = withWorld();

  async function issued() {
    const companyId = await world().company();
    const key = await world().use('issueKey').execute({ companyId, name: 'portal', scopes: ['vacancies:read'], expiresAt: null, actor: ADMIN_CLI_ACTOR });
    return { companyId, key };
  }

  it('revokes at the current moment, after which the key is refused', async () => {
    const { companyId, key } = await issued();
    world().clock.set(at(5_000));
    const result = await world().use('revokeKey').execute({ keyId: key.id, actor: ADMIN_CLI_ACTOR });
    expect(result).to.deep.equal({
      id: key.id, name: 'portal', scopes: ['vacancies:read'], status: 'revoked', createdAt: T0, createdBy: 'admin-cli', expiresAt: null,
      revokedAt: at(5_000), revokedBy: 'admin-cli', lastUsedAt: null, rolledFrom: null, rolledTo: null,
    });
    expect(await rejectionOf(world().use('authenticateKey').execute({ presentedKey: key.key }))).to.be.instanceOf(UnauthorizedError);
    const [listing] = await world().use('listKeys').execute({ companyId });
    expect(listing?.revokedAt?.toISOString()).to.equal(at(5_000).toISOString());
  });

  it('keeps the first moment when a key is revoked again', async () => {
    const { key } = await issued();
    world().clock.set(at(5_000));
    await world().use('revokeKey').execute({ keyId: key.id, actor: ADMIN_CLI_ACTOR });
    world().clock.set(at(9_000));
    expect((await world().use('revokeKey').execute({ keyId: key.id, actor: ADMIN_CLI_ACTOR })).revokedAt.toISOString()).to.equal(at(5_000).toISOString());
  });

  it('keeps the recorded last use of the key', async () => {
    const { companyId, key } = await issued();
    world().clock.set(at(1_000));
    await world().use('authenticateKey').execute({ presentedKey: key.key });
    world().clock.set(at(2_000));
    await world().use('revokeKey').execute({ keyId: key.id, actor: ADMIN_CLI_ACTOR });
    const [listing] = await world().use('listKeys').execute({ companyId });
    expect(listing?.lastUsedAt?.toISOString()).to.equal(at(1_000).toISOString());
  });

  it('refuses an unknown key with NotFoundError', async () => {
    expect(await rejectionOf(world().use('revokeKey').execute({ keyId: 'AAAAAAAAAAAA', actor: ADMIN_CLI_ACTOR }))).to.be.instanceOf(NotFoundError);
  });

  it('leaves the company\'s other keys working', async () => {
    const { companyId, key } = await issued();
    const other = await world().use('issueKey').execute({ companyId, name: 'second', scopes: ['vacancies:read'], expiresAt: null, actor: ADMIN_CLI_ACTOR });
    await world().use('revokeKey').execute({ keyId: key.id, actor: ADMIN_CLI_ACTOR });
    expect((await world().use('authenticateKey').execute({ presentedKey: other.key })).keyId).to.equal(other.id);
  });

  it('records one revoked event, by the actor; revoking again records nothing and changes nothing', async () => {
    const { companyId, key } = await issued();
    const carol = { name: 'carol@platform', via: 'platform-token:Tok0Ab1Cd2Ef' };
    world().clock.set(at(5_000));
    await world().use('revokeKey').execute({ companyId, keyId: key.id, actor: carol });
    world().clock.set(at(6_000));
    const again = await world().use('revokeKey').execute({ companyId, keyId: key.id, actor: ADMIN_CLI_ACTOR });
    expect(again).to.deep.include({ revokedAt: at(5_000), revokedBy: 'carol@platform', status: 'revoked' });
    const { items } = await world().use('listKeyEvents').execute({ companyId, cursor: null });
    expect(items.filter((e) => e.type === 'revoked').map(({ id: _id, ...e }) => e)).to.deep.equal([
      { keyId: key.id, type: 'revoked', at: at(5_000), actor: 'carol@platform', via: carol.via, successorKeyId: null, expiresAt: null },
    ]);
  });

  it('does not find, and does not revoke, a key of another company when a company is given', async () => {
    const { key } = await issued();
    const stranger = await world().company('Чужая');
    expect(await rejectionOf(world().use('revokeKey').execute({ companyId: stranger, keyId: key.id, actor: ADMIN_CLI_ACTOR }))).to.be.instanceOf(NotFoundError);
    expect((await world().use('authenticateKey').execute({ presentedKey: key.key })).keyId).to.equal(key.id);
    expect(world().database.serviceKeys.get(key.id)?.revokedAt).to.equal(null);
  });

  it('refuses a bad actor at /actor and revokes nothing', async () => {
    const { key } = await issued();
    expect(pointersOf(await rejectionOf(world().use('revokeKey').execute({ keyId: key.id, actor: { name: 'a\u0007b', via: 'admin-cli' } })))).to.deep.equal(['/actor']);
    expect(world().database.serviceKeys.get(key.id)?.revokedAt).to.equal(null);
  });
});
