import type { Command } from 'commander';
import { isoTimestamp, isoTimestampOrNull } from '../../presenters/timestamp.js';
import type { AdminContext } from '../admin-context.js';
import { commaList, dateTimeValue } from '../option-values.js';

export function registerKeyCommands(program: Command, ctx: AdminContext): void {
  const key = program.command('key').description('service keys of a company');

  key
    .command('issue')
    .description('issue a key; the full key is printed this once and never stored. Prints {"id","key","scopes","companyId","expiresAt"}')
    .requiredOption('--company <id>', 'the company that owns the key')
    .requiredOption('--scopes <list>', 'comma-separated: vacancies:read, candidates:read, applications:write', commaList)
    .option('--name <name>', 'what the key is for', 'service key')
    .option('--expires-at <date-time>', 'RFC 3339 moment after which the key stops working', dateTimeValue)
    .action(async (options: { company: string; scopes: string[]; name: string; expiresAt?: Date }) => {
      const services = await ctx.forCompany(options.company);
      const issued = await services.issueKey.execute({
        companyId: options.company,
        scopes: options.scopes,
        name: options.name,
        expiresAt: options.expiresAt ?? null,
      });
      ctx.print({ id: issued.id, key: issued.key, scopes: issued.scopes, companyId: issued.companyId, expiresAt: isoTimestampOrNull(issued.expiresAt) });
    });

  key
    .command('revoke')
    .description('revoke a key at once; revoking twice keeps the first moment. Prints {"id","revokedAt"}')
    .requiredOption('--id <keyId>', 'the key id (the part after ik_, before the second _)')
    .action(async (options: { id: string }) => {
      const revoked = await (await ctx.open()).revokeKey.execute({ keyId: options.id });
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
