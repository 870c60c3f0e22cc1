import { expect } from 'chai';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AdminCliDependencies } from '../../adapters/cli/admin-services.js';
import { runAdminCli } from '../../adapters/cli/run-admin-cli.js';
import { PgPlatformTokenRepository } from '../../adapters/persistence/postgres/pg-platform-token-repository.js';
import { NodeCryptoSecrets } from '../../adapters/system/node-crypto-secrets.js';
import { SystemClock } from '../../adapters/system/system-clock.js';
import { AuthenticatePlatformToken } from '../../application/use-cases/authenticate-platform-token.use-case.js';
import { ListKeyEvents } from '../../application/use-cases/list-key-events.use-case.js';
import { PLATFORM_SCOPES } from '../../domain/platform-token/platform-scope.js';
import { ISO_MS, useAdminDatabase } from './support/admin-database.js';
import { MemoryIo } from './support/memory-io.js';
import { errorOf, jsonOf } from './support/run-admin.js';
import { sqlOn } from '../support/sql.js';

interface Issued {
  id: string;
  token: string;
  name: string;
  createdAt: string;
}

describe('admin CLI: platform tokens and the actor of key changes (PostgreSQL)', function () {
  this.timeout(60_000);
  const admin = useAdminDatabase();

  const authenticator = () =>
    new AuthenticatePlatformToken(new PgPlatformTokenRepository(admin().database.databases.registry), new NodeCryptoSecrets(), new SystemClock());

  it('issues a token shown once, lists it without secrets, and revokes it at once', async () => {
    const issued = jsonOf<Issued>(await admin().run(['platform-token', 'issue', '--name', 'страница ключей']));
    expect(Object.keys(issued)).to.deep.equal(['id', 'token', 'name', 'scopes', 'companies', 'createdAt', 'expiresAt']);
    expect(issued.token).to.match(new RegExp(`^pt_${issued.id}_[0-9A-Za-z]{40}$`));
    expect(issued.name).to.equal('страница ключей');
    expect(issued.createdAt).to.match(ISO_MS);
    expect(await authenticator().execute({ presented: issued.token })).to.deep.equal({
      tokenId: issued.id, name: 'страница ключей', scopes: [...PLATFORM_SCOPES], companies: null, expiresAt: null,
    });

    const secret = issued.token.split('_')[2] as string;
    const rows = await sqlOn(admin().database.databases.registry)('select * from platform_tokens');
    expect(JSON.stringify(rows)).to.not.contain(secret);

    const listed = jsonOf<Record<string, unknown>[]>(await admin().runInProcess(['platform-token', 'list']));
    expect(listed.find((t) => t.id === issued.id)).to.deep.equal({
      id: issued.id, name: 'страница ключей', scopes: [...PLATFORM_SCOPES], companies: null, createdAt: issued.createdAt, expiresAt: null, revokedAt: null,
    });
    expect(JSON.stringify(listed)).to.not.contain(secret);

    const revoked = jsonOf<{ id: string; revokedAt: string }>(await admin().run(['platform-token', 'revoke', '--id', issued.id]));
    expect(Object.keys(revoked)).to.deep.equal(['id', 'revokedAt']);
    expect(revoked.id).to.equal(issued.id);
    expect(revoked.revokedAt).to.match(ISO_MS);
    expect(await authenticator().execute({ presented: issued.token }).catch((error: unknown) => error)).to.have.property('code', 'unauthorized');
    const again = jsonOf<{ revokedAt: string }>(await admin().runInProcess(['platform-token', 'revoke', '--id', issued.id]));
    expect(again.revokedAt).to.equal(revoked.revokedAt);
    const after = jsonOf<Record<string, unknown>[]>(await admin().runInProcess(['platform-token', 'list']));
    expect(after.find((t) => t.id === issued.id)?.revokedAt).to.equal(revoked.revokedAt);
  });

  it('writes the token to --out (mode 0600) and prints the rest with savedTo', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'platform-token-'));
    try {
      const file = path.join(dir, 'token.json');
      const printed = jsonOf<Record<string, unknown>>(await admin().runInProcess(['platform-token', 'issue', '--name', 'page', '--out', file]));
      expect(Object.keys(printed)).to.deep.equal(['id', 'name', 'scopes', 'companies', 'createdAt', 'expiresAt', 'savedTo']);
      expect(printed.savedTo).to.equal(file);
      const saved = JSON.parse(await readFile(file, 'utf8')) as Issued;
      expect(saved.id).to.equal(printed.id);
      expect((await authenticator().execute({ presented: saved.token })).tokenId).to.equal(saved.id);
      expect((await stat(file)).mode & 0o777).to.equal(0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fails on one line for a blank name and an unknown id, and never repeats a whole token given as --id', async () => {
    const whole = `pt_Tok0Ab1Cd2Ef_${'S'.repeat(40)}`;
    const runs = [
      await admin().runInProcess(['platform-token', 'issue', '--name', '  ']),
      await admin().runInProcess(['platform-token', 'revoke', '--id', 'AAAAAAAAAAAA']),
      await admin().runInProcess(['platform-token', 'revoke', '--id', whole]),
    ];
    expect(runs.map((r) => r.status)).to.deep.equal([1, 1, 1]);
    expect(runs.map((r) => r.stdout)).to.deep.equal(['', '', '']);
    const lines = runs.map(errorOf);
    expect(lines[0]).to.match(/^error: --name: must not be blank/);
    expect(lines[1]).to.equal('error: Platform token AAAAAAAAAAAA not found.');
    expect(lines[2]).to.match(/^error: --id takes the token id .* not the whole token$/);
    expect(runs[2]?.stderr).to.not.contain('S'.repeat(40));
  });

  it('records the key changes of key issue and key revoke by --actor, or by admin-cli when none is given', async () => {
    const company = jsonOf<{ id: string }>(await admin().runInProcess(['company', 'create', '--name', 'ТОО «Аудит»']));
    const issued = jsonOf<{ id: string }>(
      await admin().runInProcess(['key', 'issue', '--company', company.id, '--scopes', 'vacancies:read', '--actor', 'Айгерим (поддержка)']),
    );
    jsonOf(await admin().runInProcess(['key', 'revoke', '--id', issued.id]));
    const adapters = admin().database.adapters();
    const { items } = await new ListKeyEvents(adapters.companies, adapters.keys).execute({ companyId: company.id, cursor: null });
    expect(items.map((e) => [e.type, e.keyId, e.actor, e.via])).to.deep.equal([
      ['revoked', issued.id, 'admin-cli', 'admin-cli'],
      ['issued', issued.id, 'Айгерим (поддержка)', 'admin-cli'],
    ]);
    const bad = await admin().runInProcess(['key', 'issue', '--company', company.id, '--scopes', 'vacancies:read', '--actor', '']);
    expect(errorOf(bad)).to.equal('error: --actor: must be at least 1 characters');
  });
});

