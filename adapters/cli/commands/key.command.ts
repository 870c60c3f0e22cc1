import type { Command } from 'commander';
import { adminCliActor } from '../../../application/use-cases/actor.js';
import { isScope, SCOPES } from '../../../domain/service-key/scope.js';
import { KEY_ID_LENGTH, KEY_PREFIX } from '../../../domain/service-key/service-key-format.js';
import { isoTimestamp, isoTimestampOrNull } from '../../presenters/timestamp.js';
import type { AdminContext } from '../admin-context.js';
import { CliFailure } from '../cli-failure.js';
import { inOptionTerms } from '../option-problems.js';
import { commaList, dateTimeValue } from '../option-values.js';
import { printOrSave } from '../secret-file.js';

interface IssueOptions {
  readonly company: string;
  readonly scopes: string[];
  readonly name: string;
  readonly expiresAt?: Date;
  readonly out?: string;
  readonly actor?: string;
}

const KEY_OPTIONS = {
  scopes: { flag: '--scopes', list: true },
  name: { flag: '--name' },
  expiresAt: { flag: '--expires-at' },
  actor: { flag: '--actor' },
} as const;
const ACTOR_OPTION = ['--actor <name>', 'who asks for it, kept in the key events (default: admin-cli)'] as const;
const KEY_ID = new RegExp(`^[0-9A-Za-z]{${KEY_ID_LENGTH}}$`);

export function registerKeyCommands(program: Command, ctx: AdminContext): void {
  const key = program.command('key').description('service keys of a company');

  key
    .command('issue')
    .description(
      'issue a key; the full key is shown this once and never stored. Prints {"id","key","scopes","companyId","expiresAt"}; ' +
        'with --out, writes that to the file (mode 0600) and prints it without the key, with "savedTo"',
    )
    .requiredOption('--company <id>', 'the company that owns the key')
    .requiredOption('--scopes <list>', `comma-separated: ${SCOPES.join(', ')}`, commaList)
    .option('--name <name>', 'what the key is for', 'service key')
    .option('--expires-at <date-time>', 'RFC 3339 moment after which the key stops working', dateTimeValue)
    .option('--out <file>', 'write the document with the key to this file, readable by you only (keep it under DATA_DIR, ./var, which git ignores)')
    .option(...ACTOR_OPTION)
    .action(async (options: IssueOptions) => {
      checkScopes(options.scopes);
      const services = await ctx.forCompany(options.company);
      await printOrSave(options.out, (value) => ctx.print(value), async () => {
        const issued = await services.issueKey
          .execute({
            companyId: options.company,
            scopes: options.scopes,
            name: options.name,
            expiresAt: options.expiresAt ?? null,
            actor: adminCliActor(options.actor),
          })
          .catch((error: unknown) => Promise.reject(inOptionTerms(error, KEY_OPTIONS)));
        return { id: issued.id, key: issued.key, scopes: issued.scopes, companyId: issued.companyId, expiresAt: isoTimestampOrNull(issued.expiresAt) };
      });
    });

  key
    .command('revoke')
    .description('revoke a key at once; revoking twice keeps the first moment. Prints {"id","revokedAt"}')
    .requiredOption('--id <keyId>', `the key id: the ${KEY_ID_LENGTH} characters between ${KEY_PREFIX} and the second _ of the key, as key list shows it`)
    .option(...ACTOR_OPTION)
    .action(async (options: { id: string; actor?: string }) => {
      checkKeyId(options.id);
      const revoked = await (await ctx.open()).revokeKey
        .execute({ keyId: options.id, actor: adminCliActor(options.actor) })
        .catch((error: unknown) => Promise.reject(inOptionTerms(error, { actor: KEY_OPTIONS.actor })));
      ctx.print({ id: revoked.id, revokedAt: isoTimestamp(revoked.revokedAt) });
    });

  key
    .command('list')
    .description('list the keys of a company, oldest first, without secrets')
    .requiredOption('--company <id>', 'the company')
    .action(async (options: { company: string }) => {
      const keys = await (await ctx.forCompany(options.company)).listKeys.execute({ companyId: options.company });
      ctx.print(
        keys.map((k) => ({
          id: k.id,
          name: k.name,
          scopes: k.scopes,
          createdAt: isoTimestamp(k.createdAt),
          lastUsedAt: isoTimestampOrNull(k.lastUsedAt),
          revokedAt: isoTimestampOrNull(k.revokedAt),
          expiresAt: isoTimestampOrNull(k.expiresAt),
        })),
      );
    });
}

/** Unknown scopes, said of the option and checked before any database is opened. */
function checkScopes(scopes: readonly string[]): void {
  const unknown = scopes.filter((scope) => !isScope(scope)).map((scope) => JSON.stringify(scope));
  if (unknown.length === 0) return;
  const what = unknown.length === 1 ? `${unknown[0]} is not a scope` : `${unknown.join(', ')} are not scopes`;
  throw new CliFailure(`--scopes: ${what}; use ${SCOPES.join(', ')}`);
}

/**
 * A whole key, or its secret, pasted where the id goes would otherwise come back in "not found": the value
 * is never repeated unless it has the form of an id, which is no secret.
 */
function checkKeyId(id: string): void {
  if (KEY_ID.test(id)) return;
  if (id.startsWith(KEY_PREFIX)) {
    throw new CliFailure(`--id takes the key id (the part between ${KEY_PREFIX} and the second underscore), not the whole key`);
  }
  throw new CliFailure(`--id: a key id is ${KEY_ID_LENGTH} letters and digits (the part between ${KEY_PREFIX} and the second underscore of the key)`);
}
