import type { Command } from 'commander';
import type { AdminContext } from '../admin-context.js';
import { inOptionTerms } from '../option-problems.js';
import { commaList } from '../option-values.js';

export function registerBoardCommands(program: Command, ctx: AdminContext): void {
  const board = program.command('board').description("vacancies' boards of columns");

  board
    .command('set-columns')
    .description(
      'replace the columns of a board with the list: add, drop and reorder them. A column is never renamed: cards keep the ' +
        'column they are in, so a column that holds cards must stay in the list (move its cards first to drop it). Prints {"vacancyId","columns"}',
    )
    .requiredOption('--company <id>', 'the company')
    .requiredOption('--vacancy <vacancyId>', 'the vacancy whose board it is')
    .requiredOption('--columns <list>', 'comma-separated column names, in order; new cards enter the first', commaList)
    .action(async (options: { company: string; vacancy: string; columns: string[] }) => {
      const services = await ctx.forCompany(options.company);
      const board = await services.setBoardColumns
        .execute({ companyId: options.company, vacancyId: options.vacancy, columns: options.columns })
        .catch((error: unknown) => Promise.reject(inOptionTerms(error, { columns: { flag: '--columns', list: true } })));
      ctx.print(board);
    });
}
