import { expect } from 'chai';
import { ValidationError } from '../../../domain/shared/domain-error.js';
import { Vacancy, type VacancyInput } from '../../../domain/vacancy/vacancy.js';
import { isVacancyStatus, VACANCY_STATUSES } from '../../../domain/vacancy/vacancy-status.js';
import { aVacancyInput, at, T0 } from '../../support/builders.js';
import { pointersOf, thrownBy } from '../../support/catching.js';

function create(overrides: Partial<VacancyInput> = {}, now = T0): Vacancy {
  return Vacancy.create({ id: 'vac-1', companyId: 'co-1', input: aVacancyInput(overrides), now });
}

function problemsOf(overrides: Record<string, unknown>): string[] {
  return pointersOf(thrownBy(() => create(overrides as Partial<VacancyInput>)));
}

describe('Vacancy', () => {
  describe('input', () => {
    it('needs only a title and a status: any other field not given is null, a list empty, the derived ones derived', () => {
      const snapshot = Vacancy.create({ id: 'vac-1', companyId: 'co-1', input: { title: 'Повар', status: 'open', description: '<p>Готовить</p>' }, now: T0 }).toSnapshot();
      expect(snapshot).to.deep.include({
        city: null, officeAddress: null, experience: null, workFormat: null, workFormats: [], salaryFrom: null, salaryTo: null,
        salaryCurrency: null, salaryGross: null, employmentForm: null, workSchedule: [], skills: [], languages: [], professionalRoles: [],
        responsibilities: 'Готовить', positionsCount: null, sourceUrl: null, publishedAt: null, recruiter: null, sourceRef: null,
      });
    });
  });

  describe('status', () => {
    for (const status of ['open', 'paused', 'closed', 'archived', 'draft'] as const) {
      it(`accepts the status ${status}`, () => {
        expect(create({ status }).toSnapshot().status).to.equal(status);
      });
    }

    it('refuses any other status, naming /status', () => {
      for (const status of ['deleted', 'Open', '', 'all']) {
        expect(problemsOf({ status }), status).to.deep.equal(['/status']);
      }
    });

    it('lists the five statuses of the specification', () => {
      expect(VACANCY_STATUSES).to.deep.equal(['open', 'paused', 'closed', 'archived', 'draft']);
      expect(isVacancyStatus('archived')).to.equal(true);
      expect(isVacancyStatus('all')).to.equal(false);
    });
  });

  describe('workFormat', () => {
    it('is derived from the names of workFormats when not given, in Russian or English', () => {
      expect(create({ workFormats: ['Удалённо'] }).toSnapshot().workFormat).to.equal('remote');
      expect(create({ workFormats: ['На месте работодателя'] }).toSnapshot().workFormat).to.equal('office');
      expect(create({ workFormats: ['Remote', 'On-site'] }).toSnapshot().workFormat).to.equal('hybrid');
      expect(create({ workFormats: ['Гибрид'] }).toSnapshot().workFormat).to.equal('hybrid');
      expect(create({ workFormats: ['Разъездной'] }).toSnapshot().workFormat).to.equal('other');
      expect(create({ workFormats: [] }).toSnapshot().workFormat).to.equal(null);
    });

    it('keeps the original names in workFormats, not normalised', () => {
      expect(create({ workFormats: ['Удалённо', 'На месте работодателя'] }).toSnapshot().workFormats).to.deep.equal([
        'Удалённо',
        'На месте работодателя',
      ]);
    });

    it('takes an explicit value of the enum as given, even against the names', () => {
      expect(create({ workFormat: 'office', workFormats: ['Удалённо'] }).toSnapshot().workFormat).to.equal('office');
      expect(create({ workFormat: null, workFormats: ['Удалённо'] }).toSnapshot().workFormat).to.equal(null);
    });

    it('refuses an explicit value outside the enum, naming /workFormat', () => {
      expect(problemsOf({ workFormat: 'onsite' })).to.deep.equal(['/workFormat']);
      expect(problemsOf({ workFormat: 'Remote' })).to.deep.equal(['/workFormat']);
    });
  });

  describe('salary', () => {
    it('sets salaryFrom to salaryTo when only an upper bound is given (spec 2.1)', () => {
      const s = create({ salaryFrom: null, salaryTo: 900_000 }).toSnapshot();
      expect([s.salaryFrom, s.salaryTo]).to.deep.equal([900_000, 900_000]);
    });

    it('keeps a lower bound alone, both bounds, and no bounds as given', () => {
      const only = create({ salaryFrom: 500_000, salaryTo: null }).toSnapshot();
      expect([only.salaryFrom, only.salaryTo]).to.deep.equal([500_000, null]);
      const both = create({ salaryFrom: 500_000, salaryTo: 900_000 }).toSnapshot();
      expect([both.salaryFrom, both.salaryTo]).to.deep.equal([500_000, 900_000]);
      const none = create({ salaryFrom: null, salaryTo: null }).toSnapshot();
      expect([none.salaryFrom, none.salaryTo]).to.deep.equal([null, null]);
      const equal = create({ salaryFrom: 700_000, salaryTo: 700_000 }).toSnapshot();
      expect([equal.salaryFrom, equal.salaryTo]).to.deep.equal([700_000, 700_000]);
    });

    it('refuses salaryFrom greater than salaryTo, naming /salaryFrom', () => {
      expect(problemsOf({ salaryFrom: 900_001, salaryTo: 900_000 })).to.deep.equal(['/salaryFrom']);
    });

    it('refuses negative and non-finite amounts', () => {
      expect(problemsOf({ salaryFrom: -1, salaryTo: null })).to.deep.equal(['/salaryFrom']);
      expect(problemsOf({ salaryFrom: null, salaryTo: Number.POSITIVE_INFINITY })).to.deep.equal(['/salaryTo']);
      expect(problemsOf({ salaryFrom: Number.NaN, salaryTo: 10 })).to.deep.equal(['/salaryFrom']);
    });
  });

  describe('responsibilities', () => {
    it('are the text of the HTML description, entities decoded, when not given', () => {
      const s = create({ description: '<p>Разработка&nbsp;API &amp; сервисов</p><ul><li>Node.js &laquo;22&raquo;</li></ul>' }).toSnapshot();
      expect(s.responsibilities).to.equal('Разработка API & сервисов\nNode.js «22»');
      expect(s.description).to.equal('<p>Разработка&nbsp;API &amp; сервисов</p><ul><li>Node.js &laquo;22&raquo;</li></ul>');
    });

    it('are null without a description', () => {
      expect(create({ description: null }).toSnapshot().responsibilities).to.equal(null);
    });

    it('are kept as given, null included, when given', () => {
      expect(create({ description: '<p>HTML</p>', responsibilities: 'Своими словами' }).toSnapshot().responsibilities).to.equal('Своими словами');
      expect(create({ description: '<p>HTML</p>', responsibilities: null }).toSnapshot().responsibilities).to.equal(null);
    });
  });

  describe('replace', () => {
    it('returns false and keeps updatedAt when the new content equals the current one', () => {
      const vacancy = create({ salaryFrom: null, salaryTo: 900_000, publishedAt: new Date('2026-10-01T00:00:00Z') }, at(0));
      const changed = vacancy.replace(aVacancyInput({ salaryFrom: null, salaryTo: 900_000, publishedAt: new Date('2026-10-01T00:00:00Z') }), at(60_000));
      expect(changed).to.equal(false);
      expect(vacancy.updatedAt.toISOString()).to.equal(at(0).toISOString());
    });

    it('treats the derived fields as unchanged when the input leaves them to be derived again', () => {
      const vacancy = create({ workFormats: ['Гибрид'], description: '<p>a &amp; b</p>' }, at(0));
      expect(vacancy.replace(aVacancyInput({ workFormats: ['Гибрид'], description: '<p>a &amp; b</p>' }), at(1))).to.equal(false);
    });

    it('replaces the whole content like a PUT, moving updatedAt only, when something changed', () => {
      const vacancy = create({ city: 'Алматы', skills: ['TypeScript'] }, at(0));
      const changed = vacancy.replace(aVacancyInput({ city: null, skills: [], status: 'paused' }), at(60_000));
      expect(changed).to.equal(true);
      const s = vacancy.toSnapshot();
      expect(s.city).to.equal(null);
      expect(s.skills).to.deep.equal([]);
      expect(s.status).to.equal('paused');
      expect(s.createdAt.toISOString()).to.equal(at(0).toISOString());
      expect(s.updatedAt.toISOString()).to.equal(at(60_000).toISOString());
      expect([s.id, s.companyId]).to.deep.equal(['vac-1', 'co-1']);
    });

    it('moves updatedAt on a change of salary range or status alone (spec 4.1, since)', () => {
      const vacancy = create({}, at(0));
      expect(vacancy.replace(aVacancyInput({ salaryTo: 900_001 }), at(5))).to.equal(true);
      expect(vacancy.updatedAt.getTime()).to.equal(at(5).getTime());
      expect(vacancy.replace(aVacancyInput({ salaryTo: 900_001, status: 'closed' }), at(9))).to.equal(true);
      expect(vacancy.updatedAt.getTime()).to.equal(at(9).getTime());
    });

    it('refuses invalid content and leaves the vacancy as it was', () => {
      const vacancy = create({}, at(0));
      const before = vacancy.toSnapshot();
      expect(pointersOf(thrownBy(() => vacancy.replace(aVacancyInput({ title: '' }), at(5))))).to.include('/title');
      expect(vacancy.toSnapshot()).to.deep.equal(before);
    });
  });

  describe('validation', () => {
    it('names every field at fault by JSON pointer, all at once', () => {
      const error = thrownBy(() =>
        create({ title: '', positionsCount: 0, skills: ['x'.repeat(201)], sourceUrl: 'u'.repeat(2001), salaryCurrency: 'KZTKZTKZTKZ' }),
      );
      expect(error).to.be.instanceOf(ValidationError);
      expect((error as ValidationError).code).to.equal('validation_failed');
      expect([...new Set(pointersOf(error))]).to.have.members(['/title', '/skills/0', '/sourceUrl', '/salaryCurrency', '/positionsCount']);
    });

    it('refuses a blank title and one longer than 300 characters, and accepts 300 Cyrillic letters', () => {
      expect(problemsOf({ title: '   ' })).to.deep.equal(['/title']);
      expect(problemsOf({ title: 'я'.repeat(301) })).to.deep.equal(['/title']);
      expect(create({ title: 'я'.repeat(300) }).title).to.have.length(300);
    });

    it('bounds the short texts at 500 characters and the recruiter at 300', () => {
      expect(create({ city: 'я'.repeat(500), recruiter: 'я'.repeat(300) }).toSnapshot().city).to.have.length(500);
      expect(problemsOf({ city: 'я'.repeat(501) })).to.deep.equal(['/city']);
      expect(problemsOf({ officeAddress: 'я'.repeat(501) })).to.deep.equal(['/officeAddress']);
      expect(problemsOf({ experience: 'я'.repeat(501) })).to.deep.equal(['/experience']);
      expect(problemsOf({ employmentForm: 'я'.repeat(501) })).to.deep.equal(['/employmentForm']);
      expect(problemsOf({ recruiter: 'я'.repeat(301) })).to.deep.equal(['/recruiter']);
    });

    it('bounds lists at 200 items of 200 characters', () => {
      expect(create({ languages: Array.from({ length: 200 }, () => 'я'.repeat(200)) }).toSnapshot().languages).to.have.length(200);
      expect(problemsOf({ languages: Array.from({ length: 201 }, () => 'en') })).to.deep.equal(['/languages']);
      expect(problemsOf({ workSchedule: ['5/2', 'я'.repeat(201)] })).to.deep.equal(['/workSchedule/1']);
    });

    it('wants positionsCount to be a whole number of at least 1', () => {
      expect(create({ positionsCount: 1 }).toSnapshot().positionsCount).to.equal(1);
      expect(problemsOf({ positionsCount: 0 })).to.deep.equal(['/positionsCount']);
      expect(problemsOf({ positionsCount: 1.5 })).to.deep.equal(['/positionsCount']);
    });

    it('refuses an invalid publishedAt', () => {
      expect(problemsOf({ publishedAt: new Date('not a date') })).to.deep.equal(['/publishedAt']);
    });
  });

  it('hands out copies, so changing a snapshot does not change the vacancy', () => {
    const vacancy = create({ skills: ['TypeScript'] });
    const snapshot = vacancy.toSnapshot();
    (snapshot.skills as string[]).push('Java');
    snapshot.updatedAt.setTime(0);
    expect(vacancy.toSnapshot().skills).to.deep.equal(['TypeScript']);
    expect(vacancy.updatedAt.toISOString()).to.equal(T0.toISOString());
  });

  it('restores a snapshot as stored, without normalising it again', () => {
    const snapshot = { ...create().toSnapshot(), salaryFrom: null, salaryTo: 100, responsibilities: 'stored text' };
    expect(Vacancy.restore(snapshot).toSnapshot()).to.deep.equal(snapshot);
  });
});
