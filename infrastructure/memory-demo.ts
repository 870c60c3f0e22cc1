import type { Container } from 'inversify';
import type { Logger } from 'pino';
import type { CliIo } from '../adapters/cli/cli-io.js';
import { seedDemo } from '../adapters/cli/seed/seed-demo.js';
import { adminServices } from './admin-cli-dependencies.js';
import type { AppConfig } from './config.js';
import { resolve } from './container/typed-binding.js';
import { USE_CASES } from './container/use-case.tokens.js';

/** Small enough to start in well under a second, large enough to page through. */
const DEMO_SIZE = { vacancies: 12, candidates: 120, seed: 1, batchSize: 500 } as const;

/** The seed's progress lines are for a terminal running the CLI; at start they would only be noise. */
const SILENT_IO: CliIo = {
  out: () => {},
  err: () => {},
  errIsTerminal: false,
  readStdin: async () => '',
  readFile: async () => '',
};

/**
 * STORE=memory: the admin CLI cannot reach this process's store (it refuses STORE=memory), so the service
 * fills it itself at start with a demo company and logs its key once, a development key: that log line is
 * the only place it appears, and it dies with the process like everything else in memory. With the management
 * API on, a development platform token is logged the same way.
 */
export async function seedMemoryDemo(container: Container, config: Pick<AppConfig, 'jobBoardLabel' | 'managementPort'>, logger: Logger): Promise<void> {
  const demo = await seedDemo(adminServices(container, config), SILENT_IO, DEMO_SIZE);
  // Logged under a name of its own: the logger redacts fields called `key`, as a guard for real keys.
  logger.info(
    {
      companyId: demo.companyId,
      developmentKey: demo.key,
      scopes: demo.scopes,
      vacancies: demo.vacancies,
      candidates: demo.candidates,
    },
    'STORE=memory: demo company seeded; developmentKey is a development key with every scope, for this process only (X-API-Key header)',
  );
  // The management API's token likewise (`admin platform-token issue` cannot reach this store either).
  if (config.managementPort === 0) return;
  const platformToken = await resolve(container, USE_CASES.issuePlatformToken).execute({ name: 'STORE=memory development token' });
  logger.info(
    { developmentPlatformToken: platformToken.token, platformTokenId: platformToken.id },
    'STORE=memory: developmentPlatformToken is a development platform token for the management API, for this process only (Authorization: Bearer)',
  );
}
