import type { Command } from 'commander';
import type { AdminContext } from '../admin-context.js';
import { commaList } from '../option-values.js';

export function registerBoardCommands(program: Command, ctx: AdminContext): void {
  const board = program.command('board').description("vacancies' boards of columns");

  board
    .command('set-columns')
    .description('rename, add and reorder the columns of a board; a column that holds cards cannot be dropped. Prints {"vacancyId","columns"}')
    .requiredOption('--company <id>', 'the company')
    .requiredOption('--vacancy <vacancyId>', 'the vacancy whose board it is')
    .requiredOption('--columns <list>', 'comma-separated column names, in order; new cards enter the first', commaList)
    .action(async (options: { company: string; vacancy: string; columns: string[] }) => {
      const services = await ctx.forCompany(options.company);
      ctx.print(await services.setBoardColumns.execute({ companyId: options.company, vacancyId: options.vacancy, columns: options.columns }));
    });
}
