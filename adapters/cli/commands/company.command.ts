import type { Command } from 'commander';
import type { AdminContext } from '../admin-context.js';
import { inOptionTerms } from '../option-problems.js';

export function registerCompanyCommands(program: Command, ctx: AdminContext): void {
  const company = program.command('company').description('client companies of the platform');

  company
    .command('create')
    .description('create a company; prints {"id","name"}')
    .requiredOption('--name <name>', 'the company name')
    .action(async (options: { name: string }) => {
      const created = await (await ctx.open()).createCompany
        .execute({ name: options.name })
        .catch((error: unknown) => Promise.reject(inOptionTerms(error, { name: { flag: '--name' } })));
      ctx.print({ id: created.id, name: created.name });
    });
}
