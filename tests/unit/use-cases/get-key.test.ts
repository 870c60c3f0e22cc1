import { expect } from 'chai';
import { ADMIN_CLI_ACTOR } from '../../../application/use-cases/actor.js';
import { NotFoundError } from '../../../domain/shared/domain-error.js';
import { at, T0 } from '../../support/builders.js';
import { rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';

describe('GetKey', () => {
  const world = withWorld();

  it('answers a key of the company as the list does, with its status now and without hash or secret', async () => {
    const companyId = await world().company();
    const issued = await world().use('issueKey').execute({ companyId, name: 'портал', scopes: ['vacancies:read'], expiresAt: at(60_000), actor: ADMIN_CLI_ACTOR });
    const got = await world().use('getKey').execute({ companyId, keyId: issued.id });
    expect(got).to.deep.equal({
      id: issued.id, name: 'портал', scopes: ['vacancies:read'], status: 'active', createdAt: T0, createdBy: 'admin-cli', expiresAt: at(60_000),
      revokedAt: null, revokedBy: null, lastUsedAt: null, rolledFrom: null, rolledTo: null,
    });
    expect(got).to.deep.equal((await world().use('listKeys').execute({ companyId }))[0]);
    world().clock.advance(60_000);
    expect((await world().use('getKey').execute({ companyId, keyId: issued.id })).status).to.equal('expired');
  });

  it('refuses a key of another company and an unknown key alike, with NotFoundError', async () => {
    const [a, b] = [await world().company('A'), await world().company('B')];
    const issued = await world().use('issueKey').execute({ companyId: a, name: 'a', scopes: ['vacancies:read'], expiresAt: null, actor: ADMIN_CLI_ACTOR });
    const otherCompany = await rejectionOf(world().use('getKey').execute({ companyId: b, keyId: issued.id }));
    const unknown = await rejectionOf(world().use('getKey').execute({ companyId: a, keyId: 'Zz9Yy8Xx7Ww6' }));
    expect(otherCompany).to.be.instanceOf(NotFoundError);
    expect(unknown).to.be.instanceOf(NotFoundError);
    expect((otherCompany as Error).message).to.equal(`Service key ${issued.id} not found.`);
  });
});
