import type { Command } from 'commander';
import type { AdminContext } from '../admin-context.js';

export function registerMigrateCommand(program: Command, ctx: AdminContext): void {
  program
    .command('migrate')
    .description('bring the schema of the business database and of the key registry up to date')
    .action(async () => {
      ctx.print(await ctx.deps.migrate());
    });
}
