import { canonicalJson } from '../shared/text-rules.js';
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
