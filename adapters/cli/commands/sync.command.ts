import type { Command } from 'commander';
import { ApiError, NetworkError, SyncAccessError, SyncStateError } from '../../../clients/typescript/src/index.js';
import { mirrorToDirectory } from '../../../clients/typescript/src/node.js';
import type { AdminContext } from '../admin-context.js';
import { CliFailure } from '../cli-failure.js';
import { countValue } from '../option-values.js';
import { KEY_ENV, resolveSyncKey } from '../sync/sync-key.js';
import { SyncProgress } from '../sync/sync-progress.js';

interface SyncCommandOptions {
  readonly baseUrl: string;
  readonly keyFile?: string;
  readonly key?: string;
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
        'one current record per id, through the integration API (the key\'s scopes are checked first: a key that may not read both writes nothing); incremental after the first run (a list with nothing new costs one 304, no request of ' +
        'the budget), with a deletion pass that reads identifiers only and removes deleted records every --full-every runs; a stopped run goes on where it stopped. Progress goes to stderr. Prints {"added","changed","deleted"}. ' +
        `The key comes from --key-file PATH or --key KEY (not both), either of which overrides the environment variable ${KEY_ENV}, used when neither is given`,
    )
    .requiredOption('--base-url <url>', '{base_url} of the deployment, ending in /api, e.g. https://kz.example.com/api')
    .option('--key-file <path>', 'file holding the service key (scopes vacancies:read and candidates:read): the key on one line, or the JSON that key issue --out writes')
    .option('--key <key>', `the key itself; prefer --key-file or ${KEY_ENV}, since other users see --key in ps and it stays in shell history`)
    .requiredOption('--out <dir>', 'the directory of the mirror (created when absent); its state is kept in DIR/.sync/')
    .option('--full', 'make this run a full pass: every record read again, deleted ones removed')
    .option('--full-every <n>', 'follow every n-th incremental run with a deletion pass (identifiers only)', countValue(1, 1_000_000), 24)
    .option('--page-size <n>', 'records per request', countValue(1, 500), 500)
    .action(async (options: SyncCommandOptions) => {
      const baseUrl = checkedBaseUrl(options.baseUrl);
      const apiKey = await resolveSyncKey(options, ctx.io);
      const progress = new SyncProgress(ctx.io);
      try {
        const result = await mirrorToDirectory({
          client: { baseUrl, apiKey, userAgent: 'integration-admin-sync' },
          directory: options.out,
          fullPassEvery: options.fullEvery,
          pageSize: options.pageSize,
          ...(options.full ? { full: true } : {}),
          onPage: (event) => progress.page(event),
        });
        ctx.print({ added: result.added, changed: result.changed, deleted: result.deleted, vacancies: result.vacancies, candidates: result.candidates });
      } catch (error) {
        throw failureOf(error, baseUrl);
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
  if (error instanceof SyncStateError || error instanceof SyncAccessError) return new CliFailure(error.message);
  return error;
}

/**
 * The base URL, checked before any request: an http(s) URL without a user name or password (the key is all
 * the API takes, and a password would be repeated in every message that names the URL). Since the value may
 * hold such a password, a refusal does not repeat it.
 */
function checkedBaseUrl(given: string): string {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new CliFailure('--base-url is not a URL; expected the {base_url} of the deployment, such as https://kz.example.com/api');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliFailure('--base-url must be an http:// or https:// URL');
  if (url.username !== '' || url.password !== '') throw new CliFailure('--base-url may not hold a user name or password; the service key is all the API takes');
  return given;
}
