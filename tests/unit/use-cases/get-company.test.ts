import { expect } from 'chai';
import { NotFoundError } from '../../../domain/shared/domain-error.js';
import { T0 } from '../../support/builders.js';
import { rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';

describe('GetCompany', () => {
  const world = withWorld();

  it('answers a company as created', async () => {
    const created = await world().use('createCompany').execute({ name: 'ТОО «Шёлковый путь»' });
    expect(await world().use('getCompany').execute({ companyId: created.id })).to.deep.equal({ id: created.id, name: 'ТОО «Шёлковый путь»', createdAt: T0 });
  });

  it('refuses an unknown company with NotFoundError', async () => {
    expect(await rejectionOf(world().use('getCompany').execute({ companyId: 'no-such-company' }))).to.be.instanceOf(NotFoundError);
  });
});
