import { expect } from 'chai';
import { ConflictError, NotFoundError } from '../../../domain/shared/domain-error.js';
import { T0 } from '../../support/builders.js';
import { rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';

describe('MoveCandidate (candidate move)', () => {
  const world = withWorld();

  async function aCard() {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId, { title: 'Повар' });
    const { id } = await world().apply(companyId, { vacancyId: vacancy.id });
    return { companyId, vacancyId: vacancy.id, id };
  }
  const move = (companyId: string, id: string, stage: string) => world().use('moveCandidate').execute({ companyId, id, stage });

  it('moves the card to another column and makes it match since', async () => {
    const { companyId, id, vacancyId } = await aCard();
    const movedAt = world().clock.advance(5000);
    const view = await move(companyId, id, 'INTERVIEW');
    expect(view).to.deep.include({ id, stage: 'INTERVIEW', vacancyId, vacancyTitle: 'Повар' });
    expect(view.updatedAt.toISOString()).to.equal(movedAt.toISOString());
    const listed = await world().allCandidates(companyId, { since: T0 });
    expect(listed.map((c) => [c.id, c.stage])).to.deep.equal([[id, 'INTERVIEW']]);
  });

  it('changes nothing, time included, when the card already stands in the column', async () => {
    const { companyId, id } = await aCard();
    world().clock.advance(5000);
    expect((await move(companyId, id, 'NEW')).updatedAt.toISOString()).to.equal(T0.toISOString());
    expect(await world().allCandidates(companyId, { since: T0 })).to.deep.equal([]);
  });

  it('moves along the columns of a board the company arranged', async () => {
    const { companyId, id, vacancyId } = await aCard();
    await world().use('setBoardColumns').execute({ companyId, vacancyId, columns: ['NEW', 'Тестовое задание'] });
    expect((await move(companyId, id, 'Тестовое задание')).stage).to.equal('Тестовое задание');
  });

  it('refuses a column the board does not have with ConflictError, and leaves the card', async () => {
    const { companyId, id } = await aCard();
    const error = await rejectionOf(move(companyId, id, 'HIRED'));
    expect(error).to.be.instanceOf(ConflictError);
    expect((error as Error).message).to.contain('HIRED');
    expect((await world().candidate(companyId, id))?.stage).to.equal('NEW');
  });

  it('refuses to move a card whose vacancy was deleted, with a clear ConflictError', async () => {
    const { companyId, id, vacancyId } = await aCard();
    await world().use('deleteVacancy').execute({ companyId, id: vacancyId });
    const error = await rejectionOf(move(companyId, id, 'NEW'));
    expect(error).to.be.instanceOf(ConflictError);
    expect((error as Error).message).to.match(/no vacancy/);
  });

  it('refuses an unknown card and another company\'s card with NotFoundError', async () => {
    const { id } = await aCard();
    const other = await world().company();
    expect(await rejectionOf(move(other, id, 'OFFER'))).to.be.instanceOf(NotFoundError);
    expect(await rejectionOf(move(other, 'no-such-card', 'OFFER'))).to.be.instanceOf(NotFoundError);
  });

  it('refuses to move a technical transfer card', async () => {
    const { companyId, id } = await aCard();
    const target = await world().vacancy(companyId);
    const { technicalCardId } = await world().use('transferCandidate').execute({ companyId, id, vacancyId: target.id });
    expect(await rejectionOf(move(companyId, technicalCardId, 'OFFER'))).to.be.instanceOf(ConflictError);
  });
});
