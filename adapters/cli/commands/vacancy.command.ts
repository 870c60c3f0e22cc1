import type { Command } from 'commander';
import { presentAdminVacancy } from '../../presenters/vacancy.presenter.js';
import type { AdminContext } from '../admin-context.js';
import { readJsonInput } from '../json-input.js';
import { readVacancyFile } from '../vacancy-file.js';

export function registerVacancyCommands(program: Command, ctx: AdminContext): void {
  const vacancy = program.command('vacancy').description('vacancies of a company');

  vacancy
    .command('upsert')
    .description(
      'create vacancies, or replace existing ones whole by id (fields not given become null or empty). The file holds ' +
        'one vacancy or an array, fields as the API\'s Vacancy plus "recruiter"; all or nothing. Prints the vacancies, in file order',
    )
    .requiredOption('--company <id>', 'the company')
    .requiredOption('--file <path>', 'JSON file, or - for standard input')
    .action(async (options: { company: string; file: string }) => {
      const services = await ctx.forCompany(options.company);
      const vacancies = readVacancyFile(await readJsonInput(ctx.io, options.file));
      const stored = await services.upsertVacancies.execute({ companyId: options.company, vacancies });
      ctx.print(stored.map(presentAdminVacancy));
    });

  vacancy
    .command('delete')
    .description('delete a vacancy for good; its candidates stay, without a vacancy. Prints {"id","deleted":true}')
    .requiredOption('--company <id>', 'the company')
    .requiredOption('--id <vacancyId>', 'the vacancy')
    .action(async (options: { company: string; id: string }) => {
      const services = await ctx.forCompany(options.company);
      ctx.print(await services.deleteVacancy.execute({ companyId: options.company, id: options.id }));
    });
}
