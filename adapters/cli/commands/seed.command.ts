import type { Command } from 'commander';
import type { AdminContext } from '../admin-context.js';
import { countValue } from '../option-values.js';
import { printOrSave } from '../secret-file.js';
import { seedDemo } from '../seed/seed-demo.js';

interface SeedOptions {
  readonly vacancies: number;
  readonly candidates: number;
  readonly seed: number;
  readonly batchSize: number;
  readonly out?: string;
}

export function registerSeedCommands(program: Command, ctx: AdminContext): void {
  const seed = program.command('seed').description('demo data');

  seed
    .command('demo')
    .description(
      'create a demo company with a key of every scope, vacancies of every status and candidates of every origin ' +
        '(Kazakhstan and Uzbekistan). Progress goes to stderr. Prints {"companyId","key",...counts}; with --out, writes that ' +
        'to the file (mode 0600) and prints it without the key, with "savedTo"',
    )
    .option('--vacancies <n>', 'how many vacancies', countValue(1, 100_000), 30)
    .option('--candidates <n>', 'how many candidates', countValue(0, 10_000_000), 500)
    .option('--seed <n>', 'seed of the generator: the same seed gives the same content', countValue(0, 4_294_967_295), 1)
    .option('--batch-size <n>', 'cards per transaction', countValue(1, 50_000), 2_000)
    .option('--out <file>', 'write the document with the key to this file, readable by you only (e.g. var/demo.json: ./var is DATA_DIR by default, and git ignores it)')
    .action(async (options: SeedOptions) => {
      await printOrSave(options.out, (value) => ctx.print(value), async () => {
        const started = Date.now();
        const result = await seedDemo(await ctx.open(), ctx.io, options);
        const seconds = (Date.now() - started) / 1000;
        ctx.io.err(`seeded ${result.vacancies} vacancies and ${result.candidates} candidates in ${seconds.toFixed(1)} s\n`);
        return result;
      });
    });
}
