import { Command } from 'commander';
import type { AdminContext } from './admin-context.js';
import { hideKeys } from './cli-failure.js';
import { registerBoardCommands } from './commands/board.command.js';
import { registerCandidateCommands } from './commands/candidate.command.js';
import { registerCheckCommands } from './commands/check.command.js';
import { registerCompanyCommands } from './commands/company.command.js';
import { registerFeedCommands } from './commands/feed.command.js';
import { registerImportCommands } from './commands/import.command.js';
import { registerKeyCommands } from './commands/key.command.js';
import { registerMigrateCommand } from './commands/migrate.command.js';
import { registerPlatformTokenCommands } from './commands/platform-token.command.js';
import { registerSeedCommands } from './commands/seed.command.js';
import { registerSyncCommand } from './commands/sync.command.js';
import { registerVacancyCommands } from './commands/vacancy.command.js';

/**
 * The admin CLI's commands, with the names and flags of DESIGN section 4. Settings are made before the
 * subcommands, which inherit them: errors throw instead of exiting, and output goes through the context.
 */
export function buildAdminProgram(ctx: AdminContext): Command {
  const program = new Command('admin')
    .description(
      'Admin CLI of the integration API. Every command prints JSON on stdout and exits 0; on error it prints ' +
        'one line on stderr and exits non-zero. It reads the same environment as the service (STORE, DATABASE_URL, ...).',
    )
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.io.out(text),
      writeErr: (text) => ctx.io.err(text),
      // One line per error, the suggestion ("Did you mean ...?") included; a key typed in the wrong place is not repeated.
      outputError: (text, write) => write(`${hideKeys(text.trimEnd().replace(/\s*\n\s*/g, ' '))}\n`),
    })
    .showSuggestionAfterError(true)
    .allowExcessArguments(false);
  registerMigrateCommand(program, ctx);
  registerCompanyCommands(program, ctx);
  registerKeyCommands(program, ctx);
  registerPlatformTokenCommands(program, ctx);
  registerVacancyCommands(program, ctx);
  registerCandidateCommands(program, ctx);
  registerBoardCommands(program, ctx);
  registerImportCommands(program, ctx);
  registerSeedCommands(program, ctx);
  registerCheckCommands(program, ctx);
  registerSyncCommand(program, ctx);
  registerFeedCommands(program, ctx);
  return program;
}
