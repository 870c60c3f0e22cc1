import { expect } from 'chai';
import { ConflictError, NotFoundError } from '../../../domain/shared/domain-error.js';
import { rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';

describe('DeleteCandidate (candidate delete)', () => {
  const world = withWorld();

  async function twoCards() {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    const a = await world().apply(companyId, { vacancyId: vacancy.id });
    const b = await world().apply(companyId, { vacancyId: vacancy.id });
    return { companyId, vacancyId: vacancy.id, gone: a.id, kept: b.id };
  }
  const remove = (companyId: string, id: string) => world().use('deleteCandidate').execute({ companyId, id });

  it('removes the card from the list and keeps the others', async () => {
    const { companyId, gone, kept } = await twoCards();
    expect(await remove(companyId, gone)).to.deep.equal({ id: gone, deleted: true });
    expect((await world().allCandidates(companyId)).map((c) => c.id)).to.deep.equal([kept]);
  });

  it('frees the externalId of a deleted application, so sending it again creates a new card', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    const first = await world().apply(companyId, { vacancyId: vacancy.id, externalId: 'portal-1' });
    await remove(companyId, first.id);
    const again = await world().apply(companyId, { vacancyId: vacancy.id, externalId: 'portal-1' });
    expect(again.status).to.equal('created');
    expect(again.id).to.not.equal(first.id);
  });

  it('removes the technical cards transferred from it as well', async () => {
    const { companyId, gone } = await twoCards();
    const target = await world().vacancy(companyId);
    await world().use('setBoardColumns').execute({ companyId, vacancyId: target.id, columns: ['Перевод', 'NEW'] });
    await world().use('transferCandidate').execute({ companyId, id: gone, vacancyId: target.id });
    await remove(companyId, gone);
    const result = await world().use('setBoardColumns').execute({ companyId, vacancyId: target.id, columns: ['NEW'] });
    expect(result.columns).to.deep.equal(['NEW']);
  });

  it('refuses a card deleted already, an unknown one and another company\'s with NotFoundError', async () => {
    const { companyId, gone, kept } = await twoCards();
    await remove(companyId, gone);
    expect(await rejectionOf(remove(companyId, gone))).to.be.instanceOf(NotFoundError);
    expect(await rejectionOf(remove(companyId, 'no-such-card'))).to.be.instanceOf(NotFoundError);
    expect(await rejectionOf(remove(await world().company(), kept))).to.be.instanceOf(NotFoundError);
    expect((await world().allCandidates(companyId)).map((c) => c.id)).to.deep.equal([kept]);
  });

  it('refuses to delete a technical card on its own', async () => {
    const { companyId, gone } = await twoCards();
    const target = await world().vacancy(companyId);
    const { technicalCardId } = await world().use('transferCandidate').execute({ companyId, id: gone, vacancyId: target.id });
    expect(await rejectionOf(remove(companyId, technicalCardId))).to.be.instanceOf(ConflictError);
  });
});
