import { expect } from 'chai';
import type { ApiResponse } from '../support/api-client.js';
import { startManagementTestServer, type ManagementTestServer } from '../support/management-test-server.js';
import { rawRequest } from '../support/raw-http.js';

const DAY_MS = 86_400_000;
const DATE_TIME = 'must be an RFC 3339 date-time with a time zone';

/** The problems of a 400, as { pointer: message } (with the parameter or header they name, if any). */
function problemsOf(response: ApiResponse): Record<string, string> {
  expect(response.status, response.text).to.equal(400);
  expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/);
  expect(response.body.code).to.be.oneOf(['validation_failed', 'invalid_cursor']);
  return Object.fromEntries((response.body.errors as { pointer: string; message: string }[]).map((e) => [e.pointer, e.message]));
}

describe('The management API: 400s with pointers', () => {
  let server: ManagementTestServer;
  let companyId: string;
  let keyId: string;

  before(async () => {
    server = await startManagementTestServer();
    companyId = (await server.client.post('/companies', { name: 'ТОО «Проверка»' })).body.id;
    keyId = (await server.client.post(`/companies/${companyId}/keys`, { name: 'k', scopes: ['vacancies:read'] })).body.id;
  });
  after(() => server.close());

  const inDays = (days: number) => new Date(server.clock.peek().getTime() + days * DAY_MS).toISOString();

  it('points at every problem of a company body', async () => {
    const post = (body: unknown) => server.client.post('/companies', body);
    expect(problemsOf(await post({}))).to.deep.equal({ '/name': 'is required' });
    expect(problemsOf(await post({ name: ' \t ' }))).to.deep.equal({ '/name': 'must not be blank' });
    expect(problemsOf(await post({ name: 'Я'.repeat(201) }))).to.deep.equal({ '/name': 'must be at most 200 characters' });
    expect(problemsOf(await post({ name: 42 }))).to.deep.equal({ '/name': 'must be a string' });
    expect(problemsOf(await post({ name: 'a\u0000b' }))).to.deep.equal({ '/name': 'must not contain NUL (U+0000) or unpaired surrogate characters' });
    expect(problemsOf(await post('[{"name":"x"}]'))).to.deep.equal({ '': 'must be a JSON object' });
    expect(problemsOf(await post('{"name":'))).to.deep.equal({ '': 'must be valid JSON' });
    expect(problemsOf(await post('{"__proto__":{"x":1},"name":"x"}'))).to.deep.equal({ '/__proto__': 'is a forbidden key' });
    const form = await server.client.send('POST', '/companies', 'name=x', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect([form.status, form.body.code]).to.deep.equal([415, 'unsupported_media_type']);
    expect((await post({ name: 'Я'.repeat(200) })).status, '200 characters are enough').to.equal(201);
  });

  it('points at every problem of a key body at once: scopes, expiry, name', async () => {
    const post = (body: unknown) => server.client.post(`/companies/${companyId}/keys`, body);
    expect(problemsOf(await post({ scopes: ['admin'], expiresAt: 'tomorrow' }))).to.deep.equal({
      '/name': 'is required',
      '/scopes/0': 'must be one of vacancies:read, candidates:read, applications:write',
      '/expiresAt': DATE_TIME,
    });
    expect(problemsOf(await post({ name: 'k', scopes: [] }))).to.deep.equal({ '/scopes': 'must have at least 1 item' });
    expect(problemsOf(await post({ name: 'k', scopes: 'vacancies:read' }))).to.deep.equal({ '/scopes': 'must be an array' });
    expect(problemsOf(await post({ name: 'k', scopes: ['vacancies:read', 'vacancies:read'] }))).to.deep.equal({ '/scopes': 'must not repeat an item (items 0 and 1 are equal)' });
    expect(problemsOf(await post({ name: 'k', scopes: ['vacancies:read'], expiresAt: '2027-01-01T00:00:00' }))).to.deep.equal({ '/expiresAt': DATE_TIME });
    expect(problemsOf(await post({ name: 'k', scopes: ['vacancies:read'], expiresAt: 1_900_000_000_000 }))).to.deep.equal({ '/expiresAt': 'must be a string or null' });
    expect(problemsOf(await post({ name: 'k', scopes: ['vacancies:read'], expiresAt: inDays(-1) }))).to.deep.equal({ '/expiresAt': 'must be in the future' });
    const keys = (await server.client.get(`/companies/${companyId}/keys`)).body.items;
    expect(keys, 'nothing was issued').to.have.length(1);
  });

  it('refuses a roll whose old key would work in the past or beyond 7 days, or whose new key would be born expired', async () => {
    const roll = (body: unknown) => server.client.post(`/companies/${companyId}/keys/${keyId}/roll`, body);
    expect(problemsOf(await roll({ oldKeyExpiresAt: inDays(7.01) }))).to.deep.equal({ '/oldKeyExpiresAt': 'must be at most 7 days from now' });
    expect(problemsOf(await roll({ oldKeyExpiresAt: inDays(-0.01) }))).to.deep.equal({ '/oldKeyExpiresAt': 'must be in the future' });
    expect(problemsOf(await roll({ oldKeyExpiresAt: 'soon', expiresAt: false }))).to.deep.equal({ '/oldKeyExpiresAt': DATE_TIME, '/expiresAt': 'must be a string or null' });
    expect(problemsOf(await roll({ expiresAt: inDays(-1) }))).to.deep.equal({ '/expiresAt': 'must be in the future' });
    expect(problemsOf(await roll('null'))).to.deep.equal({ '': 'must be a JSON object' });
    const [key] = (await server.client.get(`/companies/${companyId}/keys`)).body.items;
    expect(key, 'nothing was rolled').to.include({ rolledTo: null, expiresAt: null });
  });

  it('refuses a key expiry after the last millisecond of year 9999 (UTC), which an offset reaches from year 9999, and caps a default roll there', async () => {
    const LATEST = '9999-12-31T23:59:59.999Z';
    const issue = (expiresAt: string) => server.client.post(`/companies/${companyId}/keys`, { name: 'k', scopes: ['vacancies:read'], expiresAt });
    expect(problemsOf(await issue('9999-12-31T23:59:59.999-23:59'))).to.deep.equal({ '/expiresAt': `must be at most ${LATEST}` });
    expect(problemsOf(await server.client.post(`/companies/${companyId}/keys/${keyId}/roll`, { expiresAt: '9999-12-31T23:59:59-00:01' }))).to.deep.equal({
      '/expiresAt': `must be at most ${LATEST}`,
    });
    const latest = await issue(LATEST);
    expect(latest.status, latest.text).to.equal(201);
    expect(latest.body.expiresAt).to.equal(LATEST);
    // Rolled later with no expiry given, its successor would live as long again from now: past year 9999.
    server.clock.advance(DAY_MS);
    const rolled = await server.client.post(`/companies/${companyId}/keys/${latest.body.id}/roll`, {});
    expect(rolled.status, rolled.text).to.equal(201);
    expect(rolled.body.issued.expiresAt).to.equal(LATEST);
  });

  it('requires X-Actor on every route but the document, naming the header, before the query and the body are read', async () => {
    const routes: [string, string][] = [
      ['POST', '/companies'], ['GET', `/companies/${companyId}`], ['GET', `/companies/${companyId}/keys`], ['POST', `/companies/${companyId}/keys`],
      ['GET', `/companies/${companyId}/keys/${keyId}`],
      ['POST', `/companies/${companyId}/keys/${keyId}/revoke`], ['POST', `/companies/${companyId}/keys/${keyId}/roll`], ['GET', `/companies/${companyId}/key-events`],
    ];
    for (const [method, path] of routes) {
      const response = await server.client.send(method, `${path}?unknown=1`, method === 'POST' ? '{"bad": ' : undefined, { actor: undefined, headers: { 'Content-Type': 'application/json' } });
      expect(response.status, `${method} ${path}`).to.equal(400);
      expect(response.body.errors, `${method} ${path}`).to.deep.equal([{ pointer: '/X-Actor', header: 'X-Actor', message: 'is required: name the platform user who acts, 1 to 200 characters' }]);
    }
    const [key] = (await server.client.get(`/companies/${companyId}/keys`)).body.items;
    expect(key, 'the revocation without an actor did not happen').to.include({ status: 'active' });
  });

  it('takes X-Actor percent-encoded as UTF-8, 1 to 200 characters without control characters, and refuses anything else', async () => {
    const read = (actor: string) => server.client.get(`/companies/${companyId}`, { actor });
    const problem = async (actor: string) => problemsOf(await read(actor))['/X-Actor'];
    expect((await read(encodeURIComponent('Айгерим Нурланова'))).status).to.equal(200);
    expect((await read('user:42 (ops@platform.kz)')).status).to.equal(200);
    expect((await read('я'.repeat(200).replace(/я/g, '%D1%8F'))).status, '200 characters, encoded').to.equal(200);
    expect(await problem('a'.repeat(201))).to.equal('must be at most 200 characters');
    const characters = 'must not contain control characters, invisible format characters (bidi controls, zero-width characters, soft hyphens) or line and paragraph separators';
    expect(await problem('line%0Abreak')).to.equal(characters);
    for (const invisible of ['%E2%80%AE', '%E2%81%A6', '%E2%80%8B', '%EF%BB%BF', '%E2%80%A8', '%E2%80%A9']) {
      expect(await problem(`alice${invisible}`), invisible).to.equal(characters);
    }
    expect(await problem('%E0%A4%A')).to.equal('is not valid percent-encoded UTF-8 (send a % itself as %25)');
    expect(await problem('100%')).to.equal('is not valid percent-encoded UTF-8 (send a % itself as %25)');
    expect(await problem('Zoë')).to.equal('must be visible ASCII: percent-encode other characters as UTF-8, as encodeURIComponent does');
    const twice = await rawRequest(server.managementOrigin, {
      method: 'GET',
      path: `/internal/v1/companies/${companyId}`,
      headers: { authorization: `Bearer ${server.token}`, 'x-actor': ['alice', 'bob'] },
    });
    expect([twice.status, twice.body.errors]).to.deep.equal([400, [{ pointer: '/X-Actor', header: 'X-Actor', message: 'must be given once' }]]);
    const issued = await server.client.post(`/companies/${companyId}/keys`, { name: 'by name', scopes: ['vacancies:read'] }, { actor: encodeURIComponent('Ержан 100%') });
    expect(issued.body.createdBy, 'stored decoded').to.equal('Ержан 100%');
    const decomposed = await server.client.post(`/companies/${companyId}/keys`, { name: 'nfc', scopes: ['vacancies:read'] }, { actor: encodeURIComponent('Zoe\u0308') });
    expect(decomposed.body.createdBy, 'stored in NFC').to.equal('Zo\u00eb');
    const trail = (await server.client.get(`/companies/${companyId}/key-events`)).body.items;
    expect(trail.find((e: any) => e.keyId === decomposed.body.id).actor, 'the event names it alike').to.equal('Zo\u00eb');
  });

  it('reads the key events query strictly: limit 1 to 100 given once, a cursor of ours, no other parameter', async () => {
    const get = (query: string) => server.client.get(`/companies/${companyId}/key-events?${query}`);
    expect(problemsOf(await get('limit=0'))).to.deep.equal({ '/limit': 'must be a whole number from 1 to 100' });
    expect(problemsOf(await get('limit=101&since=2026-01-01'))).to.deep.equal({
      '/since': 'is not a parameter of this operation, which takes limit, cursor',
      '/limit': 'must be a whole number from 1 to 100',
    });
    expect(problemsOf(await get('limit=1e1'))).to.deep.equal({ '/limit': 'must be a whole number from 1 to 100' });
    expect(problemsOf(await get('limit=1&limit=2'))).to.deep.equal({ '/limit': 'must be given at most once' });
    const cursor = await get('cursor=not-a-cursor');
    expect(cursor.body).to.include({ status: 400, code: 'invalid_cursor' });
    expect(cursor.body.errors).to.deep.equal([{ pointer: '/cursor', parameter: 'cursor', message: cursor.body.detail }]);
    expect((await get('limit=100')).status).to.equal(200);
    for (const path of ['/companies', `/companies/${companyId}`, `/companies/${companyId}/keys`]) {
      const method = path === '/companies' ? 'POST' : 'GET';
      const response = await server.client.send(method, `${path}?dryRun=1`, method === 'POST' ? '{"name":"x"}' : undefined, { headers: { 'Content-Type': 'application/json' } });
      expect(problemsOf(response), path).to.deep.equal({ '/dryRun': 'is not a parameter: this operation takes none' });
    }
  });
});
