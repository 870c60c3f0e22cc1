import { expect } from 'chai';
import { ConflictError, NotFoundError } from '../../../domain/shared/domain-error.js';
import { T0 } from '../../support/builders.js';
import { rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';

describe('TransferCandidate (candidate transfer)', () => {
  const world = withWorld();

  async function aCardAndTarget() {
    const companyId = await world().company();
    const source = await world().vacancy(companyId, { title: 'Откуда' });
    const target = await world().vacancy(companyId, { title: 'Куда' });
    const { id } = await world().apply(companyId, { vacancyId: source.id });
    return { companyId, sourceId: source.id, targetId: target.id, id };
  }
  const transfer = (companyId: string, id: string, vacancyId: string) => world().use('transferCandidate').execute({ companyId, id, vacancyId });

  it('leaves the original card listed as it was and never lists the technical card', async () => {
    const { companyId, sourceId, targetId, id } = await aCardAndTarget();
    const before = await world().allCandidates(companyId);
    world().clock.advance(5000);
    const { technicalCardId } = await transfer(companyId, id, targetId);
    expect(technicalCardId).to.be.a('string').and.not.equal(id);
    expect(await world().allCandidates(companyId)).to.deep.equal(before);
    expect(before.map((c) => [c.id, c.vacancyId])).to.deep.equal([[id, sourceId]]);
    expect(await world().allCandidates(companyId, { vacancyId: targetId })).to.deep.equal([]);
    expect(await world().allCandidates(companyId, { since: T0 })).to.deep.equal([]);
  });

  it('puts the technical card in the first column of the target board, where it holds the column', async () => {
    const { companyId, targetId, id } = await aCardAndTarget();
    await world().use('setBoardColumns').execute({ companyId, vacancyId: targetId, columns: ['Перевод', 'NEW'] });
    await transfer(companyId, id, targetId);
    expect(await rejectionOf(world().use('setBoardColumns').execute({ companyId, vacancyId: targetId, columns: ['NEW'] }))).to.be.instanceOf(ConflictError);
  });

  it('refuses a transfer to the vacancy the card already belongs to', async () => {
    const { companyId, sourceId, id } = await aCardAndTarget();
    expect(await rejectionOf(transfer(companyId, id, sourceId))).to.be.instanceOf(ConflictError);
  });

  it('refuses an unknown target vacancy and an unknown card with NotFoundError', async () => {
    const { companyId, targetId, id } = await aCardAndTarget();
    expect(await rejectionOf(transfer(companyId, id, 'no-such-vacancy'))).to.be.instanceOf(NotFoundError);
    expect(await rejectionOf(transfer(companyId, 'no-such-card', targetId))).to.be.instanceOf(NotFoundError);
  });

  it('refuses another company\'s vacancy as target with NotFoundError', async () => {
    const { companyId, id } = await aCardAndTarget();
    const foreign = await world().vacancy(await world().company('Other'));
    expect(await rejectionOf(transfer(companyId, id, foreign.id))).to.be.instanceOf(NotFoundError);
  });

  it('refuses to transfer a technical card', async () => {
    const { companyId, sourceId, targetId, id } = await aCardAndTarget();
    const third = await world().vacancy(companyId);
    const { technicalCardId } = await transfer(companyId, id, targetId);
    expect(await rejectionOf(transfer(companyId, technicalCardId, third.id))).to.be.instanceOf(ConflictError);
    expect(await rejectionOf(transfer(companyId, technicalCardId, sourceId))).to.be.instanceOf(ConflictError);
  });
});
