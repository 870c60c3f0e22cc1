import { expect } from 'chai';
import { TransferToOwnVacancyError } from '../../../domain/candidate/transfer-errors.js';
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
  /** Every stored card, technical ones included, in id order. */
  const storedCards = () => structuredClone([...world().database.candidates.values()]).sort((a, b) => (a.id < b.id ? -1 : 1));

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

  it('refuses a transfer to the vacancy the card already belongs to with its own code, and creates nothing', async () => {
    const { companyId, sourceId, id } = await aCardAndTarget();
    const before = storedCards();
    const error = await rejectionOf(transfer(companyId, id, sourceId));
    expect(error).to.be.instanceOf(TransferToOwnVacancyError);
    expect(error).to.include({ code: 'transfer_to_own_vacancy', message: `Candidate ${id} already belongs to vacancy ${sourceId}; a transfer needs another vacancy.` });
    expect(storedCards()).to.deep.equal(before);
  });

  it('returns the technical card already there for a repeated transfer, and creates or changes nothing', async () => {
    const { companyId, targetId, id } = await aCardAndTarget();
    const first = await transfer(companyId, id, targetId);
    const after = storedCards();
    world().clock.advance(60_000);
    expect(await transfer(companyId, id, targetId)).to.deep.equal(first);
    expect(await transfer(companyId, id, targetId)).to.deep.equal(first);
    expect(storedCards()).to.deep.equal(after);
    expect(after.filter((card) => card.technical)).to.have.length(1);
  });

  it('answers concurrent transfers of one card to one vacancy with one technical card', async () => {
    const { companyId, targetId, id } = await aCardAndTarget();
    const results = await Promise.all(Array.from({ length: 5 }, () => transfer(companyId, id, targetId)));
    expect(new Set(results.map((r) => r.technicalCardId)).size).to.equal(1);
    expect(storedCards().filter((card) => card.technical).map((card) => card.id)).to.deep.equal([results[0]?.technicalCardId]);
  });

  it('makes one technical card per vacancy when one card goes to several', async () => {
    const { companyId, targetId, id } = await aCardAndTarget();
    const third = await world().vacancy(companyId);
    const toTarget = await transfer(companyId, id, targetId);
    const toThird = await transfer(companyId, id, third.id);
    expect(toThird.technicalCardId).to.not.equal(toTarget.technicalCardId);
    expect(storedCards().filter((card) => card.technical).map((card) => card.vacancyId).sort()).to.deep.equal([targetId, third.id].sort());
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
