import type { Command } from 'commander';
import {
  isPlatformTokenId,
  PLATFORM_TOKEN_ID_LENGTH,
  PLATFORM_TOKEN_PREFIX,
} from '../../../domain/platform-token/platform-token-format.js';
import { adminCliActor } from '../../../application/use-cases/actor.js';
import { InvalidCursorError } from '../../../domain/paging/cursor.js';
import { isPlatformScope, PLATFORM_SCOPES } from '../../../domain/platform-token/platform-scope.js';
import { KEY_EVENTS_LIMIT_DEFAULT, KEY_EVENTS_LIMIT_MAX, KEY_EVENTS_LIMIT_MIN } from '../../../domain/service-key/key-event.js';
import { isoTimestamp, isoTimestampOrNull } from '../../presenters/timestamp.js';
import type { AdminContext } from '../admin-context.js';
import { CliFailure } from '../cli-failure.js';
import { inOptionTerms } from '../option-problems.js';
import { commaList, countValue, dateTimeValue } from '../option-values.js';
import { printOrSave } from '../secret-file.js';

const TOKEN_OPTIONS = {
  name: { flag: '--name' },
  scopes: { flag: '--scopes', list: true },
  companies: { flag: '--companies', list: true },
  expiresAt: { flag: '--expires-at' },
  actor: { flag: '--actor' },
} as const;
const ACTOR_OPTION = ['--actor <name>', 'who asks for it, kept in the platform tokens\' events (default: admin-cli)'] as const;

interface IssueOptions {
  readonly name: string;
  readonly scopes?: string[];
  readonly companies?: string[];
  readonly expiresAt?: Date;
  readonly out?: string;
  readonly actor?: string;
}

