import { DEFAULT_APPLICATION_SOURCE } from '../../../domain/inbound-application/application-limits.js';
import { closedObject, nullableNum, nullableStr, ref, str, strList, timestamp } from './schema-helpers.js';

const items = (description: string, properties: Record<string, object>) => ({ type: 'array', description, items: closedObject(properties) });
const text = (description: string) => ({ ...str(), description });

export const referralSchema = closedObject({
  name: text('The person who recommends the candidate.'),
  email: nullableStr(),
  phone: nullableStr(),
  company: nullableStr(),
  relationship: { ...nullableStr(), description: 'How the referrer knows the candidate, as they wrote it.' },
});

/**
 * Every field is present in every response. Spec 2.2 says the six item lists "are not listed as required";
 * issue 6 asks for `required` exactly as the service behaves, and the service always sends them (empty
 * when there is nothing), so they are required here: a stronger promise, which no client can break on.
 */
export const resumeSchema = closedObject({
  role: { ...nullableStr(), description: 'The position the person seeks or holds.' },
  summary: nullableStr(),
  experienceYears: nullableNum(),
  skills: strList(),
  skillsDescription: nullableStr(),
  experience: items('Jobs, as the source lists them. Missing texts are "".', {
    company: str(),
    role: str(),
    period: text('Free text, e.g. "2021-03 — по настоящее время".'),
    description: str(),
  }),
  education: items('Missing texts are "".', { institution: str(), degree: str(), period: str() }),
  additionalEducation: items('Courses and trainings.', { institution: str(), course: str(), result: str(), period: str() }),
  languages: items('Languages and levels, in the wording of the source.', { name: str(), level: str() }),
  certificates: items('Certificates.', { title: str(), date: str(), url: str() }),
  portfolio: items('Links to work samples.', { url: str(), description: str() }),
  expectedSalary: nullableNum(),
  expectedSalaryCurrency: nullableStr(),
  preferredWorkFormat: strList(),
  preferredEmployment: nullableStr(),
  relocation: nullableStr(),
  sourceUrl: { ...nullableStr(), description: "The person's page on the job board; never a file." },
});

export const personSchema = closedObject({
  name: str(),
  email: nullableStr(),
  phone: nullableStr(),
  location: nullableStr(),
  birthDate: { ...nullableStr(), description: 'A calendar date YYYY-MM-DD when known.' },
  gender: { ...nullableStr(), description: 'A text label, in the wording of the source.' },
  citizenship: strList(),
});

/** One application of one person to one vacancy (spec 2.2). */
export const candidateSchema = closedObject({
  id: { ...str(), minLength: 1, description: 'The id returned when the application was created.' },
  vacancyId: { ...nullableStr(), description: 'Null once the vacancy was deleted.' },
  vacancyTitle: {
    ...nullableStr(),
    description: "The vacancy's title at read time. A rename alone does not change updatedAt: join on vacancyId to keep titles current.",
  },
  stage: {
    ...nullableStr(),
    description: 'The board column the card stands in: NEW, AI_DIALOG, INTERVIEW, OFFER, ONBOARDING, REJECTION or a column of the company. Internal to hiring; not for the candidate.',
  },
  source: text(`Where the person came from: the job-board label (hh), manual, or the source the client sent ("${DEFAULT_APPLICATION_SOURCE}" when it sent none).`),
  externalId: { ...nullableStr(), description: "The client's id of the application; null unless it came through POST /applications." },
  coverLetter: { ...nullableStr(), description: 'Only applications sent through POST /applications carry one.' },
  candidate: ref('Person'),
  resume: ref('Resume'),
  referral: { oneOf: [ref('Referral'), { type: 'null' }], description: 'Filled exactly when the candidate is a referral.' },
  createdAt: timestamp(),
  updatedAt: { ...timestamp(), description: "The later of the card's and the resume's modification times: what since compares with." },
});
