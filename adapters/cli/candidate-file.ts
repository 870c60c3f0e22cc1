import type { ManualCandidate } from '../../application/use-cases/add-candidates.use-case.js';
import type { Person, Referral } from '../../domain/candidate/person.js';
import { checkPerson, checkReferral, checkResume } from '../../domain/candidate/candidate-rules.js';
import type { Resume } from '../../domain/candidate/resume.js';
import type { ProblemCollector } from '../../domain/shared/domain-error.js';
import { CliFailure } from './cli-failure.js';
import type { JsonFields } from './json-fields.js';
import { readRecordFile, readSingleRecord } from './record-batch.js';

/** The records of a `candidate add` file: vacancyId, candidate, resume, optional referral and stage. */
export function readCandidateFile(json: unknown): ManualCandidate[] {
  return readRecordFile(json, { read: readCandidate, rules: candidateRules }, 'The file is invalid; nothing was stored.');
}

/** A `candidate update-resume` file: one resume object, fields as the API's resume. */
export function readResumeFile(json: unknown): Resume {
  if (Array.isArray(json)) throw new CliFailure('The file must hold one resume object, not an array.');
  return readSingleRecord(json, { read: readResume, rules: (resume, problems) => checkResume(problems, '', resume) }, 'The resume file is invalid; nothing was stored.');
}

/** The domain's rules of a manual card's content, as the card checks them; the vacancy and stage need the database. */
function candidateRules(card: ManualCandidate, problems: ProblemCollector): void {
  checkPerson(problems, '/candidate', card.candidate);
  checkResume(problems, '/resume', card.resume);
  checkReferral(problems, '/referral', card.referral);
}

function readCandidate(c: JsonFields): ManualCandidate {
  const vacancyId = c.requiredString('vacancyId');
  const candidate = readPerson(c.objectOrEmpty('candidate', { required: true }));
  // No resume yet is allowed: a recruiter completes it later (update-resume).
  const resume = readResume(c.objectOrEmpty('resume', { required: false }));
  const referral = c.object('referral');
  const stage = c.string('stage');
  return { vacancyId, candidate, resume, referral: referral === null ? null : readReferral(referral), ...(stage === null ? {} : { stage }) };
}

function readPerson(p: JsonFields): Person {
  return {
    name: p.requiredString('name'),
    email: p.string('email'),
    phone: p.string('phone'),
    location: p.string('location'),
    birthDate: p.string('birthDate'),
    gender: p.string('gender'),
    citizenship: p.strings('citizenship'),
  };
}

function readReferral(r: JsonFields): Referral {
  return {
    name: r.requiredString('name'),
    email: r.string('email'),
    phone: r.string('phone'),
    company: r.string('company'),
    relationship: r.string('relationship'),
  };
}

export function readResume(r: JsonFields): Resume {
  return {
    role: r.string('role'),
    summary: r.string('summary'),
    experienceYears: r.integer('experienceYears'),
    skills: r.strings('skills'),
    skillsDescription: r.string('skillsDescription'),
    experience: r.items('experience', (i) => ({
      company: i.itemString('company'),
      role: i.itemString('role'),
      period: i.itemString('period'),
      description: i.itemString('description'),
    })),
    education: r.items('education', (i) => ({ institution: i.itemString('institution'), degree: i.itemString('degree'), period: i.itemString('period') })),
    additionalEducation: r.items('additionalEducation', (i) => ({
      institution: i.itemString('institution'),
      course: i.itemString('course'),
      result: i.itemString('result'),
      period: i.itemString('period'),
    })),
    languages: r.items('languages', (i) => ({ name: i.itemString('name'), level: i.itemString('level') })),
    certificates: r.items('certificates', (i) => ({ title: i.itemString('title'), date: i.itemString('date'), url: i.itemString('url') })),
    portfolio: r.items('portfolio', (i) => ({ url: i.itemString('url'), description: i.itemString('description') })),
    expectedSalary: r.integer('expectedSalary'),
    expectedSalaryCurrency: r.string('expectedSalaryCurrency'),
    preferredWorkFormat: r.strings('preferredWorkFormat'),
    preferredEmployment: r.string('preferredEmployment'),
    relocation: r.string('relocation'),
    sourceUrl: r.string('sourceUrl'),
  };
}
