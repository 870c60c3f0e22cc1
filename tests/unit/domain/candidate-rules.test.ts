import { expect } from 'chai';
import { checkPerson, checkReferral, checkResume, isCalendarDate } from '../../../domain/candidate/candidate-rules.js';
import { isEmailAddress } from '../../../domain/candidate/email-address.js';
import type { Person, Referral } from '../../../domain/candidate/person.js';
import { resumeOf, type Resume } from '../../../domain/candidate/resume.js';
import { ProblemCollector } from '../../../domain/shared/domain-error.js';
import { aPerson, aReferral } from '../../support/builders.js';

function personProblems(overrides: Partial<Person>): string[] {
  const problems = new ProblemCollector();
  checkPerson(problems, '/candidate', aPerson(overrides));
  return [...new Set(problems.problems.map((p) => p.pointer))];
}

function referralProblems(overrides: Partial<Referral>): string[] {
  const problems = new ProblemCollector();
  checkReferral(problems, '/referral', aReferral(overrides));
  return [...new Set(problems.problems.map((p) => p.pointer))];
}

function resumeProblems(fields: Partial<Resume>): string[] {
  const problems = new ProblemCollector();
  checkResume(problems, '/resume', resumeOf(fields));
  return [...new Set(problems.problems.map((p) => p.pointer))];
}

/** An e-mail address of exactly `length` characters. */
function emailOf(length: number): string {
  const domain = '@example.kz';
  return 'a'.repeat(length - domain.length) + domain;
}

const cyr = (n: number) => 'я'.repeat(n);
const many = <T>(n: number, item: T) => Array.from({ length: n }, () => item);
const job = { company: '', role: '', period: '', description: '' };
const school = { institution: '', degree: '', period: '' };

