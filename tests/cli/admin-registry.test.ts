import { expect } from 'chai';
import { runDatabaseName } from '../support/postgres-test-database.js';
import { onServer, postgresTestServer } from '../support/postgres-test-server.js';
import { ISO_MS, useAdminDatabase } from './support/admin-database.js';
import { errorOf, jsonOf, runAdmin } from './support/run-admin.js';
import { sqlOn } from '../support/sql.js';

interface Key {
  id: string;
  key: string;
  scopes: string[];
  companyId: string;
  expiresAt: string | null;
}

describe('admin CLI: migrate, companies and keys (processes on PostgreSQL)', function () {
  this.timeout(60_000);
  const admin = useAdminDatabase();

  it('migrate applies every migration to an empty database once, then finds nothing to do', async () => {
    const name = runDatabaseName('migrate');
    await onServer((client) => client.query(`create database ${name}`));
    try {
      const url = (await postgresTestServer()).urlOf(name);
      const env = { STORE: 'postgres', DATABASE_URL: url };
      const first = jsonOf<{ registry: string[]; business: string[] }>(await runAdmin(['migrate'], { env }));
      expect(Object.keys(first)).to.deep.equal(['registry', 'business']);
      expect(first.registry).to.not.be.empty;
      expect(first.business).to.not.be.empty;
      expect(jsonOf(await runAdmin(['migrate'], { env }))).to.deep.equal({ registry: [], business: [] });
    } finally {
      await onServer((client) => client.query(`drop database if exists ${name} with (force)`));
    }
  });

  it('creates a company, issues keys, lists them without secrets and revokes one, in the key registry', async () => {
    const company = jsonOf<{ id: string; name: string }>(await admin().run(['company', 'create', '--name', 'ТОО «Шёлковый путь»']));
    expect(Object.keys(company)).to.deep.equal(['id', 'name']);
    expect(company.name).to.equal('ТОО «Шёлковый путь»');

    const issued = jsonOf<Key>(
      await admin().run(['key', 'issue', '--company', company.id, '--scopes', 'candidates:read, vacancies:read', '--name', 'портал', '--expires-at', '2031-01-01T05:00:00+05:00']),
    );
    expect(Object.keys(issued)).to.deep.equal(['id', 'key', 'scopes', 'companyId', 'expiresAt']);
    expect(issued.key).to.match(new RegExp(`^ik_${issued.id}_[0-9A-Za-z]{32,}$`));
    expect(issued).to.deep.include({ scopes: ['vacancies:read', 'candidates:read'], companyId: company.id, expiresAt: '2031-01-01T00:00:00.000Z' });
    const plain = jsonOf<Key>(await admin().runInProcess(['key', 'issue', '--company', company.id, '--scopes', 'applications:write']));
    expect(plain.expiresAt).to.equal(null);

    // Companies and keys live in the registry, not in the business database.
    const registry = admin().database.adapters();
    expect(await registry.companies.findById(company.id)).to.not.equal(null);
    expect((await registry.keys.findById(issued.id))?.principal).to.deep.equal({ keyId: issued.id, companyId: company.id, scopes: issued.scopes });
    const inBusiness = await sqlOn(admin().database.databases.business)<{ n: number }[]>(
      'select (select count(*) from companies where id = ?)::int + (select count(*) from service_keys where id = ?)::int as n',
      [company.id, issued.id],
    );
    expect(inBusiness[0]?.n).to.equal(0);

    const revoked = jsonOf<{ id: string; revokedAt: string }>(await admin().run(['key', 'revoke', '--id', issued.id]));
    expect(Object.keys(revoked)).to.deep.equal(['id', 'revokedAt']);
    expect(revoked.id).to.equal(issued.id);
    expect(revoked.revokedAt).to.match(ISO_MS);

    const listed = jsonOf<Record<string, unknown>[]>(await admin().run(['key', 'list', '--company', company.id]));
    expect(listed.map((k) => Object.keys(k))).to.deep.equal([
      ['id', 'name', 'scopes', 'createdAt', 'lastUsedAt', 'revokedAt', 'expiresAt'],
      ['id', 'name', 'scopes', 'createdAt', 'lastUsedAt', 'revokedAt', 'expiresAt'],
    ]);
    expect(listed[0]).to.deep.include({ id: issued.id, name: 'портал', scopes: issued.scopes, lastUsedAt: null, revokedAt: revoked.revokedAt, expiresAt: issued.expiresAt });
    expect(listed[1]).to.deep.include({ id: plain.id, name: 'service key', revokedAt: null, expiresAt: null });
    expect(listed[0]?.createdAt).to.match(ISO_MS);
    expect(JSON.stringify(listed)).to.not.contain(issued.key.slice(-20));
  });

  it('fails on one line with a non-zero status for an unknown company or key, a bad scope, a blank name and a past expiry', async () => {
    const company = jsonOf<{ id: string }>(await admin().run(['company', 'create', '--name', 'ТОО «Тест»']));
    // Two as processes, for their exit status; the rest in process, where they are cheap.
    const runs = [
      ...(await Promise.all([
        admin().run(['key', 'issue', '--company', 'no-such-company', '--scopes', 'vacancies:read']),
        admin().run(['key', 'issue', '--company', company.id, '--scopes', 'vacancies:read,vacancies:write']),
      ])),
      await admin().runInProcess(['key', 'list', '--company', 'no-such-company']),
      await admin().runInProcess(['key', 'revoke', '--id', 'AAAAAAAAAAAA']),
      await admin().runInProcess(['company', 'create', '--name', '  ']),
      await admin().runInProcess(['key', 'issue', '--company', company.id, '--scopes', 'vacancies:read', '--expires-at', '2020-01-01T00:00:00Z']),
    ];
    const lines = runs.map(errorOf);
    expect(runs.map((r) => r.status)).to.deep.equal([1, 1, 1, 1, 1, 1]);
    expect(runs.map((r) => r.stdout)).to.deep.equal(['', '', '', '', '', '']);
    expect(lines[0]).to.equal('error: Company no-such-company not found.');
    expect(lines[1]).to.equal('error: --scopes: "vacancies:write" is not a scope; use vacancies:read, candidates:read, applications:write');
    expect(lines[2]).to.equal('error: Company no-such-company not found.');
    expect(lines[3]).to.equal('error: Service key AAAAAAAAAAAA not found.');
    expect(lines[4]).to.match(/^error: --name: must not be blank/);
    expect(lines[5]).to.equal('error: --expires-at: must be in the future');
    expect(jsonOf<unknown[]>(await admin().run(['key', 'list', '--company', company.id]))).to.deep.equal([]);
  });
});
