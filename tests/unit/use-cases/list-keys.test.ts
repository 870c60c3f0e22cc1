import { ADMIN_CLI_ACTOR } from '../../../application/use-cases/actor.js';
import { expect } from 'chai';
import { NotFoundError } from '../../../domain/shared/domain-error.js';
import { at, T0 } from '../../support/builders.js';
import { rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';

describe('ListKeys (key list)', () => {
  const world = withWorld();

  it('lists the company\'s keys oldest first, with their state and without hash, secret or company', async () => {
    const companyId = await world().company();
    const first = await world().use('issueKey').execute({ companyId, name: 'первый', scopes: ['vacancies:read'], expiresAt: at(3_600_000), actor: ADMIN_CLI_ACTOR });
    world().clock.advance(1_000);
    const second = await world().use('issueKey').execute({ companyId, name: 'второй', scopes: ['candidates:read'], expiresAt: null, actor: ADMIN_CLI_ACTOR });
    await world().use('revokeKey').execute({ keyId: second.id, actor: ADMIN_CLI_ACTOR });
    const listed = await world().use('listKeys').execute({ companyId });
    expect(listed).to.deep.equal([
      {
        id: first.id, name: 'первый', scopes: ['vacancies:read'], status: 'active', createdAt: T0, createdBy: 'admin-cli', expiresAt: at(3_600_000),
        revokedAt: null, revokedBy: null, lastUsedAt: null, rolledFrom: null, rolledTo: null,
      },
      {
        id: second.id, name: 'второй', scopes: ['candidates:read'], status: 'revoked', createdAt: at(1_000), createdBy: 'admin-cli', expiresAt: null,
        revokedAt: at(1_000), revokedBy: 'admin-cli', lastUsedAt: null, rolledFrom: null, rolledTo: null,
      },
    ]);
    expect(JSON.stringify(listed)).to.not.contain(second.key.split('_')[2]);
  });

  it('lists no key of another company', async () => {
    const a = await world().company('A');
    const b = await world().company('B');
    await world().use('issueKey').execute({ companyId: a, name: 'a', scopes: ['vacancies:read'], expiresAt: null, actor: ADMIN_CLI_ACTOR });
    expect(await world().use('listKeys').execute({ companyId: b })).to.deep.equal([]);
  });

  it('refuses an unknown company with NotFoundError', async () => {
    expect(await rejectionOf(world().use('listKeys').execute({ companyId: 'no-such-company' }))).to.be.instanceOf(NotFoundError);
  });
});
