import type { JobBoardVacancy } from '../../application/use-cases/import-job-board-vacancies.use-case.js';
import { htmlToText } from '../../domain/vacancy/html-text.js';
import { normaliseWorkFormat, type WorkFormatKind } from '../../domain/vacancy/work-format.js';
import { parseHhDateTime } from './hh-date.js';
import type { HhObject } from './hh-json.js';
import { mapHhRecord, type HhMapped } from './hh-mapped-record.js';

/** The board's work-format ids (`work_format[].id`) and what each means before normalisation. */
const WORK_FORMAT_KINDS: Readonly<Record<string, WorkFormatKind>> = { ON_SITE: 'onsite', REMOTE: 'remote', HYBRID: 'hybrid' };

/** One vacancy as the board's vacancy endpoint returns it, in platform terms; the text keeps the board's wording. */
export function mapHhVacancy(raw: unknown, index: number): HhMapped<JobBoardVacancy> {
  return mapHhRecord(raw, index, 'vacancy', (v) => {
    const formats = v.objects('work_format');
    const salary = v.object('salary_range') ?? v.object('salary');
    const description = v.text('description');
    return {
      title: v.requiredText('name'),
      status: v.boolean('archived') === true ? 'archived' : 'open',
      city: v.nameOf('area'),
      officeAddress: addressOf(v.object('address')),
      experience: v.nameOf('experience'),
      workFormat: normaliseWorkFormat(formats.map((f) => WORK_FORMAT_KINDS[f.text('id') ?? ''] ?? 'other')),
      workFormats: formats.flatMap((f) => f.text('name') ?? []),
      // Only an upper bound: the domain sets salaryFrom to salaryTo (spec 2.1).
      salaryFrom: salary?.number('from') ?? null,
      salaryTo: salary?.number('to') ?? null,
      salaryCurrency: salary?.text('currency') ?? null,
      salaryGross: salary?.boolean('gross') ?? null,
      employmentForm: v.nameOf('employment_form') ?? v.nameOf('employment'),
      workSchedule: v.namesOf('work_schedule_by_days'),
      skills: v.namesOf('key_skills'),
      languages: v.objects('languages').flatMap((l) => languageOf(l) ?? []),
      professionalRoles: v.namesOf('professional_roles'),
      description,
      responsibilities: description === null ? null : htmlToText(description),
      positionsCount: null,
      sourceUrl: v.text('alternate_url'),
      publishedAt: dateTimeOf(v, 'published_at'),
    };
  });
}

/** `raw` as the board wrote it; else the parts it has; null when every part is null (real data does that). */
function addressOf(address: HhObject | null): string | null {
  if (address === null) return null;
  const raw = address.text('raw');
  if (raw !== null && raw.trim() !== '') return raw;
  const parts = ['city', 'street', 'building'].flatMap((key) => {
    const part = address.text(key);
    return part === null || part.trim() === '' ? [] : [part];
  });
  return parts.length === 0 ? null : parts.join(', ');
}

/** `Английский (B1 — Средний)`: the name, with the level when the board gives one. */
function languageOf(language: HhObject): string | null {
  const name = language.text('name');
  if (name === null) return null;
  const level = language.nameOf('level');
  return level === null ? name : `${name} (${level})`;
}

function dateTimeOf(record: HhObject, key: string): Date | null {
  const text = record.text(key);
  if (text === null) return null;
  const date = parseHhDateTime(text);
  if (date === null) record.problem(key, `must be an ISO 8601 date-time with an offset, such as 2026-10-03T09:41:12+0500; got "${text}"`);
  return date;
}