describe('admin CLI: platform tokens with scopes, companies and an expiry, and their events (PostgreSQL)', function () {
  this.timeout(60_000);
  const admin = useAdminDatabase();

  it('issues a token limited as asked, lists it so, and records its issue and revocation by --actor in platform-token events', async () => {
    const company = jsonOf<{ id: string }>(await admin().runInProcess(['company', 'create', '--name', 'ТОО «Права»']));
    const issued = jsonOf<Issued & Record<string, unknown>>(
      await admin().runInProcess([
        'platform-token', 'issue', '--name', 'page', '--scopes', 'keys:read,key-events:read', '--companies', company.id,
        '--expires-at', '2099-01-01T00:00:00+05:00', '--actor', 'Айгерим (поддержка)',
      ]),
    );
    expect(issued).to.deep.include({ scopes: ['keys:read', 'key-events:read'], companies: [company.id], expiresAt: '2098-12-31T19:00:00.000Z' });
    const listed = jsonOf<Record<string, unknown>[]>(await admin().runInProcess(['platform-token', 'list']));
    expect(listed.find((t) => t.id === issued.id)).to.deep.include({ scopes: ['keys:read', 'key-events:read'], companies: [company.id], expiresAt: '2098-12-31T19:00:00.000Z' });
    jsonOf(await admin().runInProcess(['platform-token', 'revoke', '--id', issued.id]));

    const trail = jsonOf<{ items: Record<string, unknown>[]; nextCursor: string | null }>(await admin().runInProcess(['platform-token', 'events', '--limit', '100']));
    const mine = trail.items.filter((e) => e.tokenId === issued.id).map(({ id: _id, at, ...e }) => ({ ...e, at: typeof at }));
    expect(mine).to.deep.equal([
      { type: 'platform_token_revoked', tokenId: issued.id, at: 'string', actor: 'admin-cli', via: 'admin-cli', expiresAt: null },
      { type: 'platform_token_issued', tokenId: issued.id, at: 'string', actor: 'Айгерим (поддержка)', via: 'admin-cli', expiresAt: '2098-12-31T19:00:00.000Z' },
    ]);
    const first = jsonOf<{ items: { id: string }[]; nextCursor: string }>(await admin().runInProcess(['platform-token', 'events', '--limit', '1']));
    const next = jsonOf<{ items: { id: string }[] }>(await admin().runInProcess(['platform-token', 'events', '--limit', '1', '--cursor', first.nextCursor]));
    expect(next.items[0]?.id).to.not.equal(first.items[0]?.id);
  });

  it('names the option at fault: an unknown scope, an unknown company, an expiry in the past, a bad cursor', async () => {
    const runs = [
      await admin().runInProcess(['platform-token', 'issue', '--name', 'x', '--scopes', 'keys:read,keys:admin']),
      await admin().runInProcess(['platform-token', 'issue', '--name', 'x', '--companies', 'no-such-company']),
      await admin().runInProcess(['platform-token', 'issue', '--name', 'x', '--expires-at', '2001-01-01T00:00:00Z']),
      await admin().runInProcess(['platform-token', 'events', '--cursor', 'zzz']),
    ];
    expect(runs.map((r) => r.status)).to.deep.equal([1, 1, 1, 1]);
    expect(runs.map(errorOf)).to.deep.equal([
      `error: --scopes: "keys:admin" is not a scope; use ${PLATFORM_SCOPES.join(', ')}`,
      'error: --companies item 1: no company has the id no-such-company',
      'error: --expires-at: must be in the future',
      'error: --cursor: The cursor is malformed. Pass nextCursor of the previous page unchanged.',
    ]);
  });
});

describe('admin CLI: platform-token without a database', () => {
  it('refuses a whole token as --id before opening anything, without repeating it', async () => {
    const io = new MemoryIo();
    let opened = 0;
    const deps: AdminCliDependencies = {
      open: async () => {
        opened++;
        throw new Error('no database in this test');
      },
      migrate: async () => ({}),
      close: async () => {},
    };
    const secret = 'Z'.repeat(40);
    expect(await runAdminCli(['platform-token', 'revoke', '--id', `pt_Tok0Ab1Cd2Ef_${secret}`], deps, io)).to.equal(1);
    expect(io.stderr).to.not.contain(secret);
    expect(opened).to.equal(0);
  });
});
