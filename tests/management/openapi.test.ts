import { expect } from 'chai';
import { COMPANY_NAME_MAX_LENGTH } from '../../domain/company/company.js';
import { KEY_EVENTS_LIMIT_DEFAULT, KEY_EVENTS_LIMIT_MAX, KEY_EVENTS_LIMIT_MIN } from '../../domain/service-key/key-event.js';
import { SCOPES } from '../../domain/service-key/scope.js';
import { ACTOR_MAX_LENGTH, KEY_NAME_MAX_LENGTH } from '../../domain/service-key/service-key.js';
import { startManagementTestServer, type ManagementTestServer, type ManagementTestServerOptions } from '../support/management-test-server.js';
import type { ManagementClient } from '../support/management-client.js';
import { OpenApiConformance } from '../support/openapi-conformance.js';
import { lintOpenApi, lintSummary } from '../support/redocly-lint.js';

/**
 * The management document against a real linter, and every answer of the management app, of every documented
 * status of every operation, checked against it closed-world (no field, header or status it does not name).
 * The checking fetch replaces the global one for this file, so the clients' traffic is what is checked.
 */
describe('GET /internal/v1/openapi.json', function () {
  this.timeout(60_000);
  const originalFetch = globalThis.fetch;
  const servers: ManagementTestServer[] = [];
  let document: any;
  let conformance: OpenApiConformance;

  async function serve(options: ManagementTestServerOptions = {}) {
    const server = await startManagementTestServer(options);
    servers.push(server);
    return server;
  }

  before(async () => {
    const server = await serve();
    const response = await originalFetch(`${server.managementUrl}/openapi.json`);
    expect([response.status, response.headers.get('content-type')]).to.deep.equal([200, 'application/json; charset=utf-8']);
    document = await response.json();
    conformance = new OpenApiConformance(document);
    globalThis.fetch = conformance.wrap(originalFetch);
  });

  after(async () => {
    globalThis.fetch = originalFetch;
    await Promise.all(servers.map((s) => s.close()));
  });

  it('is an OpenAPI 3.1 document of every route, with the platform token as bearer security', () => {
    expect(document.openapi).to.equal('3.1.0');
    expect(document.servers.map((s: any) => s.url)).to.deep.equal(['/internal/v1']);
    expect(document.components.securitySchemes.platformToken).to.include({ type: 'http', scheme: 'bearer' });
    expect(document.security).to.deep.equal([{ platformToken: [] }]);
    const operations = Object.entries(document.paths).flatMap(([path, item]: [string, any]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    expect(operations).to.have.members([
      'POST /companies', 'GET /companies/{companyId}', 'GET /companies/{companyId}/keys', 'POST /companies/{companyId}/keys',
      'GET /companies/{companyId}/keys/{keyId}', 'POST /companies/{companyId}/keys/{keyId}/revoke', 'POST /companies/{companyId}/keys/{keyId}/roll', 'GET /companies/{companyId}/key-events', 'GET /platform-token', 'GET /openapi.json',
    ]);
  });

  it("publishes the bounds validation enforces, from the domain's constants", () => {
    const schemas = document.components.schemas;
    expect(schemas.CreateCompanyRequest.properties.name).to.include({ minLength: 1, maxLength: COMPANY_NAME_MAX_LENGTH });
    expect(schemas.IssueKeyRequest.required).to.have.members(['name', 'scopes']);
    expect(schemas.IssueKeyRequest.properties.name).to.include({ maxLength: KEY_NAME_MAX_LENGTH });
    expect(schemas.IssueKeyRequest.properties.scopes).to.deep.include({ minItems: 1, maxItems: SCOPES.length, uniqueItems: true, items: { type: 'string', enum: [...SCOPES] } });
    expect(schemas.RollKeyRequest.properties.oldKeyExpiresAt.description).to.contain('at most 7 days').and.contain('24 hours');
    expect(schemas.RollKeyRequest.properties.expiresAt.description).to.contain('Absent: as long a lifetime as the old key').and.contain('null: it never expires');
    const events = document.paths['/companies/{companyId}/key-events'].get.parameters.find((p: any) => p.name === 'limit');
    expect(events.schema).to.include({ minimum: KEY_EVENTS_LIMIT_MIN, maximum: KEY_EVENTS_LIMIT_MAX, default: KEY_EVENTS_LIMIT_DEFAULT });
    expect(document.components.parameters.Actor).to.include({ in: 'header', required: true });
    expect(document.components.parameters.Actor.description).to.contain(`1 to ${ACTOR_MAX_LENGTH} characters`);
    for (const name of ['Key', 'KeyEvent', 'KeyList', 'KeyEventPage']) expect(Object.keys(schemas[name].properties).join(), name).not.to.match(/secret|hash|key$/i);
    expect(Object.keys(schemas.IssuedKey.properties).filter((p) => !(p in schemas.Key.properties)), 'the secret, only in the answers of issue and roll').to.deep.equal(['key']);
  });

  it('has no error and no warning under the committed linter rules (redocly.yaml)', async () => {
    const report = await lintOpenApi(document);
    expect(lintSummary(report)).to.deep.equal([]);
    expect(report.totals).to.include({ errors: 0, warnings: 0 });
  });

  it('documents the successes and the client errors of every operation as they are answered', async () => {
    const { client } = servers[0]!;
    const companyId = (await client.post('/companies', { name: 'ТОО «Документ»' })).body.id;
    const key = (await client.post(`/companies/${companyId}/keys`, { name: 'k', scopes: ['vacancies:read'], expiresAt: '2099-01-01T00:00:00Z' })).body;
    const other = (await client.post(`/companies/${companyId}/keys`, { name: 'k2', scopes: ['applications:write'] })).body;
    const statuses = [
      await client.get(`/companies/${companyId}`),
      await client.get(`/companies/${companyId}/keys`),
      await client.get(`/companies/${companyId}/keys/${key.id}`),
      await client.post(`/companies/${companyId}/keys/${key.id}/roll`, { oldKeyExpiresAt: null }),
      await client.post(`/companies/${companyId}/keys/${other.id}/revoke`),
      await client.get(`/companies/${companyId}/key-events?limit=1`),
      await client.get('/openapi.json', { token: undefined, actor: undefined }),
      await client.get('/platform-token'),
      await client.post('/companies', { name: '' }),
      await client.get(`/companies/${companyId}?x=1`),
      await client.get(`/companies/${companyId}/keys`, { actor: undefined }),
      await client.get(`/companies/${companyId}/keys/${key.id}?x=1`),
      await client.post(`/companies/${companyId}/keys`, { scopes: [] }),
      await client.post(`/companies/${companyId}/keys/${key.id}/revoke?x=1`),
      await client.post(`/companies/${companyId}/keys/${key.id}/roll`, { oldKeyExpiresAt: 'soon' }),
      await client.get(`/companies/${companyId}/key-events?limit=0`),
      await client.get(`/companies/${companyId}/key-events?cursor=zzz`),
      await client.get('/platform-token?x=1'),
      ...operationsOf(client.as({ token: undefined }), companyId, key.id).map((send) => send()),
      client.as({ token: undefined }).get('/platform-token'),
    ];
    const answered = await Promise.all(statuses);
    expect(answered.map((r) => r.status)).to.deep.equal([200, 200, 200, 201, 200, 200, 200, 200, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, ...Array(9).fill(401)]);
    expect(conformance.violations).to.deep.equal([]);
  });

  it('documents 403 on every operation that needs a scope: a scope missing, or another company', async () => {
    const server = servers[0]!;
    const companyId = (await server.client.post('/companies', { name: 'ТОО «Права»' })).body.id;
    const companiesOnly = (await server.issuePlatformToken('companies only', { scopes: ['companies:read'] })).token;
    const limited = (await server.issuePlatformToken('one company', { companies: [companyId] })).token;
    const answered = await Promise.all([
      ...operationsOf(server.client.as({ token: companiesOnly }), companyId, 'Zz9Yy8Xx7Ww6').map((send) => send()),
      server.client.as({ token: limited }).get('/companies/019a98c0-0000-7000-8000-00000000dead'),
      server.client.as({ token: limited }).post('/companies', { name: 'x' }),
    ]);
    expect(answered.map((r) => r.status)).to.deep.equal([403, 200, 403, 403, 403, 403, 403, 403, 403, 403]);
    expect(conformance.violations).to.deep.equal([]);
  });

  it('documents 404, 409, 413 and 415 as they are answered', async () => {
    const { client } = servers[0]!;
    const companyId = (await client.post('/companies', { name: 'ТОО «Ошибки»' })).body.id;
    const key = (await client.post(`/companies/${companyId}/keys`, { name: 'k', scopes: ['vacancies:read'] })).body;
    await client.post(`/companies/${companyId}/keys/${key.id}/roll`);
    const revoked = (await client.post(`/companies/${companyId}/keys`, { name: 'r', scopes: ['vacancies:read'] })).body;
    await client.post(`/companies/${companyId}/keys/${revoked.id}/revoke`);
    const unknown = '019a98c0-0000-7000-8000-00000000dead';
    const big = JSON.stringify({ name: 'x', padding: 'я'.repeat(3 * 1024 * 1024) });
    const form = { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } };
    const answered = [
      await client.get(`/companies/${unknown}`),
      await client.get(`/companies/${unknown}/keys`),
      await client.post(`/companies/${unknown}/keys`, { name: 'x', scopes: ['vacancies:read'] }),
      await client.get(`/companies/${companyId}/keys/Zz9Yy8Xx7Ww6`),
      await client.post(`/companies/${companyId}/keys/Zz9Yy8Xx7Ww6/revoke`),
      await client.post(`/companies/${companyId}/keys/Zz9Yy8Xx7Ww6/roll`),
      await client.get(`/companies/${unknown}/key-events`),
      await client.post(`/companies/${companyId}/keys/${key.id}/roll`),
      await client.post(`/companies/${companyId}/keys/${revoked.id}/roll`),
      await client.post('/companies', big),
      await client.post(`/companies/${companyId}/keys`, big),
      await client.post(`/companies/${companyId}/keys/${revoked.id}/roll`, big),
      await client.send('POST', '/companies', 'name=x', form),
      await client.send('POST', `/companies/${companyId}/keys`, 'name=x', form),
      await client.send('POST', `/companies/${companyId}/keys/${revoked.id}/roll`, 'a=b', form),
    ];
    expect(answered.map((r) => [r.status, r.body.code])).to.deep.equal([
      ...Array(7).fill([404, 'not_found']),
      [409, 'key_already_rolled'], [409, 'key_not_active'],
      [413, 'payload_too_large'], [413, 'payload_too_large'], [413, 'payload_too_large'],
      [415, 'unsupported_media_type'], [415, 'unsupported_media_type'], [415, 'unsupported_media_type'],
    ]);
    expect(conformance.violations).to.deep.equal([]);
  });

  it('documents 429 on every operation, a token\'s budget and an address\'s alike', async () => {
    const server = await serve({ config: { rateLimitPoints: 1, rateLimitWindowS: 60 } });
    // The token's budget for company c, its own (POST /companies), and the address's.
    await server.client.get('/companies/c');
    await server.client.post('/companies', {});
    await server.client.get('/openapi.json', { token: undefined });
    const answered = await Promise.all(operationsOf(server.client, 'c', 'Zz9Yy8Xx7Ww6').map((send) => send()));
    answered.push(await server.client.get('/openapi.json', { token: undefined }), await server.client.get('/platform-token'));
    expect(answered.map((r) => r.status)).to.deep.equal(Array(10).fill(429));
    expect(conformance.violations).to.deep.equal([]);
  });

  it('documents 500 on every operation, 503 and the 409 of a revocation that kept meeting other changes', async () => {
    const { StoreUnavailableError } = await import('../../application/ports/store-unavailable.error.js');
    const { ConcurrentKeyChangeError } = await import('../../application/ports/service-key-repository.port.js');
    const down = { execute: async () => Promise.reject(new StoreUnavailableError('ECONNREFUSED')) };
    const unavailable = await serve({ overrides: { createCompany: down, getCompany: down, listKeys: down, getKey: down, issueKey: down, revokeKey: down, rollKey: down, listKeyEvents: down } });
    const failed = await Promise.all(operationsOf(unavailable.client, 'c', 'Zz9Yy8Xx7Ww6').map((send) => send()));
    expect(failed.map((r) => [r.status, r.headers.get('retry-after')])).to.deep.equal(Array(8).fill([503, '5']));
    const registryDown = await serve({ overrides: { authenticatePlatformToken: down } });
    expect((await registryDown.client.get('/platform-token')).status).to.equal(503);

    const limiterDown = async () => Promise.reject(new Error('limiter store down'));
    const broken = await serve({ overrides: { rateLimiter: { consume: limiterDown, peek: limiterDown } } });
    const crashed = await Promise.all(operationsOf(broken.client, 'c', 'Zz9Yy8Xx7Ww6').map((send) => send()));
    crashed.push(await broken.client.get('/openapi.json', { token: undefined }), await broken.client.get('/platform-token'));
    expect(crashed.map((r) => r.status)).to.deep.equal(Array(10).fill(500));

    const contended = await serve({ overrides: { revokeKey: { execute: async () => Promise.reject(new ConcurrentKeyChangeError('Zz9Yy8Xx7Ww6')) }, rollKey: { execute: async () => Promise.reject(new ConcurrentKeyChangeError('Zz9Yy8Xx7Ww6')) } } });
    const changed = [await contended.client.post('/companies/c/keys/Zz9Yy8Xx7Ww6/revoke'), await contended.client.post('/companies/c/keys/Zz9Yy8Xx7Ww6/roll')];
    expect(changed.map((r) => [r.status, r.body.code])).to.deep.equal([[409, 'key_changed'], [409, 'key_changed']]);
    expect(conformance.violations).to.deep.equal([]);
  });

  it('has seen every documented status of every operation by now', () => {
    expect([...conformance.seen].sort()).to.deep.equal(conformance.documented().sort());
  });
});

/** One request to each operation behind the token. */
function operationsOf(client: ManagementClient, companyId: string, keyId: string) {
  return [
    () => client.post('/companies', { name: 'x' }),
    () => client.get(`/companies/${companyId}`),
    () => client.get(`/companies/${companyId}/keys`),
    () => client.post(`/companies/${companyId}/keys`, { name: 'x', scopes: ['vacancies:read'] }),
    () => client.get(`/companies/${companyId}/keys/${keyId}`),
    () => client.post(`/companies/${companyId}/keys/${keyId}/revoke`),
    () => client.post(`/companies/${companyId}/keys/${keyId}/roll`),
    () => client.get(`/companies/${companyId}/key-events`),
  ];
}
