import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { InboundApplication } from '../../domain/inbound-application/inbound-application.js';
import { resumeOf } from '../../domain/candidate/resume.js';
import { pointerToken } from '../../domain/shared/domain-error.js';
import { applicationRequestSchema, type ApplicationRequestBody } from './application-request.schema.js';
import type { JsonProblem } from './json-problem.js';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE, unstorableTextProblems } from './storable-text.js';
import { CALENDAR_DATE_PATTERN } from '../../domain/candidate/candidate-rules.js';
import { EMAIL_ADDRESS_PATTERN } from '../../domain/candidate/email-address.js';
import { NON_BLANK_TEXT_PATTERN } from '../../domain/shared/text-patterns.js';

// ajv-formats is CommonJS; under NodeNext its function is the default export's `default`.
const addFormats = addFormatsModule.default;

const ajv = new Ajv({
  allErrors: true,
  removeAdditional: 'all',
  useDefaults: true,
  coerceTypes: false,
  allowUnionTypes: true,
  strict: true,
  // Each error carries the value it is about, so that a failed pattern can say which rule the value broke.
  verbose: true,
});
addFormats(ajv, ['date']);

const validateBody: ValidateFunction<ApplicationRequestBody> = ajv.compile<ApplicationRequestBody>(applicationRequestSchema);

export type ApplicationRequestReading =
  | { readonly ok: true; readonly application: InboundApplication }
  | {
      readonly ok: false;
      /** Every problem, at JSON Pointers into the document; never a value. */
      readonly problems: readonly JsonProblem[];
    };

/**
 * Validates a parsed JSON document (the body of POST /applications, the data of an application.submitted
 * event) and turns it into the domain's application. The document is changed in place (unknown fields
 * stripped, defaults filled in), as ajv does. A refused document gives every problem: the schema's, and
 * text no store can keep (NUL, unpaired surrogates). Each adapter tells them its own way.
 */
export function readApplicationRequest(body: unknown): ApplicationRequestReading {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, problems: [{ pointer: '', message: 'must be a JSON object' }] };
  }
  const valid = validateBody(body);
  const problems = valid ? [] : problemsOf(validateBody.errors ?? []);
  problems.push(...unstorableTextProblems(body, new Set(problems.map((p) => p.pointer))));
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, application: toInboundApplication(body as ApplicationRequestBody) };
}

function toInboundApplication(body: ApplicationRequestBody): InboundApplication {
  const { candidate, resume, referral } = body;
  return {
    externalId: body.externalId,
    vacancyId: body.vacancyId,
    // An empty label says as little as none: the default source applies.
    source: body.source === undefined || body.source === '' ? null : body.source,
    candidate: {
      name: candidate.name,
      email: candidate.email ?? null,
      phone: candidate.phone ?? null,
      location: candidate.location ?? null,
      birthDate: candidate.birthDate ?? null,
    },
    coverLetter: body.coverLetter ?? null,
    resume: resumeOf({
      role: resume?.role ?? null,
      summary: resume?.summary ?? null,
      experienceYears: resume?.experienceYears ?? null,
      skills: resume?.skills ?? [],
      experience: (resume?.experience ?? []).map(({ company, role, period, description }) => ({ company, role, period, description })),
      education: (resume?.education ?? []).map(({ institution, degree, period }) => ({ institution, degree, period })),
      expectedSalary: resume?.expectedSalary ?? null,
      expectedSalaryCurrency: resume?.expectedSalaryCurrency ?? null,
    }),
    referral:
      referral === undefined
        ? null
        : {
            name: referral.name,
            email: referral.email ?? null,
            phone: referral.phone ?? null,
            company: referral.company ?? null,
            relationship: referral.relationship ?? null,
          },
  };
}

function problemsOf(errors: readonly ErrorObject[]): JsonProblem[] {
  const seen = new Set<string>();
  const problems: JsonProblem[] = [];
  // An empty name is also blank; "must not be empty" says it all.
  const empty = new Set(errors.filter((e) => e.keyword === 'minLength').map((e) => e.instancePath));
  for (const error of errors) {
    if (error.keyword === 'pattern' && empty.has(error.instancePath)) continue;
    const problem = problemOf(error);
    const identity = `${problem.pointer}\n${problem.message}`;
    if (seen.has(identity)) continue;
    seen.add(identity);
    problems.push(problem);
  }
  return problems;
}

/** Messages a person can act on, instead of ajv's wording about keywords. */
function problemOf(error: ErrorObject): JsonProblem {
  const at = error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { pointer: `${at}/${pointerToken(String(params.missingProperty))}`, message: 'is required' };
    case 'type':
      return { pointer: at, message: `must be ${typeWords(params.type)}` };
    case 'minLength':
      return { pointer: at, message: params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters` };
    case 'maxLength':
      return { pointer: at, message: `must be at most ${String(params.limit)} characters` };
    case 'maxItems':
      return { pointer: at, message: `must have at most ${String(params.limit)} items` };
    case 'minimum':
      return { pointer: at, message: `must be at least ${String(params.limit)}` };
    case 'maximum':
      return { pointer: at, message: `must be at most ${String(params.limit)}` };
    case 'pattern':
      return { pointer: at, message: patternMessage(String(params.pattern), error.data) };
    case 'format':
      return { pointer: at, message: 'must be a date, YYYY-MM-DD' };
    default:
      return { pointer: at, message: error.message ?? 'is invalid' };
  }
}

/** The patterns of the request schema, in words. */
function patternMessage(pattern: string, value: unknown): string {
  if (pattern === EMAIL_ADDRESS_PATTERN) return 'must be an e-mail address';
  if (typeof value === 'string' && !isStorableText(value)) return UNSTORABLE_TEXT_MESSAGE;
  if (pattern === NON_BLANK_TEXT_PATTERN) return 'must not be blank';
  if (pattern === CALENDAR_DATE_PATTERN) return 'must be a date, YYYY-MM-DD';
  return 'does not have the form the document gives';
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  object: 'an object',
  array: 'an array',
  boolean: 'a boolean',
  null: 'null',
};

function typeWords(type: unknown): string {
  const types = Array.isArray(type) ? type : String(type).split(',');
  return types.map((t) => TYPE_WORDS[String(t)] ?? String(t)).join(' or ');
}
