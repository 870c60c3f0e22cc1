import type { Command } from 'commander';
import { ApiError, NetworkError, SyncStateError } from '../../../clients/typescript/src/index.js';
import { mirrorToDirectory } from '../../../clients/typescript/src/node.js';
import type { AdminContext } from '../admin-context.js';
import { CliFailure } from '../cli-failure.js';
import { countValue } from '../option-values.js';
import { SyncProgress } from '../sync/sync-progress.js';

interface SyncCommandOptions {
  readonly baseUrl: string;
  readonly key: string;
  readonly out: string;
  readonly full?: boolean;
  readonly fullEvery: number;
  readonly pageSize: number;
}

/**
 * `sync`: mirrors a company's data through the public API, as an integrator would, with the TypeScript
 * client's sync. It is an HTTP client: it opens no database, so it needs none of the service's settings.
 */
export function registerSyncCommand(program: Command, ctx: AdminContext): void {
  program
    .command('sync')
    .description(
      'mirror the vacancies (every status) and candidates of the key\'s company into DIR/vacancies.jsonl and DIR/candidates.jsonl, ' +
        'one current record per id, through the integration API; incremental after the first run, with a full pass (which removes ' +
        'deleted records) every --full-every runs; a stopped run goes on where it stopped. Progress goes to stderr. Prints {"added","changed","deleted"}',
    )
    .requiredOption('--base-url <url>', '{base_url} of the deployment, ending in /api, e.g. https://kz.example.com/api')
    .requiredOption('--key <key>', 'a service key with the scopes vacancies:read and candidates:read')
    .requiredOption('--out <dir>', 'the directory of the mirror (created when absent); its state is kept in DIR/.sync/')
    .option('--full', 'make this run a full pass')
    .option('--full-every <n>', 'make every n-th run a full pass', countValue(1, 1_000_000), 24)
    .option('--page-size <n>', 'records per request', countValue(1, 500), 500)
    .action(async (options: SyncCommandOptions) => {
      const progress = new SyncProgress(ctx.io);
      try {
        const result = await mirrorToDirectory({
          client: { baseUrl: options.baseUrl, apiKey: options.key, userAgent: 'integration-admin-sync' },
          directory: options.out,
          fullPassEvery: options.fullEvery,
          pageSize: options.pageSize,
          ...(options.full ? { full: true } : {}),
          onPage: (event) => progress.page(event),
        });
        ctx.print({ added: result.added, changed: result.changed, deleted: result.deleted, vacancies: result.vacancies, candidates: result.candidates });
      } catch (error) {
        throw failureOf(error, options.baseUrl);
      }
    });
}

/** Errors of the API in words an operator can act on; the key is never repeated. */
function failureOf(error: unknown, baseUrl: string): unknown {
  if (error instanceof ApiError) {
    const detail = error.problem === null ? `HTTP ${error.status}` : `${error.status} ${error.problem.code}: ${error.problem.detail}`;
    return new CliFailure(`the API at ${baseUrl} answered ${detail}${error.requestId === null ? '' : ` (request id ${error.requestId})`}`);
  }
  if (error instanceof NetworkError) return new CliFailure(`the API at ${baseUrl} cannot be reached: ${error.message}`);
  if (error instanceof SyncStateError) return new CliFailure(error.message);
  if (error instanceof TypeError && /Invalid URL|Failed to parse URL/i.test(error.message)) return new CliFailure(`--base-url ${baseUrl} is not a URL`);
  return error;
}
