import { expect } from 'chai';
import { resumeOf } from '../../../domain/candidate/resume.js';
import { NotFoundError, ValidationError } from '../../../domain/shared/domain-error.js';
import { aResume, T0 } from '../../support/builders.js';
import { pointersOf, rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';

describe('UpdateResume (candidate update-resume)', () => {
  const world = withWorld();

  async function aCard() {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId, { title: 'Аналитик' });
    const { id } = await world().apply(companyId, { vacancyId: vacancy.id, resume: aResume() });
    return { companyId, vacancyId: vacancy.id, id };
  }
  const update = (companyId: string, id: string, resume = aResume({ summary: 'Новое резюме', skills: ['SQL'] })) =>
    world().use('updateResume').execute({ companyId, id, resume });

  it('replaces the resume and makes the card match since afterwards', async () => {
    const { companyId, vacancyId, id } = await aCard();
    const cut = world().clock.advance(1000);
    const updatedAt = world().clock.advance(1000);
    expect(await world().allCandidates(companyId, { since: cut })).to.deep.equal([]);
    const view = await update(companyId, id);
    expect(view).to.deep.include({ id, vacancyId, vacancyTitle: 'Аналитик', stage: 'NEW' });
    expect(view.updatedAt.toISOString()).to.equal(updatedAt.toISOString());
    const [listed, ...others] = await world().allCandidates(companyId, { since: cut });
    expect(others).to.deep.equal([]);
    expect(listed?.id).to.equal(id);
    expect(listed?.resume).to.deep.include({ summary: 'Новое резюме', skills: ['SQL'] });
    expect(listed?.updatedAt.toISOString()).to.equal(updatedAt.toISOString());
    expect(listed?.createdAt.toISOString()).to.equal(T0.toISOString());
  });

  it('changes nothing, time included, for the same resume sent again', async () => {
    const { companyId, id } = await aCard();
    world().clock.advance(1000);
    expect((await update(companyId, id, aResume())).updatedAt.toISOString()).to.equal(T0.toISOString());
    expect(await world().allCandidates(companyId, { since: T0 })).to.deep.equal([]);
  });

  it('replaces the resume whole: fields not sent become empty', async () => {
    const { companyId, id } = await aCard();
    await update(companyId, id, resumeOf({ role: 'Аналитик данных' }));
    const resume = (await world().candidate(companyId, id))?.resume;
    expect(resume).to.deep.equal(resumeOf({ role: 'Аналитик данных' }));
  });

  it('refuses an invalid resume with pointers into it, and keeps the old one', async () => {
    const { companyId, id } = await aCard();
    const error = await rejectionOf(update(companyId, id, aResume({ experienceYears: 81, skills: ['я'.repeat(121)] })));
    expect(error).to.be.instanceOf(ValidationError);
    expect(pointersOf(error)).to.deep.equal(['/experienceYears', '/skills/0']);
    expect((await world().candidate(companyId, id))?.resume).to.deep.equal(aResume());
  });

  it('refuses an unknown card and another company\'s card with NotFoundError', async () => {
    const { id } = await aCard();
    expect(await rejectionOf(update(await world().company(), id))).to.be.instanceOf(NotFoundError);
  });
});
