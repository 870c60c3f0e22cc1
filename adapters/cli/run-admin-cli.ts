import { CommanderError } from 'commander';
import { AdminContext } from './admin-context.js';
import { buildAdminProgram } from './admin-program.js';
import type { AdminCliDependencies } from './admin-services.js';
import { describeFailure } from './cli-failure.js';
import type { CliIo } from './cli-io.js';

/**
 * Runs one admin command and answers the process's exit status: 0 on success, the parser's status for a
 * usage error or help (its message is printed already), 1 for any other failure, reported on one line.
 */
export async function runAdminCli(argv: readonly string[], deps: AdminCliDependencies, io: CliIo): Promise<number> {
  const ctx = new AdminContext(deps, io);
  let status = 0;
  try {
    await buildAdminProgram(ctx).parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      status = error.exitCode;
    } else {
      io.err(`error: ${describeFailure(error)}\n`);
      status = 1;
    }
  }
  try {
    await deps.close();
  } catch (error) {
    io.err(`warning: closing the stores failed: ${describeFailure(error)}\n`);
  }
  return status;
}
