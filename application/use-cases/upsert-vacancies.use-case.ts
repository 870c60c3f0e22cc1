import { Board } from '../../domain/board/board.js';
import { ProblemCollector, ValidationError } from '../../domain/shared/domain-error.js';
import { RECORD_ID_PATTERN, RECORD_ID_RULE } from '../../domain/shared/record-id.js';
import { checkText } from '../../domain/shared/text-rules.js';
import { Vacancy, type VacancyInput, type VacancySnapshot } from '../../domain/vacancy/vacancy.js';
import { VACANCY_ID_MAX_LENGTH } from '../../domain/vacancy/vacancy-limits.js';
import type { BoardRepository } from '../ports/board-repository.port.js';
import type { CompanyRepository } from '../ports/company-repository.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { VacancyRepository } from '../ports/vacancy-repository.port.js';
import { buildAll } from './batch.js';
import { requireCompany } from './require-company.js';

export type VacancyUpsert = VacancyInput & { readonly id?: string | undefined };

export interface UpsertVacanciesCommand {
  readonly companyId: string;
  readonly vacancies: readonly VacancyUpsert[];
}

const VACANCY_ID = new RegExp(RECORD_ID_PATTERN);

/**
 * Creates vacancies, or replaces existing ones whole, like a PUT (DESIGN 3). The batch is all or nothing;
 * the answer keeps the input order. An unchanged vacancy keeps its modification time.
 */
export class UpsertVacancies {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly vacancies: VacancyRepository,
    private readonly boards: BoardRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly ids: IdGenerator,
  ) {}

  async execute(command: UpsertVacanciesCommand): Promise<VacancySnapshot[]> {
    await requireCompany(this.companies, command.companyId);
    checkIds(command.vacancies);
    return this.unitOfWork.run(command.companyId, 'write', async ({ now }) => {
      const existing = await Promise.all(
        command.vacancies.map((input) => (input.id === undefined ? null : this.vacancies.findById(command.companyId, input.id))),
      );
      const planned = buildAll(command.vacancies, (input, index) => {
        const { id, ...content } = input;
        const current = existing[index] ?? null;
        if (current !== null) {
          // A vacancy imported from the job board stays linked to its board record unless the input names another.
          const sourceRef = content.sourceRef ?? current.toSnapshot().sourceRef;
          return { vacancy: current, isNew: false, changed: current.replace({ ...content, sourceRef }, now) };
        }
        const vacancy = Vacancy.create({ id: id ?? this.ids.newId(), companyId: command.companyId, input: content, now });
        return { vacancy, isNew: true, changed: true };
      });
      for (const { vacancy, isNew, changed } of planned) {
        if (isNew) {
          await this.vacancies.insert(vacancy);
          if ((await this.boards.find(command.companyId, vacancy.id)) === null) {
            await this.boards.save(Board.create(command.companyId, vacancy.id));
          }
        } else if (changed) {
          await this.vacancies.update(vacancy);
        }
      }
      return planned.map(({ vacancy }) => vacancy.toSnapshot());
    });
  }
}

function checkIds(inputs: readonly VacancyUpsert[]): void {
  const problems = new ProblemCollector();
  const seen = new Set<string>();
  inputs.forEach((input, index) => {
    if (input.id === undefined) return;
    checkText(problems, `/${index}/id`, input.id, { min: 1, max: VACANCY_ID_MAX_LENGTH });
    if (!VACANCY_ID.test(input.id)) problems.add(`/${index}/id`, RECORD_ID_RULE);
    if (seen.has(input.id)) problems.add(`/${index}/id`, `repeats the id ${input.id} of an earlier record of the batch`);
    seen.add(input.id);
  });
  if (problems.problems.length > 0) throw new ValidationError(problems.problems, 'The batch is invalid; nothing was stored.');
}
