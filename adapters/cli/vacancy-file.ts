import type { VacancyUpsert } from '../../application/use-cases/upsert-vacancies.use-case.js';
import { ValidationError, type ProblemCollector } from '../../domain/shared/domain-error.js';
import { Vacancy } from '../../domain/vacancy/vacancy.js';
import type { Schema } from '../json/schema-parts.js';
import { DERIVED_WHEN_ABSENT, kindOf, VACANCY_UPSERT_PROPERTIES, vacancyUpsertSchema } from '../json/vacancy-upsert.js';
import type { JsonFields } from './json-fields.js';
import { readRecordFile } from './record-batch.js';

/**
 * The records of a `vacancy upsert` file: the vacancy upsert body the feed's `vacancy.upserted` carries too
 * (adapters/json/vacancy-upsert.ts) with an optional id; the API's Vacancy fields (createdAt and updatedAt
 * ignored) plus an optional recruiter. Each field is read as its schema says, strictly (JsonFields); every
 * record is checked before the use case sees any.
 */
export function readVacancyFile(json: unknown): VacancyUpsert[] {
  return readRecordFile(json, { read: readVacancy, rules: vacancyRules }, 'The file is invalid; nothing was stored.');
}

/** The domain's rules of a vacancy, as creating one checks them; nothing is stored. */
function vacancyRules(upsert: VacancyUpsert, problems: ProblemCollector): void {
  const { id: _id, ...input } = upsert;
  try {
    Vacancy.create({ id: 'unsaved', companyId: 'unsaved', input, now: new Date() });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    for (const p of error.problems) problems.add(p.pointer, p.message);
  }
}

const REQUIRED: readonly string[] = vacancyUpsertSchema.required as string[];

function readVacancy(v: JsonFields): VacancyUpsert {
  const id = v.string('id');
  // Absent, a field the domain derives stays absent (DESIGN 3, workFormat); given, even as null, it is taken as it is.
  const fields = Object.entries(VACANCY_UPSERT_PROPERTIES as Record<string, Schema>).flatMap(([key, schema]) =>
    !v.has(key) && DERIVED_WHEN_ABSENT.has(key) ? [] : [[key, readField(v, key, schema)]],
  );
  return { ...(id === null ? {} : { id }), ...(Object.fromEntries(fields) as Pick<VacancyUpsert, 'title' | 'status'>), sourceRef: null };
}

/** One field, by the kind its schema gives it; a wrong type is a problem and reads as not given. */
function readField(v: JsonFields, key: string, schema: Schema): unknown {
  switch (kindOf(schema)) {
    case 'list':
      return v.strings(key);
    case 'date-time':
      return v.dateTime(key);
    case 'number':
      return v.number(key);
    case 'integer':
      return v.integer(key);
    case 'boolean':
      return v.boolean(key);
    case 'string': {
      const required = REQUIRED.includes(key);
      const value = required ? v.requiredString(key) : v.string(key);
      const allowed = schema.enum as readonly (string | null)[] | undefined;
      // A required text not given reads as "", its problem told already.
      if (allowed !== undefined && value !== null && !(required && value === '') && !allowed.includes(value)) {
        v.problem(key, `must be one of ${allowed.filter((item) => item !== null).join(', ')}${allowed.includes(null) ? ', or null' : ''}`);
      }
      return value;
    }
  }
}
