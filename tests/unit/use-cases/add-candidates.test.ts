import { expect } from 'chai';
import type { ManualCandidate } from '../../../application/use-cases/add-candidates.use-case.js';
import { NotFoundError, ValidationError } from '../../../domain/shared/domain-error.js';
import { aPerson, aReferral, aResume, T0 } from '../../support/builders.js';
import { pointersOf, rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';

describe('AddCandidates (candidate add)', () => {
  const world = withWorld();
  const add = (companyId: string, candidates: ManualCandidate[]) => world().use('addCandidates').execute({ companyId, candidates });
  const manual = (vacancyId: string, overrides: Partial<ManualCandidate> = {}): ManualCandidate => ({
    vacancyId, candidate: aPerson(), resume: aResume(), referral: null, ...overrides,
  });

  it('adds manual cards in input order: source manual, no externalId or cover letter, in the first column', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId, { title: 'Бухгалтер' });
    const added = await add(companyId, [manual(vacancy.id, { candidate: aPerson({ name: 'Первый' }) }), manual(vacancy.id, { candidate: aPerson({ name: 'Второй' }), referral: aReferral() })]);
    expect(added.map((c) => c.person.name)).to.deep.equal(['Первый', 'Второй']);
    for (const card of added) {
      expect(card).to.deep.include({ vacancyId: vacancy.id, vacancyTitle: 'Бухгалтер', stage: 'NEW', source: 'manual', externalId: null, coverLetter: null });
      expect(card.createdAt.toISOString()).to.equal(T0.toISOString());
    }
    expect(added[1]?.referral).to.deep.equal(aReferral());
    expect((await world().allCandidates(companyId)).map((c) => c.id)).to.have.members(added.map((c) => c.id));
  });

  it('places a card in the column given, and in the first column of a custom board otherwise', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    await world().use('setBoardColumns').execute({ companyId, vacancyId: vacancy.id, columns: ['Отклик', 'Интервью'] });
    const added = await add(companyId, [manual(vacancy.id), manual(vacancy.id, { stage: 'Интервью' })]);
    expect(added.map((c) => c.stage)).to.deep.equal(['Отклик', 'Интервью']);
  });

  it('refuses a stage that is not a column of the board, by record index, and stores nothing', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    const error = await rejectionOf(add(companyId, [manual(vacancy.id), manual(vacancy.id, { stage: 'HIRED' })]));
    expect(error).to.be.instanceOf(ValidationError);
    expect(pointersOf(error)).to.deep.equal(['/1/stage']);
    expect((error as ValidationError).problems[0]?.message).to.contain('HIRED');
    expect(await world().allCandidates(companyId)).to.deep.equal([]);
  });

  it('reports an unknown vacancy, or another company\'s, by record index, and stores nothing', async () => {
    const companyId = await world().company();
    const foreign = await world().vacancy(await world().company('Other'));
    const vacancy = await world().vacancy(companyId);
    const error = await rejectionOf(add(companyId, [manual(vacancy.id), manual('no-such'), manual(vacancy.id), manual(foreign.id)]));
    expect(pointersOf(error)).to.deep.equal(['/1/vacancyId', '/3/vacancyId']);
    expect(await world().allCandidates(companyId)).to.deep.equal([]);
  });

  it('reports invalid fields under the record index, and stores nothing of the batch', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    const error = await rejectionOf(
      add(companyId, [manual(vacancy.id), manual(vacancy.id, { candidate: aPerson({ email: 'not-mail' }), resume: aResume({ experienceYears: -1 }) })]),
    );
    expect(pointersOf(error)).to.deep.equal(['/1/candidate/email', '/1/resume/experienceYears']);
    expect(await world().allCandidates(companyId)).to.deep.equal([]);
  });

  it('refuses an unknown company with NotFoundError', async () => {
    expect(await rejectionOf(add('no-such-company', []))).to.be.instanceOf(NotFoundError);
  });
});
