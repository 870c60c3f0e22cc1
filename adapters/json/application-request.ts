import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { InboundApplication } from '../../domain/inbound-application/inbound-application.js';
import { resumeOf } from '../../domain/candidate/resume.js';
import { applicationRequestSchema, type ApplicationRequestBody } from './application-request.schema.js';
import type { JsonProblem } from './json-problem.js';
import { problemsOfSchemaErrors } from './schema-problems.js';
import { unstorableTextProblems } from './storable-text.js';

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
  const problems = valid ? [] : problemsOfSchemaErrors(validateBody.errors ?? []);
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

