import { Option, type Command } from 'commander';
import type { JobBoardImportResult, JobBoardRecord } from '../../../application/use-cases/import-job-board-result.js';
import type { FieldProblem } from '../../../domain/shared/domain-error.js';
import { hhRecordsOf, type HhMapped, type HhRejection } from '../../job-board/hh-mapped-record.js';
import { mapHhResume } from '../../job-board/hh-resume.mapper.js';
import { mapHhVacancy } from '../../job-board/hh-vacancy.mapper.js';
import type { AdminContext } from '../admin-context.js';
import type { AdminServices } from '../admin-services.js';
import { CliFailure } from '../cli-failure.js';
import { readJsonInput } from '../json-input.js';

interface ImportOptions {
  readonly company: string;
  readonly vacancies?: string;
  readonly resumes?: string;
  readonly vacancy?: string;
}

export function registerImportCommands(program: Command, ctx: AdminContext): void {
  const importing = program.command('import').description('import from an external job board');

  importing
    .command('hh')
    .description(
      'import vacancies, or resumes as candidates of one vacancy, from files in the job board\'s API format ' +
        '({"items":[...]}, an array, or one record). A record imported before (same board id) is updated, not ' +
        'duplicated. A malformed record is reported and skipped; the exit status is non-zero only when every record was rejected',
    )
    .requiredOption('--company <id>', 'the company')
    .addOption(new Option('--vacancies <path>', 'file of vacancies, or - for standard input').conflicts(['resumes', 'vacancy']))
    .addOption(new Option('--resumes <path>', 'file of resumes, or - for standard input'))
    .option('--vacancy <vacancyId>', 'with --resumes: the vacancy the candidates apply to (they enter its first column)')
    .action(async (options: ImportOptions) => {
      if ((options.vacancies === undefined) === (options.resumes === undefined)) {
        throw new CliFailure('Give either --vacancies PATH, or --resumes PATH with --vacancy VACANCY_ID.');
      }
      if (options.resumes !== undefined && options.vacancy === undefined) throw new CliFailure('--resumes needs --vacancy VACANCY_ID.');
      const services = await ctx.forCompany(options.company);
      const result = await runImport(ctx, services, options);
      ctx.print(result);
      for (const r of result.rejected) {
        ctx.warn(`record ${r.index}${r.boardId === null ? '' : ` (board id ${r.boardId})`} rejected: ${r.message}${describeProblems(r.errors)}`);
      }
      const stored = result.created + result.updated + result.unchanged;
      if (stored === 0 && result.rejected.length > 0) throw new CliFailure('Every record was rejected; nothing was imported.');
    });
}

async function runImport(ctx: AdminContext, services: AdminServices, options: ImportOptions) {
  const source = services.jobBoardLabel;
  const companyId = options.company;
  if (options.vacancies !== undefined) {
    const mapped = recordsIn(await readJsonInput(ctx.io, options.vacancies), options.vacancies).map(mapHhVacancy);
    const { records, rejections } = split(mapped);
    return report(await services.importJobBoardVacancies.execute({ companyId, source, records }), rejections);
  }
  const path = options.resumes as string;
  const mapped = recordsIn(await readJsonInput(ctx.io, path), path).map(mapHhResume);
  const { records, rejections } = split(mapped);
  const vacancyId = options.vacancy as string;
  return report(await services.importJobBoardResumes.execute({ companyId, source, vacancyId, records }), rejections);
}

function recordsIn(json: unknown, path: string): unknown[] {
  const records = hhRecordsOf(json);
  if (records === null) {
    const name = path === '-' ? 'standard input' : path;
    throw new CliFailure(`${name} holds no job-board records: expected {"items":[...]}, an array of records, or one record with an "id".`);
  }
  return records;
}

function split<T>(mapped: readonly HhMapped<T>[]): { records: JobBoardRecord<T>[]; rejections: HhRejection[] } {
  const records: JobBoardRecord<T>[] = [];
  const rejections: HhRejection[] = [];
  for (const m of mapped) {
    if (m.ok) records.push(m.record);
    else rejections.push(m.rejection);
  }
  return { records, rejections };
}

/** The outcome, with the records the mapping refused and those the domain refused in one list, by index. */
function report(result: JobBoardImportResult, mappingRejections: readonly HhRejection[]) {
  const rejected = [...mappingRejections, ...result.rejected]
    .sort((a, b) => a.index - b.index)
    .map((r) => ({ index: r.index, boardId: r.boardId, message: r.message, errors: r.problems.map(({ pointer, message }) => ({ pointer, message })) }));
  return { created: result.created, updated: result.updated, unchanged: result.unchanged, rejected, records: result.records };
}

function describeProblems(problems: readonly FieldProblem[]): string {
  return problems.length === 0 ? '' : ` ${problems.map((p) => `${p.pointer || '/'}: ${p.message}`).join('; ')}`;
}