describe('candidate rules (spec part 8 bounds)', () => {
  describe('person', () => {
    const bounds: [keyof Person, number, string][] = [
      ['name', 300, '/candidate/name'],
      ['phone', 60, '/candidate/phone'],
      ['location', 200, '/candidate/location'],
      ['gender', 60, '/candidate/gender'],
    ];
    for (const [field, max, pointer] of bounds) {
      it(`accepts ${field} of ${max} characters and refuses ${max + 1}`, () => {
        expect(personProblems({ [field]: cyr(max) })).to.deep.equal([]);
        expect(personProblems({ [field]: cyr(max + 1) })).to.deep.equal([pointer]);
      });
    }

    it('wants a name of at least one character that is not blank', () => {
      expect(personProblems({ name: 'Я' })).to.deep.equal([]);
      expect(personProblems({ name: '' })).to.deep.equal(['/candidate/name']);
      expect(personProblems({ name: '   ' })).to.deep.equal(['/candidate/name']);
    });

    it('accepts an e-mail of 320 characters and refuses 321', () => {
      expect(personProblems({ email: emailOf(320) })).to.deep.equal([]);
      expect(personProblems({ email: emailOf(321) })).to.deep.equal(['/candidate/email']);
    });

    it('leaves out optional fields given as null', () => {
      expect(personProblems({ email: null, phone: null, location: null, birthDate: null, gender: null })).to.deep.equal([]);
    });

    it('wants birthDate to be a calendar date', () => {
      expect(personProblems({ birthDate: '1995-04-12' })).to.deep.equal([]);
      expect(personProblems({ birthDate: '1995-02-29' })).to.deep.equal(['/candidate/birthDate']);
      expect(personProblems({ birthDate: '12.04.1995' })).to.deep.equal(['/candidate/birthDate']);
    });

    it('bounds citizenship at 20 entries of 120 characters', () => {
      expect(personProblems({ citizenship: many(20, cyr(120)) })).to.deep.equal([]);
      expect(personProblems({ citizenship: many(21, 'KZ') })).to.deep.equal(['/candidate/citizenship']);
      expect(personProblems({ citizenship: ['KZ', cyr(121)] })).to.deep.equal(['/candidate/citizenship/1']);
    });
  });

  describe('referral', () => {
    const bounds: [keyof Referral, number][] = [
      ['name', 300],
      ['phone', 60],
      ['company', 300],
      ['relationship', 200],
    ];
    for (const [field, max] of bounds) {
      it(`accepts ${field} of ${max} characters and refuses ${max + 1}`, () => {
        expect(referralProblems({ [field]: cyr(max) })).to.deep.equal([]);
        expect(referralProblems({ [field]: cyr(max + 1) })).to.deep.equal([`/referral/${field}`]);
      });
    }

    it('wants a name that is not blank and a valid e-mail of at most 320 characters', () => {
      expect(referralProblems({ name: '' })).to.deep.equal(['/referral/name']);
      expect(referralProblems({ name: ' ' })).to.deep.equal(['/referral/name']);
      expect(referralProblems({ email: emailOf(320) })).to.deep.equal([]);
      expect(referralProblems({ email: emailOf(321) })).to.deep.equal(['/referral/email']);
      expect(referralProblems({ email: 'dilnoza' })).to.deep.equal(['/referral/email']);
    });

    it('has nothing to check when there is no referral', () => {
      const problems = new ProblemCollector();
      checkReferral(problems, '/referral', null);
      expect(problems.problems).to.deep.equal([]);
    });
  });

  describe('resume', () => {
    const texts: [keyof Resume, number][] = [
      ['role', 300],
      ['summary', 20_000],
      ['skillsDescription', 20_000],
      ['expectedSalaryCurrency', 10],
    ];
    for (const [field, max] of texts) {
      it(`accepts ${field} of ${max} characters and refuses ${max + 1}`, () => {
        expect(resumeProblems({ [field]: cyr(max) })).to.deep.equal([]);
        expect(resumeProblems({ [field]: cyr(max + 1) })).to.deep.equal([`/resume/${field}`]);
      });
    }

    it('wants experienceYears to be a whole number from 0 to 80', () => {
      for (const years of [0, 80]) expect(resumeProblems({ experienceYears: years }), String(years)).to.deep.equal([]);
      for (const years of [-1, 81, 2.5]) expect(resumeProblems({ experienceYears: years }), String(years)).to.deep.equal(['/resume/experienceYears']);
    });

    it('wants expectedSalary to be a whole number from 0 to 2^53 - 1 (the largest a double holds exactly)', () => {
      for (const salary of [0, 1_500_000, Number.MAX_SAFE_INTEGER]) expect(resumeProblems({ expectedSalary: salary }), String(salary)).to.deep.equal([]);
      for (const salary of [-1, 0.5, Number.MAX_SAFE_INTEGER + 2]) {
        expect(resumeProblems({ expectedSalary: salary }), String(salary)).to.deep.equal(['/resume/expectedSalary']);
      }
    });

    it('accepts 200 skills of 120 characters and refuses 201 skills or a skill of 121', () => {
      expect(resumeProblems({ skills: many(200, cyr(120)) })).to.deep.equal([]);
      expect(resumeProblems({ skills: many(201, 'Go') })).to.deep.equal(['/resume/skills']);
      expect(resumeProblems({ skills: ['Go', cyr(121)] })).to.deep.equal(['/resume/skills/1']);
    });

    it('accepts 100 experience items and refuses 101', () => {
      expect(resumeProblems({ experience: many(100, job) })).to.deep.equal([]);
      expect(resumeProblems({ experience: many(101, job) })).to.deep.equal(['/resume/experience']);
    });

    for (const [field, max] of [['company', 300], ['role', 300], ['period', 120], ['description', 5_000]] as const) {
      it(`accepts experience ${field} of ${max} characters and refuses ${max + 1}`, () => {
        expect(resumeProblems({ experience: [{ ...job, [field]: cyr(max) }] })).to.deep.equal([]);
        expect(resumeProblems({ experience: [job, { ...job, [field]: cyr(max + 1) }] })).to.deep.equal([`/resume/experience/1/${field}`]);
      });
    }

    it('accepts 100 education items and refuses 101', () => {
      expect(resumeProblems({ education: many(100, school) })).to.deep.equal([]);
      expect(resumeProblems({ education: many(101, school) })).to.deep.equal(['/resume/education']);
    });

    for (const [field, max] of [['institution', 300], ['degree', 300], ['period', 120]] as const) {
      it(`accepts education ${field} of ${max} characters and refuses ${max + 1}`, () => {
        expect(resumeProblems({ education: [{ ...school, [field]: cyr(max) }] })).to.deep.equal([]);
        expect(resumeProblems({ education: [{ ...school, [field]: cyr(max + 1) }] })).to.deep.equal([`/resume/education/0/${field}`]);
      });
    }

    it('wants every field of an item to be a string, never null or absent', () => {
      const broken = { company: null, role: 'Dev', period: '2020' } as unknown as typeof job;
      expect(resumeProblems({ experience: [broken] })).to.deep.equal(['/resume/experience/0/company', '/resume/experience/0/description']);
    });

    it('accepts an empty resume', () => {
      expect(resumeProblems({})).to.deep.equal([]);
    });
  });

  describe('length', () => {
    it('counts Cyrillic letters as one character each, not as their two UTF-8 bytes', () => {
      expect(Buffer.byteLength(cyr(300), 'utf8')).to.equal(600);
      expect(personProblems({ name: cyr(300) })).to.deep.equal([]);
    });

    it('counts code points, so a character beyond the basic plane is one, not two UTF-16 units', () => {
      const emoji = '😀'.repeat(300);
      expect(emoji.length).to.equal(600);
      expect(personProblems({ name: emoji })).to.deep.equal([]);
      expect(personProblems({ name: emoji + '😀' })).to.deep.equal(['/candidate/name']);
    });
  });

  describe('isEmailAddress (ADR 12: the WHATWG rule, with letters and digits of every script)', () => {
    const label63 = 'a'.repeat(63);
    for (const email of [
      'a@b.kz',
      'erzhan.saparov+jobs@mail.example.kz',
      'имя@почта.рф',
      'айгуль@мысал.қаз',
      'user@localhost',
      'erzhan@example',
      "o'brien!#$%&*/=?^_`{|}~-@example.kz",
      '.dots..anywhere.@example.kz',
      `a@${label63}.kz`,
      'a@xn--80a1acny.xn--p1ai',
      'a@1-2.kz',
    ]) {
      it(`accepts ${email}`, () => expect(isEmailAddress(email)).to.equal(true));
    }
    for (const email of [
      '',
      'erzhan',
      'erzhan@',
      '@example.kz',
      'er zhan@example.kz',
      'a@@example.kz',
      'a@b@c.kz',
      '"quoted"@example.kz',
      '"a b"@example.kz',
      'user@[127.0.0.1]',
      'user@[IPv6:::1]',
      'a@-example.kz',
      'a@example-.kz',
      'a@example..kz',
      'a@example.kz.',
      'a@.example.kz',
      `a@${label63}a.kz`,
      'a@exa_mple.kz',
      'a@example.kz\n',
      'a\u0000@example.kz',
      'a\uD800@example.kz',
      'a@ex\u00A0ample.kz',
    ]) {
      it(`refuses ${JSON.stringify(email)}`, () => expect(isEmailAddress(email)).to.equal(false));
    }
  });

  describe('isCalendarDate', () => {
    for (const date of ['1995-04-12', '2000-02-29', '2024-02-29', '0001-01-01', '2026-12-31']) {
      it(`accepts ${date}`, () => expect(isCalendarDate(date)).to.equal(true));
    }
    for (const date of ['1900-02-29', '2023-02-29', '2026-02-30', '2026-04-31', '2026-13-01', '2026-00-01', '2026-01-00', '2026-1-01', '12.04.1995', '1995-04-12T00:00:00Z', '']) {
      it(`refuses ${JSON.stringify(date)}`, () => expect(isCalendarDate(date)).to.equal(false));
    }
  });
});
