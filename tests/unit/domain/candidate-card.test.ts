import { expect } from 'chai';
import { CandidateCard, type CandidateCardSnapshot } from '../../../domain/candidate/candidate-card.js';
import { ConflictError, ValidationError } from '../../../domain/shared/domain-error.js';
import { aPerson, aReferral, aResume, at, T0 } from '../../support/builders.js';
import { pointersOf, thrownBy } from '../../support/catching.js';

const BASE = { id: 'card-1', companyId: 'co-1', vacancyId: 'vac-1', stage: 'NEW', person: aPerson(), resume: aResume(), referral: null, now: T0 };

function fromApplication(overrides: Partial<Parameters<typeof CandidateCard.fromApplication>[0]> = {}): CandidateCard {
  return CandidateCard.fromApplication({ ...BASE, externalId: 'ext-1', source: 'career-portal', coverLetter: 'Здравствуйте!', requestFingerprint: 'fp', ...overrides });
}

function times(card: CandidateCard): { card: string; resume: string; modified: string } {
  const s = card.toSnapshot();
  return { card: s.cardUpdatedAt.toISOString(), resume: s.resumeUpdatedAt.toISOString(), modified: card.modifiedAt.toISOString() };
}

describe('CandidateCard', () => {
  describe('fromApplication', () => {
    it('keeps the origin of an API application: source, externalId, cover letter and request fingerprint', () => {
      const s = fromApplication({ referral: aReferral() }).toSnapshot();
      expect(s).to.deep.include({ source: 'career-portal', externalId: 'ext-1', coverLetter: 'Здравствуйте!', requestFingerprint: 'fp', sourceRef: null });
      expect(s).to.deep.include({ id: 'card-1', companyId: 'co-1', vacancyId: 'vac-1', stage: 'NEW', technical: false, originCardId: null });
      expect(s.referral).to.deep.equal(aReferral());
      expect([s.createdAt, s.cardUpdatedAt, s.resumeUpdatedAt].map((d) => d.toISOString())).to.deep.equal(Array(3).fill(T0.toISOString()));
    });

    it('bounds externalId to 1..200, source to 1..60 and the cover letter to 20000 characters', () => {
      expect(() => fromApplication({ externalId: 'я'.repeat(200), source: 'я'.repeat(60), coverLetter: 'я'.repeat(20_000) })).to.not.throw();
      expect(pointersOf(thrownBy(() => fromApplication({ externalId: '' })))).to.deep.equal(['/externalId']);
      expect(pointersOf(thrownBy(() => fromApplication({ externalId: 'я'.repeat(201) })))).to.deep.equal(['/externalId']);
      expect(pointersOf(thrownBy(() => fromApplication({ source: '' })))).to.deep.equal(['/source']);
      expect(pointersOf(thrownBy(() => fromApplication({ source: 'я'.repeat(61) })))).to.deep.equal(['/source']);
      expect(pointersOf(thrownBy(() => fromApplication({ coverLetter: 'я'.repeat(20_001) })))).to.deep.equal(['/coverLetter']);
    });

    it('reports every problem of the person, resume and referral at once, by JSON pointer', () => {
      const error = thrownBy(() =>
        fromApplication({
          person: aPerson({ email: 'not-an-email' }),
          resume: aResume({ experienceYears: 81 }),
          referral: aReferral({ name: '' }),
        }),
      );
      expect(error).to.be.instanceOf(ValidationError);
      expect([...new Set(pointersOf(error))]).to.deep.equal(['/candidate/email', '/resume/experienceYears', '/referral/name']);
    });
  });

  it('makes a recruiter\'s manual card with source "manual" and no externalId, cover letter or fingerprint', () => {
    const s = CandidateCard.manual(BASE).toSnapshot();
    expect(s).to.deep.include({ source: 'manual', externalId: null, coverLetter: null, requestFingerprint: null, sourceRef: null, technical: false });
  });

  it('makes an imported card with the board\'s label and reference, and no externalId or cover letter', () => {
    const s = CandidateCard.imported({ ...BASE, source: 'hh', sourceRef: 'hh:123' }).toSnapshot();
    expect(s).to.deep.include({ source: 'hh', sourceRef: 'hh:123', externalId: null, coverLetter: null, requestFingerprint: null });
  });

  describe('modifiedAt', () => {
    const snapshot = CandidateCard.manual(BASE).toSnapshot();
    it('is the card time when the card changed last', () => {
      const card = CandidateCard.restore({ ...snapshot, cardUpdatedAt: at(2000), resumeUpdatedAt: at(1000) });
      expect(card.modifiedAt.toISOString()).to.equal(at(2000).toISOString());
    });
    it('is the resume time when the resume changed last', () => {
      const card = CandidateCard.restore({ ...snapshot, cardUpdatedAt: at(1000), resumeUpdatedAt: at(2000) });
      expect(card.modifiedAt.toISOString()).to.equal(at(2000).toISOString());
    });
  });

  describe('replaceResume', () => {
    it('moves only the resume time, and so modifiedAt, when the resume changed', () => {
      const card = CandidateCard.manual(BASE);
      expect(card.replaceResume(aResume({ summary: 'Новое резюме' }), at(5000))).to.equal(true);
      expect(times(card)).to.deep.equal({ card: T0.toISOString(), resume: at(5000).toISOString(), modified: at(5000).toISOString() });
      expect(card.toSnapshot().resume.summary).to.equal('Новое резюме');
    });

    it('returns false and moves nothing for an equal resume in a new object', () => {
      const card = CandidateCard.manual(BASE);
      expect(card.replaceResume(aResume(), at(5000))).to.equal(false);
      expect(times(card)).to.deep.equal({ card: T0.toISOString(), resume: T0.toISOString(), modified: T0.toISOString() });
    });

    it('refuses an invalid resume with pointers into the resume, and keeps the old one', () => {
      const card = CandidateCard.manual(BASE);
      expect(pointersOf(thrownBy(() => card.replaceResume(aResume({ skills: ['я'.repeat(121)] }), at(1))))).to.deep.equal(['/skills/0']);
      expect(card.toSnapshot().resume).to.deep.equal(aResume());
      expect(times(card).resume).to.equal(T0.toISOString());
    });
  });

  describe('moveTo', () => {
    it('changes the stage and the card time', () => {
      const card = CandidateCard.manual(BASE);
      expect(card.moveTo('INTERVIEW', at(3000))).to.equal(true);
      expect(card.stage).to.equal('INTERVIEW');
      expect(times(card)).to.deep.equal({ card: at(3000).toISOString(), resume: T0.toISOString(), modified: at(3000).toISOString() });
    });

    it('returns false and moves no time for the stage the card already stands in', () => {
      const card = CandidateCard.manual(BASE);
      expect(card.moveTo('NEW', at(3000))).to.equal(false);
      expect(times(card).modified).to.equal(T0.toISOString());
    });

    it('refuses a card whose vacancy was deleted with ConflictError', () => {
      const card = CandidateCard.manual(BASE);
      card.detachFromVacancy(at(1));
      expect(thrownBy(() => card.moveTo('NEW', at(2)))).to.be.instanceOf(ConflictError);
      expect(card.stage).to.equal(null);
    });
  });

  it('detaches from a deleted vacancy: no vacancy, no stage, modified now', () => {
    const card = CandidateCard.manual(BASE);
    card.detachFromVacancy(at(7000));
    expect([card.vacancyId, card.stage]).to.deep.equal([null, null]);
    expect(times(card)).to.deep.equal({ card: at(7000).toISOString(), resume: T0.toISOString(), modified: at(7000).toISOString() });
  });

  describe('technicalCopy', () => {
    it('makes a technical card on the other vacancy that points to the original and carries its person and resume', () => {
      const original = fromApplication({ referral: aReferral() });
      const copy = original.technicalCopy({ id: 'tech-1', vacancyId: 'vac-2', stage: 'Отклик', now: at(9000) }).toSnapshot();
      expect(copy).to.deep.include({ id: 'tech-1', vacancyId: 'vac-2', stage: 'Отклик', technical: true, originCardId: 'card-1' });
      expect(copy).to.deep.include({ externalId: null, requestFingerprint: null, sourceRef: null, source: 'career-portal' });
      expect(copy.person).to.deep.equal(aPerson());
      expect(copy.resume).to.deep.equal(aResume());
      expect(copy.referral).to.deep.equal(aReferral());
      expect(copy.createdAt.toISOString()).to.equal(at(9000).toISOString());
    });

    it('leaves the original card as it was', () => {
      const original = fromApplication();
      const before = original.toSnapshot();
      original.technicalCopy({ id: 'tech-1', vacancyId: 'vac-2', stage: 'NEW', now: at(9000) });
      expect(original.toSnapshot()).to.deep.equal(before);
    });

    it('refuses to copy a technical card', () => {
      const copy = fromApplication().technicalCopy({ id: 'tech-1', vacancyId: 'vac-2', stage: 'NEW', now: at(1) });
      expect(thrownBy(() => copy.technicalCopy({ id: 'tech-2', vacancyId: 'vac-3', stage: 'NEW', now: at(2) }))).to.be.instanceOf(ConflictError);
    });
  });

  describe('refreshImported', () => {
    const imported = () => CandidateCard.imported({ ...BASE, source: 'hh', sourceRef: 'hh:1' });

    it('moves the card time for a new person and the resume time for a new resume', () => {
      const card = imported();
      expect(card.refreshImported(aPerson({ phone: '+7 777 111 22 33' }), aResume(), at(100))).to.equal(true);
      expect(times(card)).to.deep.include({ card: at(100).toISOString(), resume: T0.toISOString() });
      expect(card.refreshImported(aPerson({ phone: '+7 777 111 22 33' }), aResume({ role: 'Lead' }), at(200))).to.equal(true);
      expect(times(card)).to.deep.include({ card: at(100).toISOString(), resume: at(200).toISOString() });
    });

    it('returns false and moves nothing when the board sent the same data', () => {
      const card = imported();
      expect(card.refreshImported(aPerson(), aResume(), at(100))).to.equal(false);
      expect(times(card).modified).to.equal(T0.toISOString());
    });
  });

  it('hands out copies, so changing a snapshot does not change the card', () => {
    const card = CandidateCard.manual(BASE);
    const s = card.toSnapshot() as { -readonly [K in keyof CandidateCardSnapshot]: CandidateCardSnapshot[K] };
    (s.person.citizenship as string[]).push('KZ');
    (s.resume.skills as string[]).push('Go');
    s.cardUpdatedAt.setTime(0);
    expect(card.toSnapshot().person.citizenship).to.deep.equal([]);
    expect(card.toSnapshot().resume.skills).to.deep.equal(['Node.js']);
    expect(card.modifiedAt.toISOString()).to.equal(T0.toISOString());
  });
});
