import { expect } from 'chai';
import { NotFoundError } from '../../../domain/shared/domain-error.js';
import { rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';

describe('DeleteVacancy (vacancy delete)', () => {
  const world = withWorld();

  it('removes the vacancy from every list', async () => {
    const companyId = await world().company();
    const kept = await world().vacancy(companyId);
    const gone = await world().vacancy(companyId, { status: 'archived' });
    expect(await world().use('deleteVacancy').execute({ companyId, id: gone.id })).to.deep.equal({ id: gone.id, deleted: true });
    expect((await world().allVacancies(companyId)).map((v) => v.id)).to.deep.equal([kept.id]);
  });

  it('keeps its candidates without vacancy, title and stage, modified at the deletion so that since finds them', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    const other = await world().vacancy(companyId);
    const { id } = await world().apply(companyId, { vacancyId: vacancy.id });
    const { id: untouched } = await world().apply(companyId, { vacancyId: other.id });
    const cut = world().clock.advance(1000);
    const deletedAt = world().clock.advance(1000);
    await world().use('deleteVacancy').execute({ companyId, id: vacancy.id });
    const changed = await world().allCandidates(companyId, { since: cut });
    expect(changed.map((c) => c.id)).to.deep.equal([id]);
    expect(changed[0]).to.deep.include({ vacancyId: null, vacancyTitle: null, stage: null });
    expect(changed[0]?.updatedAt.toISOString()).to.equal(deletedAt.toISOString());
    expect((await world().candidate(companyId, untouched))?.vacancyId).to.equal(other.id);
  });

  it('refuses applications to the deleted vacancy with NotFoundError', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    await world().use('deleteVacancy').execute({ companyId, id: vacancy.id });
    expect(await rejectionOf(world().apply(companyId, { vacancyId: vacancy.id }))).to.be.instanceOf(NotFoundError);
  });

  it('drops the board, so a vacancy made again under the id starts with the default columns', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId, { id: 'vac-1' });
    await world().use('setBoardColumns').execute({ companyId, vacancyId: vacancy.id, columns: ['Отклик'] });
    await world().use('deleteVacancy').execute({ companyId, id: vacancy.id });
    await world().vacancy(companyId, { id: 'vac-1' });
    const { id } = await world().apply(companyId, { vacancyId: 'vac-1' });
    expect((await world().candidate(companyId, id))?.stage).to.equal('NEW');
  });

  it('refuses an unknown vacancy and another company\'s vacancy with NotFoundError, deleting nothing', async () => {
    const owner = await world().company('Owner');
    const other = await world().company('Other');
    const vacancy = await world().vacancy(owner);
    expect(await rejectionOf(world().use('deleteVacancy').execute({ companyId: owner, id: 'no-such' }))).to.be.instanceOf(NotFoundError);
    expect(await rejectionOf(world().use('deleteVacancy').execute({ companyId: other, id: vacancy.id }))).to.be.instanceOf(NotFoundError);
    expect((await world().allVacancies(owner)).map((v) => v.id)).to.deep.equal([vacancy.id]);
  });
});