/** Tokens of the platform's own services for the management API (issue 14). They belong to no company. */
export function registerPlatformTokenCommands(program: Command, ctx: AdminContext): void {
  const token = program.command('platform-token').description("bearer tokens of the platform's services for the management API");

  token
    .command('issue')
    .description(
      'issue a token; the full token is shown this once and never stored. Prints {"id","token","name","scopes","companies","createdAt","expiresAt"}; ' +
        'with --out, writes that to the file (mode 0600) and prints it without the token, with "savedTo". Recorded as a platform_token_issued event',
    )
    .requiredOption('--name <name>', 'which service holds it (1 to 200 characters)')
    .option('--scopes <list>', `comma-separated, what it may do: ${PLATFORM_SCOPES.join(', ')} (default: all of them)`, commaList)
    .option('--companies <list>', 'comma-separated company ids it is limited to (default: every company; a limited token cannot create companies)', commaList)
    .option('--expires-at <date-time>', 'RFC 3339 moment after which the token stops working (default: never)', dateTimeValue)
    .option('--out <file>', 'write the document with the token to this file, readable by you only')
    .option(...ACTOR_OPTION)
    .action(async (options: IssueOptions) => {
      if (options.scopes !== undefined) checkScopes(options.scopes);
      const services = await ctx.open();
      await printOrSave(
        options.out,
        (value) => ctx.print(value),
        async () => {
          const issued = await services.issuePlatformToken
            .execute({
              name: options.name,
              ...(options.scopes === undefined ? {} : { scopes: options.scopes }),
              companies: options.companies ?? null,
              expiresAt: options.expiresAt ?? null,
              actor: adminCliActor(options.actor),
            })
            .catch((error: unknown) => Promise.reject(inOptionTerms(error, TOKEN_OPTIONS)));
          return {
            id: issued.id,
            token: issued.token,
            name: issued.name,
            scopes: issued.scopes,
            companies: issued.companies,
            createdAt: isoTimestamp(issued.createdAt),
            expiresAt: isoTimestampOrNull(issued.expiresAt),
          };
        },
        'token',
      );
    });

  token
    .command('revoke')
    .description(
      'revoke a token at once: the next request with it is refused; revoking twice keeps the first moment. Prints {"id","revokedAt"}. ' +
        'Recorded as a platform_token_revoked event (the first time only)',
    )
    .requiredOption('--id <tokenId>', `the token id: the ${PLATFORM_TOKEN_ID_LENGTH} characters between ${PLATFORM_TOKEN_PREFIX} and the second _, as platform-token list shows it`)
    .option(...ACTOR_OPTION)
    .action(async (options: { id: string; actor?: string }) => {
      checkTokenId(options.id);
      const revoked = await (await ctx.open()).revokePlatformToken
        .execute({ id: options.id, actor: adminCliActor(options.actor) })
        .catch((error: unknown) => Promise.reject(inOptionTerms(error, { actor: TOKEN_OPTIONS.actor })));
      ctx.print({ id: revoked.id, revokedAt: isoTimestamp(revoked.revokedAt) });
    });

  token
    .command('list')
    .description('list every token, oldest first, without secrets: [{"id","name","scopes","companies","createdAt","expiresAt","revokedAt"}] (companies null: every company)')
    .action(async () => {
      const tokens = await (await ctx.open()).listPlatformTokens.execute();
      ctx.print(
        tokens.map((t) => ({
          id: t.id,
          name: t.name,
          scopes: t.scopes,
          companies: t.companies,
          createdAt: isoTimestamp(t.createdAt),
          expiresAt: isoTimestampOrNull(t.expiresAt),
          revokedAt: isoTimestampOrNull(t.revokedAt),
        })),
      );
    });

  token
    .command('events')
    .description(
      'the tokens\' audit trail, newest first: {"items":[{"id","type","tokenId","at","actor","via","expiresAt"}],"nextCursor"}; ' +
        'type is platform_token_issued or platform_token_revoked; pass nextCursor as --cursor for the next page',
    )
    .option('--limit <n>', `events per page, ${KEY_EVENTS_LIMIT_MIN} to ${KEY_EVENTS_LIMIT_MAX}`, countValue(KEY_EVENTS_LIMIT_MIN, KEY_EVENTS_LIMIT_MAX), KEY_EVENTS_LIMIT_DEFAULT)
    .option('--cursor <cursor>', 'nextCursor of the previous page')
    .action(async (options: { limit: number; cursor?: string }) => {
      const page = await (await ctx.open()).listPlatformTokenEvents
        .execute({ limit: options.limit, cursor: options.cursor ?? null })
        .catch((error: unknown) => Promise.reject(error instanceof InvalidCursorError ? new CliFailure(`--cursor: ${error.message}`) : error));
      ctx.print({
        items: page.items.map((e) => ({ id: e.id, type: e.type, tokenId: e.tokenId, at: isoTimestamp(e.at), actor: e.actor, via: e.via, expiresAt: isoTimestampOrNull(e.expiresAt) })),
        nextCursor: page.nextCursor,
      });
    });
}

/** Unknown scopes, said of the option and checked before any database is opened. */
function checkScopes(scopes: readonly string[]): void {
  const unknown = scopes.filter((scope) => !isPlatformScope(scope)).map((scope) => JSON.stringify(scope));
  if (unknown.length === 0) return;
  const what = unknown.length === 1 ? `${unknown[0]} is not a scope` : `${unknown.join(', ')} are not scopes`;
  throw new CliFailure(`--scopes: ${what}; use ${PLATFORM_SCOPES.join(', ')}`);
}

/** A whole token pasted where the id goes is never repeated: only a value of the id's form is. */
function checkTokenId(id: string): void {
  if (isPlatformTokenId(id)) return;
  if (id.startsWith(PLATFORM_TOKEN_PREFIX)) {
    throw new CliFailure(`--id takes the token id (the part between ${PLATFORM_TOKEN_PREFIX} and the second underscore), not the whole token`);
  }
  throw new CliFailure(`--id: a token id is ${PLATFORM_TOKEN_ID_LENGTH} letters and digits (the part between ${PLATFORM_TOKEN_PREFIX} and the second underscore of the token)`);
}
