import { closedObject, nullableNum, nullableStr, str, strList, timestamp } from './schema-helpers.js';

const items = (properties: Record<string, object>) => ({ type: 'array', items: closedObject(properties) });

export const referralSchema = closedObject({
  name: str(),
  email: nullableStr(),
  phone: nullableStr(),
  company: nullableStr(),
  relationship: nullableStr(),
});

/** spec 2.2: the six item lists are present in every response, though the published schema does not require them. */
export const resumeSchema = closedObject(
  {
    role: nullableStr(),
    summary: nullableStr(),
    experienceYears: nullableNum(),
    skills: strList(),
    skillsDescription: nullableStr(),
    experience: items({ company: str(), role: str(), period: str(), description: str() }),
    education: items({ institution: str(), degree: str(), period: str() }),
    additionalEducation: items({ institution: str(), course: str(), result: str(), period: str() }),
    languages: items({ name: str(), level: str() }),
    certificates: items({ title: str(), date: str(), url: str() }),
    portfolio: items({ url: str(), description: str() }),
    expectedSalary: nullableNum(),
    expectedSalaryCurrency: nullableStr(),
    preferredWorkFormat: strList(),
    preferredEmployment: nullableStr(),
    relocation: nullableStr(),
    sourceUrl: { ...nullableStr(), description: "The person's page on the job board; never a file." },
  },
  ['experience', 'education', 'additionalEducation', 'languages', 'certificates', 'portfolio'],
);

export const personSchema = closedObject({
  name: str(),
  email: nullableStr(),
  phone: nullableStr(),
  location: nullableStr(),
  birthDate: nullableStr(),
  gender: { ...nullableStr(), description: 'A text label.' },
  citizenship: strList(),
});

/** One application of one person to one vacancy (spec 2.2). */
export const candidateSchema = closedObject({
  id: { ...str(), description: 'The id returned when the application was created.' },
  vacancyId: nullableStr(),
  vacancyTitle: nullableStr(),
  stage: { ...nullableStr(), description: 'The board column the card stands in.' },
  source: { ...str(), description: 'The job-board label, manual, or the source the client sent.' },
  externalId: nullableStr(),
  coverLetter: nullableStr(),
  candidate: personSchema,
  resume: resumeSchema,
  referral: { oneOf: [referralSchema, { type: 'null' }], description: 'Filled exactly when the candidate is a referral.' },
  createdAt: timestamp(),
  updatedAt: { ...timestamp(), description: "The later of the card's and the resume's modification times." },
});
