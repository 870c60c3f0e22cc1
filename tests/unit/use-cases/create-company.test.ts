import { ADMIN_CLI_ACTOR } from '../../../application/use-cases/actor.js';
import { expect } from 'chai';
import { ValidationError } from '../../../domain/shared/domain-error.js';
import { at } from '../../support/builders.js';
import { rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';

describe('CreateCompany (company create)', () => {
  const world = withWorld();

  it('creates a company with a new id at the current moment, to which keys can be issued', async () => {
    world().clock.set(at(42));
    const a = await world().use('createCompany').execute({ name: 'ТОО «Каспиан»' });
    const b = await world().use('createCompany').execute({ name: 'ТОО «Каспиан»' });
    expect(a).to.deep.include({ name: 'ТОО «Каспиан»', createdAt: at(42) });
    expect(a.id).to.not.equal(b.id);
    const key = await world().use('issueKey').execute({ companyId: a.id, name: 'k', scopes: ['vacancies:read'], expiresAt: null, actor: ADMIN_CLI_ACTOR });
    expect(key.companyId).to.equal(a.id);
  });

  it('refuses a blank name', async () => {
    expect(await rejectionOf(world().use('createCompany').execute({ name: ' ' }))).to.be.instanceOf(ValidationError);
  });
});
