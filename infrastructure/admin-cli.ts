import { processIo } from '../adapters/cli/cli-io.js';
import { runAdminCli } from '../adapters/cli/run-admin-cli.js';
import { pino } from 'pino';
import { adminCliDependencies } from './admin-cli-dependencies.js';
import { ConfigError, loadConfig, type AppConfig } from './config.js';
import { createLogger } from './logger.js';

/**
 * `npm run admin -- <command>` (and the package's bin): the admin CLI's entry. The adapter in adapters/cli
 * parses the command line and calls the use cases; the composition root lives here, in infrastructure/,
 * because adapters may not import it (DESIGN 2).
 */
async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    // One line on stderr, as for every failure of the CLI, with every problem of the settings on it.
    const message =
      error instanceof ConfigError && error.problems.length > 1
        ? `${error.problems.length} settings are invalid: ${error.problems.join(' ')}`
        : error instanceof Error ? error.message : String(error);
    process.stderr.write(`error: ${message}\n`);
    process.exitCode = 1;
    return;
  }
  // Logs go to stderr, since stdout carries the command's JSON; warnings only, unless LOG_LEVEL asks for more.
  const level = process.env.LOG_LEVEL?.trim() ? config.logLevel : 'warn';
  const logger = createLogger(level, pino.destination({ dest: 2, sync: true }));
  const dependencies = adminCliDependencies(config, logger);
  process.exitCode = await runAdminCli(process.argv.slice(2), dependencies, processIo());
  // After the command's own output; on success only, so that a failure stays one line on stderr.
  const notice = process.exitCode === 0 ? await dependencies.embeddedDatabaseNotice() : null;
  if (notice !== null) process.stderr.write(notice);
}

await main();
