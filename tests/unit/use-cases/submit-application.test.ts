import { expect } from 'chai';
import { resumeOf } from '../../../domain/candidate/resume.js';
import { NotFoundError, ValidationError } from '../../../domain/shared/domain-error.js';
import { VACANCY_STATUSES } from '../../../domain/vacancy/vacancy-status.js';
import { aReferral, T0 } from '../../support/builders.js';
import { pointersOf, rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';

describe('SubmitApplication (POST /applications)', () => {
  const world = withWorld();

  it('creates a card in the first column of the default board, with what the client sent', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId, { title: 'Курьер' });
    world().clock.advance(1000);
    const result = await world().apply(companyId, {
      vacancyId: vacancy.id,
      externalId: 'portal-1',
      source: 'career-portal',
      coverLetter: 'Хочу у вас работать',
      resume: resumeOf({ role: 'Курьер', skills: ['Вождение'] }),
      referral: aReferral(),
    });
    expect(result.status).to.equal('created');
    const [card, ...others] = await world().allCandidates(companyId);
    expect(others).to.deep.equal([]);
    expect(card).to.deep.include({
      id: result.id,
      vacancyId: vacancy.id,
      vacancyTitle: 'Курьер',
      stage: 'NEW',
      source: 'career-portal',
      externalId: 'portal-1',
      coverLetter: 'Хочу у вас работать',
    });
    expect(card?.person).to.deep.include({ name: 'Алишер Каримов', email: 'alisher@example.uz', location: 'Ташкент' });
    expect(card?.resume).to.deep.include({ role: 'Курьер', skills: ['Вождение'] });
    expect(card?.referral).to.deep.equal(aReferral());
    expect(card?.createdAt.getTime()).to.equal(T0.getTime() + 1000);
    expect(card?.updatedAt.getTime()).to.equal(T0.getTime() + 1000);
  });

  it('places the card in the first column of a board the company arranged itself', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    await world().use('setBoardColumns').execute({ companyId, vacancyId: vacancy.id, columns: ['Отклик', 'NEW', 'Интервью'] });
    const { id } = await world().apply(companyId, { vacancyId: vacancy.id });
    expect((await world().candidate(companyId, id))?.stage).to.equal('Отклик');
  });

  it('returns the earlier id for a repeated externalId and creates nothing', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    const first = await world().apply(companyId, { vacancyId: vacancy.id, externalId: 'portal-7' });
    const before = await world().allCandidates(companyId);
    world().clock.advance(60_000);
    const again = await world().apply(companyId, { vacancyId: vacancy.id, externalId: 'portal-7' });
    expect(again).to.deep.equal({ status: 'duplicate', id: first.id, bodyDiffers: false });
    expect(await world().allCandidates(companyId)).to.deep.equal(before);
  });

  it('says the body differs when a repeated externalId comes with another body, and still changes nothing', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    const other = await world().vacancy(companyId);
    const first = await world().apply(companyId, { vacancyId: vacancy.id, externalId: 'portal-8', coverLetter: 'Первое письмо' });
    const before = await world().allCandidates(companyId);
    const changed = await world().apply(companyId, { vacancyId: vacancy.id, externalId: 'portal-8', coverLetter: 'Второе письмо' });
    const elsewhere = await world().apply(companyId, { vacancyId: other.id, externalId: 'portal-8', coverLetter: 'Первое письмо' });
    expect(changed).to.deep.equal({ status: 'duplicate', id: first.id, bodyDiffers: true });
    expect(elsewhere).to.deep.equal({ status: 'duplicate', id: first.id, bodyDiffers: true });
    expect(await world().allCandidates(companyId)).to.deep.equal(before);
  });

  it('reports a duplicate even when the repeated application names a vacancy that no longer exists', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    const first = await world().apply(companyId, { vacancyId: vacancy.id, externalId: 'portal-9' });
    await world().use('deleteVacancy').execute({ companyId, id: vacancy.id });
    const again = await world().apply(companyId, { vacancyId: vacancy.id, externalId: 'portal-9' });
    expect(again).to.deep.include({ status: 'duplicate', id: first.id });
  });

  it('evaluates externalId within the calling company only', async () => {
    const a = await world().company('A');
    const b = await world().company('B');
    const first = await world().apply(a, { vacancyId: (await world().vacancy(a)).id, externalId: 'shared-id' });
    const second = await world().apply(b, { vacancyId: (await world().vacancy(b)).id, externalId: 'shared-id' });
    expect(second.status).to.equal('created');
    expect(second.id).to.not.equal(first.id);
    expect((await world().allCandidates(b)).map((c) => c.id)).to.deep.equal([second.id]);
  });

  it('answers NotFoundError for a vacancy that does not exist, and creates nothing', async () => {
    const companyId = await world().company();
    const error = await rejectionOf(world().apply(companyId, { vacancyId: 'no-such-vacancy' }));
    expect(error).to.be.instanceOf(NotFoundError);
    expect(error).to.have.property('code', 'not_found');
    expect(await world().allCandidates(companyId)).to.deep.equal([]);
  });

  it('answers for another company\'s vacancy exactly as for a vacancy that does not exist', async () => {
    const owner = await world().company('Owner');
    const prober = await world().company('Prober');
    const foreign = await world().vacancy(owner);
    const foreignError = await rejectionOf(world().apply(prober, { vacancyId: foreign.id, externalId: 'probe-1' }));
    await world().use('deleteVacancy').execute({ companyId: owner, id: foreign.id });
    const missingError = await rejectionOf(world().apply(prober, { vacancyId: foreign.id, externalId: 'probe-2' }));
    expect(foreignError).to.be.instanceOf(NotFoundError);
    expect(missingError).to.be.instanceOf(NotFoundError);
    expect({ ...(foreignError as NotFoundError), message: (foreignError as Error).message }).to.deep.equal({
      ...(missingError as NotFoundError),
      message: (missingError as Error).message,
    });
    expect(await world().allCandidates(owner)).to.deep.equal([]);
    expect(await world().allCandidates(prober)).to.deep.equal([]);
  });

  it('accepts an application to a vacancy of any status', async () => {
    const companyId = await world().company();
    for (const status of VACANCY_STATUSES) {
      const vacancy = await world().vacancy(companyId, { status });
      expect((await world().apply(companyId, { vacancyId: vacancy.id })).status, status).to.equal('created');
    }
    expect(await world().allCandidates(companyId)).to.have.length(VACANCY_STATUSES.length);
  });

  it('labels an application without a source "api"', async () => {
    const companyId = await world().company();
    const { id } = await world().apply(companyId, { vacancyId: (await world().vacancy(companyId)).id, source: null });
    expect((await world().candidate(companyId, id))?.source).to.equal('api');
  });

  it('refuses a source the platform gives its own cards (manual, the job board\'s label) at /source, creating nothing; any other label is the client\'s (spec 2.2.1)', async () => {
    const companyId = await world().company();
    const vacancyId = (await world().vacancy(companyId)).id;
    for (const source of ['manual', 'hh']) {
      const error = await rejectionOf(world().apply(companyId, { vacancyId, externalId: `reserved-${source}`, source }));
      expect(pointersOf(error), source).to.deep.equal(['/source']);
      expect((error as ValidationError).problems[0]?.message).to.match(/"manual", "hh"/);
    }
    expect(await world().allCandidates(companyId)).to.deep.equal([]);
    // Another label, even one that contains a reserved one, is the client's.
    for (const source of ['hh.kz', 'manual-review', 'h h']) {
      const { id } = await world().apply(companyId, { vacancyId, externalId: `label-${source}`, source });
      expect((await world().candidate(companyId, id))?.source).to.equal(source);
    }
  });

  it('refuses a reserved label in any spelling that reads as it: another case, spaces around, invisible or fullwidth characters', async () => {
    const companyId = await world().company();
    const vacancyId = (await world().vacancy(companyId)).id;
    for (const source of ['HH ', 'Manual', ' MANUAL\t', 'hH', 'h\u200bh', '\uFF28\uFF28', '\u00a0hh\u3000']) {
      const error = await rejectionOf(world().apply(companyId, { vacancyId, externalId: `spelling-${source}`, source }));
      expect(pointersOf(error), JSON.stringify(source)).to.deep.equal(['/source']);
    }
    expect(await world().allCandidates(companyId)).to.deep.equal([]);
  });

  it('makes two cards for one person who applies twice, never merging by e-mail', async () => {
    const companyId = await world().company();
    const first = await world().vacancy(companyId);
    const second = await world().vacancy(companyId);
    const person = { name: 'Алишер Каримов', email: 'alisher@example.uz', phone: null, location: null, birthDate: null };
    const a = await world().apply(companyId, { vacancyId: first.id, externalId: 'p-1', candidate: person });
    const b = await world().apply(companyId, { vacancyId: second.id, externalId: 'p-2', candidate: person });
    expect([a.status, b.status]).to.deep.equal(['created', 'created']);
    expect(a.id).to.not.equal(b.id);
    const cards = await world().allCandidates(companyId);
    expect(cards.map((c) => [c.id, c.vacancyId])).to.have.deep.members([[a.id, first.id], [b.id, second.id]]);
  });

  it('refuses an invalid application with pointers to its fields, and creates nothing', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    const error = await rejectionOf(
      world().apply(companyId, {
        vacancyId: vacancy.id,
        candidate: { name: '', email: 'nope', phone: null, location: null, birthDate: '2026-02-30' },
        referral: aReferral({ name: '' }),
      }),
    );
    expect(error).to.be.instanceOf(ValidationError);
    expect([...new Set(pointersOf(error))]).to.deep.equal(['/candidate/name', '/candidate/email', '/candidate/birthDate', '/referral/name']);
    expect(await world().allCandidates(companyId)).to.deep.equal([]);
  });

  it('answers each of many concurrent applications for itself: created, duplicate, not found or invalid', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    // The first few start batches of their own; the five after them wait and are stored as one batch.
    const fillers = ['f1', 'f2', 'f3', 'f4'].map((externalId) => world().apply(companyId, { vacancyId: vacancy.id, externalId }));
    const settled = await Promise.all(
      [
        world().apply(companyId, { vacancyId: vacancy.id, externalId: 'a' }),
        world().apply(companyId, { vacancyId: 'missing', externalId: 'b' }),
        world().apply(companyId, { vacancyId: vacancy.id, externalId: 'a' }),
        world().apply(companyId, { vacancyId: vacancy.id, externalId: 'c', candidate: { name: ' ', email: null, phone: null, location: null, birthDate: null } }),
        world().apply(companyId, { vacancyId: vacancy.id, externalId: 'd' }),
      ].map((answer) => answer.then((result) => result, (error: Error) => error)),
    );
    const [first, missing, repeat, invalid, other] = settled;
    expect(first).to.include({ status: 'created' });
    expect(missing).to.be.instanceOf(NotFoundError);
    expect(repeat).to.deep.equal({ status: 'duplicate', id: (first as { id: string }).id, bodyDiffers: false });
    expect(invalid).to.be.instanceOf(ValidationError);
    expect(pointersOf(invalid)).to.deep.equal(['/candidate/name']);
    expect(other).to.include({ status: 'created' });
    expect((await Promise.all(fillers)).map((result) => result.status)).to.deep.equal(['created', 'created', 'created', 'created']);
    expect((await world().allCandidates(companyId)).map((card) => card.externalId).sort()).to.deep.equal(['a', 'd', 'f1', 'f2', 'f3', 'f4']);
  });

  it('keeps a card without referral as not a referral', async () => {
    const companyId = await world().company();
    const { id } = await world().apply(companyId, { vacancyId: (await world().vacancy(companyId)).id, referral: null });
    expect((await world().candidate(companyId, id))?.referral).to.equal(null);
  });
});
