import { ProblemCollector, ValidationError } from '../shared/domain-error.js';
import { canonicalJson, checkText } from '../shared/text-rules.js';
import { EXTERNAL_ID_MAX_LENGTH, EXTERNAL_ID_MIN_LENGTH, MANUAL_SOURCE, VACANCY_ID_MAX_LENGTH, VACANCY_ID_MIN_LENGTH } from './application-limits.js';
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

/**
 * The `source` labels the platform gives its own cards (spec 2.2.1): `manual` for a recruiter's card and the job
 * board's label for an import. An application's `source` is the client's label, any other text.
 */
export function reservedApplicationSources(jobBoardLabel: string): ReadonlySet<string> {
  return new Set([MANUAL_SOURCE, jobBoardLabel]);
}

/**
 * An application may not carry a label the platform reserves, in any spelling that reads as one: its card would
 * read as a recruiter's or as an import from the job board. Checked once the body has its shape, like the keys.
 */
export function checkApplicationSource(application: Pick<InboundApplication, 'source'>, reserved: ReadonlySet<string>): void {
  if (application.source === null || !readsAsReservedSource(application.source, reserved)) return;
  const labels = [...reserved].map((label) => `"${label}"`).join(', ');
  throw new ValidationError(
    [
      {
        pointer: '/source',
        message: `must not be a label the platform gives its own cards (${labels}, in any case, spaces around ignored): those mark a recruiter's card and an import from the job board`,
      },
    ],
    'The application is invalid.',
  );
}

/** Whether a label reads as one the platform reserves: the same once both are folded (foldedLabel). */
export function readsAsReservedSource(source: string, reserved: ReadonlySet<string>): boolean {
  const folded = foldedLabel(source);
  return [...reserved].some((label) => foldedLabel(label) === folded);
}

/** Characters that show nothing (zero-width spaces and joiners, soft hyphens, ...). */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * A label as a reader sees it: compatibility forms unified (fullwidth "ＨＨ" is "HH"), invisible characters
 * dropped, trimmed, case-folded. Upper then lower case folds what lower case alone keeps apart ("ſ" and "s",
 * "ß" and "ss"); neither depends on the process's locale.
 */
function foldedLabel(label: string): string {
  return label.normalize('NFKC').replace(INVISIBLE, '').trim().toUpperCase().toLowerCase();
}
