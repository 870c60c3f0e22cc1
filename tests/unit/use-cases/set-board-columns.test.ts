import { expect } from 'chai';
import { ConflictError, NotFoundError, ValidationError } from '../../../domain/shared/domain-error.js';
import { pointersOf, rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';

describe('SetBoardColumns (board set-columns)', () => {
  const world = withWorld();
  const setColumns = (companyId: string, vacancyId: string, columns: string[]) => world().use('setBoardColumns').execute({ companyId, vacancyId, columns });

  async function stageOfNextApplication(companyId: string, vacancyId: string): Promise<string | null | undefined> {
    const { id } = await world().apply(companyId, { vacancyId });
    return (await world().candidate(companyId, id))?.stage;
  }

  it('renames, adds and reorders columns, and new applications land in the new first column', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    const result = await setColumns(companyId, vacancy.id, ['Скрининг', 'NEW', 'Оффер']);
    expect(result).to.deep.equal({ vacancyId: vacancy.id, columns: ['Скрининг', 'NEW', 'Оффер'] });
    expect(await stageOfNextApplication(companyId, vacancy.id)).to.equal('Скрининг');
  });

  it('refuses to drop a column that holds cards, naming it, and keeps the board as it was', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    const { id } = await world().apply(companyId, { vacancyId: vacancy.id });
    await world().use('moveCandidate').execute({ companyId, id, stage: 'OFFER' });
    const error = await rejectionOf(setColumns(companyId, vacancy.id, ['Скрининг', 'NEW']));
    expect(error).to.be.instanceOf(ConflictError);
    expect((error as Error).message).to.contain('OFFER');
    expect(await stageOfNextApplication(companyId, vacancy.id)).to.equal('NEW');
  });

  it('drops a column once its cards moved away', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    const { id } = await world().apply(companyId, { vacancyId: vacancy.id });
    await world().use('moveCandidate').execute({ companyId, id, stage: 'INTERVIEW' });
    expect((await setColumns(companyId, vacancy.id, ['INTERVIEW', 'OFFER'])).columns).to.deep.equal(['INTERVIEW', 'OFFER']);
  });

  it('does not count cards of other vacancies as holding a column', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    const other = await world().vacancy(companyId);
    await world().apply(companyId, { vacancyId: other.id });
    expect((await setColumns(companyId, vacancy.id, ['Отклик'])).columns).to.deep.equal(['Отклик']);
  });

  it('refuses repeated and blank columns with pointers to them', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    const error = await rejectionOf(setColumns(companyId, vacancy.id, ['NEW', ' ', 'NEW']));
    expect(error).to.be.instanceOf(ValidationError);
    expect([...new Set(pointersOf(error))]).to.deep.equal(['/columns/1', '/columns/2']);
    expect(await stageOfNextApplication(companyId, vacancy.id)).to.equal('NEW');
  });

  it('refuses an unknown vacancy and another company\'s vacancy with NotFoundError', async () => {
    const companyId = await world().company();
    const foreign = await world().vacancy(await world().company('Other'));
    expect(await rejectionOf(setColumns(companyId, 'no-such', ['NEW']))).to.be.instanceOf(NotFoundError);
    expect(await rejectionOf(setColumns(companyId, foreign.id, ['NEW']))).to.be.instanceOf(NotFoundError);
  });
});
