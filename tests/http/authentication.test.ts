import { ADMIN_CLI_ACTOR } from '../../application/use-cases/actor.js';
import { expect } from 'chai';
import { KEY_CACHE_TTL_MAX_MS } from '../../infrastructure/config.schema.js';
import type { Scope } from '../../domain/service-key/scope.js';
import { ApiClient, type ApiResponse } from '../support/api-client.js';
import { aMinimalApplicationBody, ALL_SCOPES, aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

const OPERATIONS: { scope: Scope; call: (api: ApiClient, vacancyId: string) => Promise<ApiResponse> }[] = [
  { scope: 'vacancies:read', call: (api) => api.get('/vacancies') },
  { scope: 'candidates:read', call: (api) => api.get('/candidates') },
  { scope: 'applications:write', call: (api, vacancyId) => api.post('/applications', aMinimalApplicationBody(vacancyId)) },
];

describe('Authentication and scopes (spec 5)', () => {
  let server: TestServer;
  let tenant: Tenant;
  let vacancyId: string;

  before(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
    vacancyId = (await tenant.addVacancy()).id;
  });
  after(() => server.close());

  it('answers 401 with one and the same body for a missing, malformed, unknown, wrong, revoked and expired key', async () => {
    const revoked = await tenant.issueKey(ALL_SCOPES);
    await server.seed.revokeKey.execute({ keyId: revoked.id, actor: ADMIN_CLI_ACTOR });
    const expiring = await tenant.issueKey(ALL_SCOPES, new Date(server.clock.peek().getTime() + 60_000));
    expect((await tenant.api.withKey(expiring.key).get('/vacancies')).status, 'usable before it expires').to.equal(200);
    server.clock.advance(120_000);

    const presented: Record<string, string | undefined> = {
      missing: undefined,
      empty: '',
      malformed: 'Bearer 12345',
      unknown: `ik_${'A'.repeat(12)}_${'b'.repeat(40)}`,
      'wrong secret': `ik_${tenant.keyId}_${'x'.repeat(40)}`,
      revoked: revoked.key,
      expired: expiring.key,
    };
    const bodies = new Map<string, string>();
    for (const [label, key] of Object.entries(presented)) {
      const response = await tenant.api.get('/vacancies', { key });
      expect(response.status, label).to.equal(401);
      expect(response.headers.get('content-type'), label).to.match(/^application\/problem\+json/);
      expect(response.body, label).to.include({ status: 401, code: 'unauthorized' });
      bodies.set(label, JSON.stringify({ ...response.body, requestId: null }));
    }
    expect(new Set(bodies.values()).size, [...bodies.entries()].join('\n')).to.equal(1);
  });

  it('says how to authenticate on every 401, the same challenge for a missing, unknown, wrong, revoked and expired key', async () => {
    const revoked = await tenant.issueKey(ALL_SCOPES);
    await server.seed.revokeKey.execute({ keyId: revoked.id, actor: ADMIN_CLI_ACTOR });
    const expiring = await tenant.issueKey(ALL_SCOPES, new Date(server.clock.peek().getTime() + 60_000));
    server.clock.advance(120_000);
    const presented: Record<string, string | undefined> = {
      missing: undefined,
      malformed: 'Bearer 12345',
      unknown: `ik_${'C'.repeat(12)}_${'b'.repeat(40)}`,
      'wrong secret': `ik_${tenant.keyId}_${'x'.repeat(40)}`,
      revoked: revoked.key,
      expired: expiring.key,
    };
    for (const [label, key] of Object.entries(presented)) {
      const api = tenant.api.withKey(key);
      const answers = [...(await Promise.all(OPERATIONS.map(({ call }) => call(api, vacancyId)))), await api.get('/secret-admin')];
      for (const response of answers) {
        expect(response.status, label).to.equal(401);
        expect(response.headers.get('www-authenticate'), label).to.equal('ApiKey header="X-API-Key"');
      }
    }
    expect((await tenant.api.get('/vacancies')).headers.get('www-authenticate'), 'not on a success').to.equal(null);
    const forbidden = await tenant.api.withKey((await tenant.issueKey(['applications:write'])).key).get('/vacancies');
    expect([forbidden.status, forbidden.headers.get('www-authenticate')], 'nor on a 403').to.deep.equal([403, null]);
  });

  it('reads the key registry once per KEY_CACHE_TTL_MS for an unknown key id, however often it is sent', async () => {
    const unknownId = 'ZZZZunknownZ';
    const registry = server.keyRegistry;
    const findById = registry.findById.bind(registry);
    let reads = 0;
    registry.findById = (id) => {
      if (id === unknownId) reads += 1;
      return findById(id);
    };
    try {
      const unknown = tenant.api.withKey(`ik_${unknownId}_${'b'.repeat(40)}`);
      const first = await Promise.all(Array.from({ length: 10 }, () => unknown.get('/vacancies')));
      for (let i = 0; i < 20; i++) first.push(await unknown.get('/candidates'));
      expect(first.map((r) => r.status)).to.deep.equal(Array(30).fill(401));
      expect(reads, 'one read for 30 requests').to.equal(1);
      server.clock.advance(KEY_CACHE_TTL_MAX_MS);
      expect((await unknown.get('/vacancies')).status).to.equal(401);
      expect(reads, 'read again once the TTL has passed').to.equal(2);
    } finally {
      delete (registry as Partial<typeof registry>).findById;
    }
    expect((await tenant.api.get('/vacancies')).status, 'the registry reads keys again as before').to.equal(200);
  });

  it('requires a key on every operation', async () => {
    for (const { scope, call } of OPERATIONS) {
      const response = await call(tenant.api.withKey(undefined), vacancyId);
      expect(response.status, scope).to.equal(401);
    }
  });

  it('never takes a key from the query string', async () => {
    const query = ['api_key', 'apiKey', 'key', 'X-API-Key', 'x-api-key'].map((name) => `${name}=${encodeURIComponent(tenant.key)}`).join('&');
    const response = await tenant.api.get(`/vacancies?${query}`, { key: undefined });
    expect(response.status).to.equal(401);
  });

  it('answers 403 naming the missing scope, for each scope', async () => {
    for (const { scope, call } of OPERATIONS) {
      const others = await tenant.issueKey(ALL_SCOPES.filter((s) => s !== scope));
      const response = await call(tenant.api.withKey(others.key), vacancyId);
      expect(response.status, scope).to.equal(403);
      expect(response.body.code).to.equal('forbidden');
      expect(response.body.detail).to.include(scope);
    }
  });

  it('lets a storefront key (vacancies:read and applications:write) list vacancies and apply, but not export candidates', async () => {
    const storefront = tenant.api.withKey((await tenant.issueKey(['vacancies:read', 'applications:write'])).key);
    expect((await storefront.get('/vacancies')).status).to.equal(200);
    expect((await storefront.post('/applications', aMinimalApplicationBody(vacancyId))).status).to.equal(201);
    expect((await storefront.get('/candidates')).status).to.equal(403);
  });

  it('does not create a card when the key may not write', async () => {
    const reader = tenant.api.withKey((await tenant.issueKey(['vacancies:read', 'candidates:read'])).key);
    const before = (await tenant.api.get('/candidates')).body.items;
    expect((await reader.post('/applications', aMinimalApplicationBody(vacancyId))).status).to.equal(403);
    expect((await tenant.api.get('/candidates')).body.items).to.deep.equal(before);
  });

  it('serves the OpenAPI document without a key', async () => {
    const response = await tenant.api.get('/openapi.json', { key: undefined });
    expect(response.status).to.equal(200);
    expect(response.body.openapi).to.match(/^3\.1\./);
  });

  it('answers 401 before anything else on unknown paths under the API root, so routes cannot be probed', async () => {
    const anonymous = await tenant.api.get('/secret-admin', { key: undefined });
    expect(anonymous.status).to.equal(401);
    const known = await tenant.api.get('/secret-admin');
    expect(known.status).to.equal(404);
    expect(known.body.code).to.equal('not_found');
  });
});
