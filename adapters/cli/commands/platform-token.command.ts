import type { Command } from 'commander';
import {
  isPlatformTokenId,
  PLATFORM_TOKEN_ID_LENGTH,
  PLATFORM_TOKEN_PREFIX,
} from '../../../domain/platform-token/platform-token-format.js';
import { isoTimestamp, isoTimestampOrNull } from '../../presenters/timestamp.js';
import type { AdminContext } from '../admin-context.js';
import { CliFailure } from '../cli-failure.js';
import { inOptionTerms } from '../option-problems.js';
import { printOrSave } from '../secret-file.js';

/** Tokens of the platform's own services for the management API (issue 14). They belong to no company. */
export function registerPlatformTokenCommands(program: Command, ctx: AdminContext): void {
  const token = program.command('platform-token').description("bearer tokens of the platform's services for the management API");

  token
    .command('issue')
    .description(
      'issue a token; the full token is shown this once and never stored. Prints {"id","token","name","createdAt"}; ' +
        'with --out, writes that to the file (mode 0600) and prints it without the token, with "savedTo"',
    )
    .requiredOption('--name <name>', 'which service holds it (1 to 200 characters)')
    .option('--out <file>', 'write the document with the token to this file, readable by you only')
    .action(async (options: { name: string; out?: string }) => {
      const services = await ctx.open();
      await printOrSave(
        options.out,
        (value) => ctx.print(value),
        async () => {
          const issued = await services.issuePlatformToken
            .execute({ name: options.name })
            .catch((error: unknown) => Promise.reject(inOptionTerms(error, { name: { flag: '--name' } })));
          return { id: issued.id, token: issued.token, name: issued.name, createdAt: isoTimestamp(issued.createdAt) };
        },
        'token',
      );
    });

  token
    .command('revoke')
    .description('revoke a token at once: the next request with it is refused; revoking twice keeps the first moment. Prints {"id","revokedAt"}')
    .requiredOption('--id <tokenId>', `the token id: the ${PLATFORM_TOKEN_ID_LENGTH} characters between ${PLATFORM_TOKEN_PREFIX} and the second _, as platform-token list shows it`)
    .action(async (options: { id: string }) => {
      checkTokenId(options.id);
      const revoked = await (await ctx.open()).revokePlatformToken.execute({ id: options.id });
      ctx.print({ id: revoked.id, revokedAt: isoTimestamp(revoked.revokedAt) });
    });

  token
    .command('list')
    .description('list every token, oldest first, without secrets: [{"id","name","createdAt","revokedAt"}]')
    .action(async () => {
      const tokens = await (await ctx.open()).listPlatformTokens.execute();
      ctx.print(tokens.map((t) => ({ id: t.id, name: t.name, createdAt: isoTimestamp(t.createdAt), revokedAt: isoTimestampOrNull(t.revokedAt) })));
    });
}

/** A whole token pasted where the id goes is never repeated: only a value of the id's form is. */
function checkTokenId(id: string): void {
  if (isPlatformTokenId(id)) return;
  if (id.startsWith(PLATFORM_TOKEN_PREFIX)) {
    throw new CliFailure(`--id takes the token id (the part between ${PLATFORM_TOKEN_PREFIX} and the second underscore), not the whole token`);
  }
  throw new CliFailure(`--id: a token id is ${PLATFORM_TOKEN_ID_LENGTH} letters and digits (the part between ${PLATFORM_TOKEN_PREFIX} and the second underscore of the token)`);
}
