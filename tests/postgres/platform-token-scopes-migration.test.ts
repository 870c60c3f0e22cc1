import { expect } from 'chai';
import { Migration20261202000000PlatformTokenScopes } from '../../adapters/persistence/postgres/migrations/registry/Migration20261202000000PlatformTokenScopes.js';
import { PgPlatformTokenRepository } from '../../adapters/persistence/postgres/pg-platform-token-repository.js';
import { PgServiceKeyRepository } from '../../adapters/persistence/postgres/pg-service-key-repository.js';
import { NodeCryptoSecrets } from '../../adapters/system/node-crypto-secrets.js';
import { SystemClock } from '../../adapters/system/system-clock.js';
import { AuthenticatePlatformToken } from '../../application/use-cases/authenticate-platform-token.use-case.js';
import { PLATFORM_SCOPES } from '../../domain/platform-token/platform-scope.js';
import { migrateDatabases } from '../../infrastructure/database/migrate-databases.js';
import { openDatabases } from '../../infrastructure/database/open-databases.js';
import { migrationTestDatabase } from '../support/migration-test-database.js';

const MIGRATION = 'Migration20261202000000PlatformTokenScopes';
const SECRET = 'S'.repeat(40);

async function downStatements(): Promise<string[]> {
  const migration = new Migration20261202000000PlatformTokenScopes(undefined as never, undefined as never);
  await migration.down();
  return migration.getQueries().map((query) => String(query));
}

describe(`Migration ${MIGRATION}`, function () {
  this.timeout(60_000);
  // Back to the registry before scopes, through the migration's own down().
  const database = migrationTestDatabase(async (client) => {
    for (const statement of await downStatements()) await client.query(statement);
    await client.query('delete from mikro_orm_migrations_registry where name = $1', [MIGRATION]);
  });

  it('down() leaves platform_tokens as it was before', async () => {
    const columns = await database.client.query<{ column_name: string }>(
      "select column_name from information_schema.columns where table_name = 'platform_tokens' order by ordinal_position",
    );
    expect(columns.rows.map((row) => row.column_name)).to.deep.equal(['id', 'name', 'secret_hash', 'created_at', 'revoked_at']);
  });

  it('lets a token issued before it keep working with every scope, for every company, without expiry; and stores token events beside a company\'s', async () => {
    const secrets = new NodeCryptoSecrets();
    await database.client.query(
      `insert into platform_tokens (id, name, secret_hash, created_at, revoked_at) values ('OldTok000001', 'legacy page', $1, '2026-11-27T00:00:00Z', null)`,
      [secrets.sha256(SECRET)],
    );
    await database.client.query(
      `insert into key_events (id, company_id, key_id, type, at, actor, via) values ('ev-old', 'co-1', 'oldkey000001', 'issued', '2026-11-27T00:00:00Z', 'a', 'admin-cli')`,
    );

    expect((await migrateDatabases({ businessUrl: database.url, registryUrl: database.url })).registry).to.deep.equal([MIGRATION]);

    const databases = await openDatabases({ databaseUrl: database.url, keysDatabaseUrl: database.url, dataDir: '', poolMax: 2 });
    try {
      const tokens = new PgPlatformTokenRepository(databases.registry);
      const caller = await new AuthenticatePlatformToken(tokens, secrets, new SystemClock()).execute({ presented: `pt_OldTok000001_${SECRET}` });
      expect(caller).to.deep.equal({ tokenId: 'OldTok000001', name: 'legacy page', scopes: [...PLATFORM_SCOPES], companies: null, expiresAt: null });
      const revoked = await tokens.findById('OldTok000001');
      revoked?.revoke(new Date('2026-12-02T00:00:00Z'));
      const event = { id: 'ev-token', tokenId: 'OldTok000001', type: 'platform_token_revoked' as const, at: new Date('2026-12-02T00:00:00Z'), actor: 'admin-cli', via: 'admin-cli', expiresAt: null };
      await tokens.write({ revoked: revoked === null ? [] : [revoked], events: [event] });
      expect(await tokens.listEvents({ limit: 10, after: null })).to.deep.equal([event]);
      const companyTrail = await new PgServiceKeyRepository(databases.registry).listEvents('co-1', { limit: 10, after: null });
      expect(companyTrail.map((e) => e.id)).to.deep.equal(['ev-old']);
    } finally {
      await databases.close();
    }
  });

  it('refuses a scope that is not one, a token event with a company and a key event without one', async () => {
    expect((await migrateDatabases({ businessUrl: database.url, registryUrl: database.url })).registry).to.deep.equal([MIGRATION]);
    const refused = async (sql: string) => database.client.query(sql).then(() => 'stored', (error: { code?: string }) => error.code);
    expect(await refused(`insert into platform_tokens (id, name, secret_hash, scopes, created_at) values ('T1', 'n', 'h', '["keys:admin"]', now())`)).to.equal('23514');
    expect(await refused(`insert into platform_tokens (id, name, secret_hash, scopes, created_at) values ('T2', 'n', 'h', '[]', now())`)).to.equal('23514');
    expect(await refused(`insert into key_events (id, company_id, key_id, type, at) values ('e1', 'co-1', 'T1', 'platform_token_issued', now())`)).to.equal('23514');
    expect(await refused(`insert into key_events (id, company_id, key_id, type, at) values ('e2', null, 'k1', 'issued', now())`)).to.equal('23514');
  });
});
