import type { CandidateView } from '../../application/ports/candidate-repository.port.js';
import type { Person, Referral } from '../../domain/candidate/person.js';
import type {
  AdditionalEducationItem,
  CertificateItem,
  EducationItem,
  ExperienceItem,
  LanguageItem,
  PortfolioItem,
  Resume,
} from '../../domain/candidate/resume.js';
import { isoTimestamp } from './timestamp.js';

export interface PersonJson {
  readonly name: string;
  readonly email: string | null;
  readonly phone: string | null;
  readonly location: string | null;
  readonly birthDate: string | null;
  readonly gender: string | null;
  readonly citizenship: string[];
}

export interface ResumeJson {
  readonly role: string | null;
  readonly summary: string | null;
  readonly experienceYears: number | null;
  readonly skills: string[];
  readonly skillsDescription: string | null;
  readonly experience: ExperienceItem[];
  readonly education: EducationItem[];
  readonly additionalEducation: AdditionalEducationItem[];
  readonly languages: LanguageItem[];
  readonly certificates: CertificateItem[];
  readonly portfolio: PortfolioItem[];
  readonly expectedSalary: number | null;
  readonly expectedSalaryCurrency: string | null;
  readonly preferredWorkFormat: string[];
  readonly preferredEmployment: string | null;
  readonly relocation: string | null;
  readonly sourceUrl: string | null;
}

export type ReferralJson = Referral;

/** The API's Candidate (spec 2.2): the card, the person as `candidate`, the resume and the referral block. */
export interface CandidateJson {
  readonly id: string;
  readonly vacancyId: string | null;
  readonly vacancyTitle: string | null;
  readonly stage: string | null;
  readonly source: string;
  readonly externalId: string | null;
  readonly coverLetter: string | null;
  readonly candidate: PersonJson;
  readonly resume: ResumeJson;
  readonly referral: ReferralJson | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export function presentCandidate(c: CandidateView): CandidateJson {
  return {
    id: c.id,
    vacancyId: c.vacancyId,
    vacancyTitle: c.vacancyTitle,
    stage: c.stage,
    source: c.source,
    externalId: c.externalId,
    coverLetter: c.coverLetter,
    candidate: presentPerson(c.person),
    resume: presentResume(c.resume),
    referral: c.referral === null ? null : presentReferral(c.referral),
    createdAt: isoTimestamp(c.createdAt),
    updatedAt: isoTimestamp(c.updatedAt),
  };
}

/**
 * The Candidate's JSON after `vacancyTitle`, closing brace included, without the comma before it: what the
 * read model keeps of a card (ADR 18). The vacancy's title changes without bumping its cards (spec 2.2), so it
 * is joined when the list is read, and spliceCandidate puts the three leading fields back. Cut from the
 * presenter's own output, so that no presentation rule lives here twice; `c.vacancyTitle` plays no part.
 */
export function renderCandidateRest(c: CandidateView): string {
  const { id: _id, vacancyId: _vacancyId, vacancyTitle: _vacancyTitle, ...rest } = presentCandidate(c);
  return JSON.stringify(rest).slice(1);
}

/**
 * The Candidate's JSON from the leading fields read now and the rest rendered at write time: byte for byte
 * JSON.stringify(presentCandidate(view)) of the same card, since the presenter's first three keys are these.
 */
export function spliceCandidate(id: string, vacancyId: string | null, vacancyTitle: string | null, rest: string): string {
  return candidateLead(id, vacancyId, vacancyTitle) + rest;
}

/** spliceCandidate's text as its two parts, for a page to write one after the other (renderPage) without joining them. */
export function splicedCandidateParts(id: string, vacancyId: string | null, vacancyTitle: string | null, rest: string): readonly [string, string] {
  return [candidateLead(id, vacancyId, vacancyTitle), rest];
}

/** The UTF-8 bytes of spliceCandidate's text, what the card takes of a page's budget, without building that text. */
export function splicedCandidateBytes(id: string, vacancyId: string | null, vacancyTitle: string | null, rest: string): number {
  return Buffer.byteLength(candidateLead(id, vacancyId, vacancyTitle), 'utf8') + Buffer.byteLength(rest, 'utf8');
}

function candidateLead(id: string, vacancyId: string | null, vacancyTitle: string | null): string {
  return `{"id":${JSON.stringify(id)},"vacancyId":${JSON.stringify(vacancyId)},"vacancyTitle":${JSON.stringify(vacancyTitle)},`;
}

export function presentPerson(p: Person): PersonJson {
  return {
    name: p.name,
    email: p.email,
    phone: p.phone,
    location: p.location,
    birthDate: p.birthDate,
    gender: p.gender,
    citizenship: [...p.citizenship],
  };
}

/** Item fields are copied by name too: the stored JSON of an item carries nothing else onto the wire. */
export function presentResume(r: Resume): ResumeJson {
  return {
    role: r.role,
    summary: r.summary,
    experienceYears: r.experienceYears,
    skills: [...r.skills],
    skillsDescription: r.skillsDescription,
    experience: r.experience.map(({ company, role, period, description }) => ({ company, role, period, description })),
    education: r.education.map(({ institution, degree, period }) => ({ institution, degree, period })),
    additionalEducation: r.additionalEducation.map(({ institution, course, result, period }) => ({ institution, course, result, period })),
    languages: r.languages.map(({ name, level }) => ({ name, level })),
    certificates: r.certificates.map(({ title, date, url }) => ({ title, date, url })),
    portfolio: r.portfolio.map(({ url, description }) => ({ url, description })),
    expectedSalary: r.expectedSalary,
    expectedSalaryCurrency: r.expectedSalaryCurrency,
    preferredWorkFormat: [...r.preferredWorkFormat],
    preferredEmployment: r.preferredEmployment,
    relocation: r.relocation,
    sourceUrl: r.sourceUrl,
  };
}

function presentReferral(r: Referral): ReferralJson {
  return { name: r.name, email: r.email, phone: r.phone, company: r.company, relationship: r.relationship };
}
