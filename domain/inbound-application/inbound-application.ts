import { ProblemCollector } from '../shared/domain-error.js';
import { canonicalJson, checkText } from '../shared/text-rules.js';
import { EXTERNAL_ID_MAX_LENGTH, EXTERNAL_ID_MIN_LENGTH, VACANCY_ID_MAX_LENGTH, VACANCY_ID_MIN_LENGTH } from './application-limits.js';
import type { Person, Referral } from '../candidate/person.js';
import type { Resume } from '../candidate/resume.js';

/** An application as an outside system sends it (spec 4.3), after its adapter filled the defaults. */
export interface InboundApplication {
  readonly externalId: string;
  readonly vacancyId: string;
  /** The client's label; null when the request named none. */
  readonly source: string | null;
  readonly candidate: Pick<Person, 'name' | 'email' | 'phone' | 'location' | 'birthDate'>;
  readonly coverLetter: string | null;
  readonly resume: Resume;
  readonly referral: Referral | null;
}

/** The text whose hash tells a replay of an application from a different body under the same externalId. */
export function canonicalApplication(application: InboundApplication): string {
  return canonicalJson(application);
}

/** The two identifiers an application is looked up by, checked before any store sees them. */
export function checkApplicationKeys(application: Pick<InboundApplication, 'externalId' | 'vacancyId'>): void {
  const problems = new ProblemCollector();
  checkText(problems, '/externalId', application.externalId, { min: EXTERNAL_ID_MIN_LENGTH, max: EXTERNAL_ID_MAX_LENGTH, required: true });
  checkText(problems, '/vacancyId', application.vacancyId, { min: VACANCY_ID_MIN_LENGTH, max: VACANCY_ID_MAX_LENGTH, required: true });
  problems.throwIfAny('The application is invalid.');
}
