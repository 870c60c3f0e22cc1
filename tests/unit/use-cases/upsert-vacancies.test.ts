import { expect } from 'chai';
import { NotFoundError, ValidationError } from '../../../domain/shared/domain-error.js';
import type { VacancyInput } from '../../../domain/vacancy/vacancy.js';
import { aVacancyInput, T0 } from '../../support/builders.js';
import { pointersOf, rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';
import { VACANCY_REPOSITORY } from '../../../application/ports/vacancy-repository.port.js';
import { resolve } from '../../../infrastructure/container/typed-binding.js';

/** Every field of a vacancy given as empty: what a PUT of a bare record means. */
function bareInput(title: string): VacancyInput {
  return {
    title, status: 'open', city: null, officeAddress: null, experience: null, workFormats: [], salaryFrom: null, salaryTo: null,
    salaryCurrency: null, salaryGross: null, employmentForm: null, workSchedule: [], skills: [], languages: [], professionalRoles: [],
    description: null, positionsCount: null, sourceUrl: null, publishedAt: null, recruiter: null, sourceRef: null,
  };
}

describe('UpsertVacancies (vacancy upsert)', () => {
  const world = withWorld();
  const upsert = (companyId: string, vacancies: (VacancyInput & { id?: string })[]) => world().use('upsertVacancies').execute({ companyId, vacancies });

  it('creates vacancies in input order, with a given id kept and a missing one generated', async () => {
    const companyId = await world().company();
    const created = await upsert(companyId, [aVacancyInput({ title: 'Первая' }), { ...aVacancyInput({ title: 'Вторая' }), id: 'hr-42' }]);
    expect(created.map((v) => v.title)).to.deep.equal(['Первая', 'Вторая']);
    expect(created[1]?.id).to.equal('hr-42');
    expect(created[0]?.id).to.be.a('string').and.not.equal('hr-42');
    for (const v of created) {
      expect([v.createdAt.toISOString(), v.updatedAt.toISOString()]).to.deep.equal([T0.toISOString(), T0.toISOString()]);
    }
    expect((await world().allVacancies(companyId)).map((v) => v.id)).to.have.members(created.map((v) => v.id));
  });

  it('gives a new vacancy the default board, so applications land in NEW', async () => {
    const companyId = await world().company();
    const [vacancy] = await upsert(companyId, [aVacancyInput()]);
    const { id } = await world().apply(companyId, { vacancyId: vacancy?.id as string });
    expect((await world().candidate(companyId, id))?.stage).to.equal('NEW');
  });

  it('replaces an existing vacancy whole, like a PUT: fields not given become null or empty', async () => {
    const companyId = await world().company();
    const [original] = await upsert(companyId, [{ ...aVacancyInput({ city: 'Алматы', skills: ['Go'], salaryFrom: 1, salaryTo: 2 }), id: 'vac-1' }]);
    const changeAt = world().clock.advance(60_000);
    const [replaced] = await upsert(companyId, [{ ...bareInput('Только название'), id: 'vac-1' }]);
    const [listed] = await world().allVacancies(companyId);
    for (const view of [replaced, listed]) {
      expect(view).to.deep.include({
        id: 'vac-1', title: 'Только название', city: null, skills: [], salaryFrom: null, salaryTo: null, workFormat: null, responsibilities: null, description: null,
      });
      expect(view?.createdAt.toISOString()).to.equal(original?.createdAt.toISOString());
      expect(view?.updatedAt.toISOString()).to.equal(changeAt.toISOString());
    }
  });

  it('keeps updatedAt of a vacancy sent again unchanged, so it does not match since', async () => {
    const companyId = await world().company();
    const [first] = await upsert(companyId, [{ ...aVacancyInput(), id: 'vac-1' }]);
    world().clock.advance(60_000);
    const [again] = await upsert(companyId, [{ ...aVacancyInput(), id: 'vac-1' }]);
    expect(again?.updatedAt.toISOString()).to.equal(first?.updatedAt.toISOString());
    expect(await world().allVacancies(companyId, { since: first?.updatedAt as Date })).to.deep.equal([]);
  });

  it('keeps an imported vacancy linked to its board record when a replacement names no source', async () => {
    const companyId = await world().company();
    await upsert(companyId, [{ ...aVacancyInput({ sourceRef: 'hh:118204771' }), id: 'vac-1' }]);
    world().clock.advance(60_000);
    await upsert(companyId, [{ ...bareInput('Переименована'), id: 'vac-1' }]);
    const vacancies = resolve(world().container, VACANCY_REPOSITORY);
    expect((await vacancies.findBySourceRef(companyId, 'hh:118204771'))?.title).to.equal('Переименована');
  });

  it('keeps the board of a vacancy it replaces', async () => {
    const companyId = await world().company();
    await upsert(companyId, [{ ...aVacancyInput(), id: 'vac-1' }]);
    await world().use('setBoardColumns').execute({ companyId, vacancyId: 'vac-1', columns: ['Отклик', 'Оффер'] });
    await upsert(companyId, [{ ...aVacancyInput({ title: 'Переименована' }), id: 'vac-1' }]);
    const { id } = await world().apply(companyId, { vacancyId: 'vac-1' });
    expect((await world().candidate(companyId, id))?.stage).to.equal('Отклик');
  });

  it('stores nothing of a batch with one bad record, and names the problems by record index', async () => {
    const companyId = await world().company();
    const [existing] = await upsert(companyId, [{ ...aVacancyInput({ title: 'Было' }), id: 'vac-1' }]);
    world().clock.advance(1000);
    const error = await rejectionOf(
      upsert(companyId, [
        aVacancyInput({ title: 'Новая' }),
        { ...aVacancyInput({ title: 'Стало', salaryFrom: 10, salaryTo: 5 }), id: 'vac-1' },
        aVacancyInput({ status: 'gone' as 'open' }),
      ]),
    );
    expect(error).to.be.instanceOf(ValidationError);
    expect(pointersOf(error)).to.deep.equal(['/1/salaryFrom', '/2/status']);
    const stored = await world().allVacancies(companyId);
    expect(stored.map((v) => [v.id, v.title, v.updatedAt.toISOString()])).to.deep.equal([['vac-1', 'Было', existing?.updatedAt.toISOString()]]);
  });

  it('refuses a batch that names one id twice, pointing at the repeat, and stores nothing', async () => {
    const companyId = await world().company();
    const error = await rejectionOf(upsert(companyId, [{ ...aVacancyInput(), id: 'dup' }, aVacancyInput(), { ...aVacancyInput(), id: 'dup' }]));
    expect(pointersOf(error)).to.deep.equal(['/2/id']);
    expect(await world().allVacancies(companyId)).to.deep.equal([]);
  });

  it('refuses ids that are empty, too long or hold other characters than letters, digits and . _ : -', async () => {
    const companyId = await world().company();
    expect(await upsert(companyId, [{ ...aVacancyInput(), id: 'a'.repeat(64) }, { ...aVacancyInput(), id: 'hh:123.a_b-c' }])).to.have.length(2);
    for (const id of ['', 'a'.repeat(65), 'has space', 'вакансия', 'a/b']) {
      expect([...new Set(pointersOf(await rejectionOf(upsert(companyId, [{ ...aVacancyInput(), id }]))))], JSON.stringify(id)).to.deep.equal(['/0/id']);
    }
  });

  it('keeps ids within a company: the same id in another company is another vacancy', async () => {
    const a = await world().company('A');
    const b = await world().company('B');
    await upsert(a, [{ ...aVacancyInput({ title: 'У A' }), id: 'vac-1' }]);
    await upsert(b, [{ ...aVacancyInput({ title: 'У B' }), id: 'vac-1' }]);
    expect((await world().allVacancies(a)).map((v) => v.title)).to.deep.equal(['У A']);
    expect((await world().allVacancies(b)).map((v) => v.title)).to.deep.equal(['У B']);
  });

  it('refuses an unknown company with NotFoundError', async () => {
    expect(await rejectionOf(upsert('no-such-company', [aVacancyInput()]))).to.be.instanceOf(NotFoundError);
  });
});
