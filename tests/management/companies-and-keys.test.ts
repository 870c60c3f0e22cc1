import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { KEY_CACHE_TTL_MAX_MS } from '../../infrastructure/config.schema.js';
import { eventually } from '../rate-limit/support/stores.js';
import type { ApiResponse } from '../support/api-client.js';
import { MANAGEMENT_PATH, startManagementTestServer, type ManagementTestServer } from '../support/management-test-server.js';
import { rawRequest } from '../support/raw-http.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const KEY_VIEW_FIELDS = ['id', 'name', 'scopes', 'status', 'createdAt', 'createdBy', 'expiresAt', 'revokedAt', 'revokedBy', 'lastUsedAt', 'rolledFrom', 'rolledTo'];

describe('The management API: companies and keys', () => {
  let server: ManagementTestServer;

  before(async () => {
    server = await startManagementTestServer();
  });
  after(() => server.close());

  async function aCompany(name = 'ТОО «Каспиан Софт»'): Promise<string> {
    const created = await server.client.post('/companies', { name });
    expect(created.status, created.text).to.equal(201);
    return created.body.id as string;
  }

  async function aKey(companyId: string, body: Record<string, unknown> = { name: 'Карьерный сайт', scopes: ['vacancies:read'] }) {
    const issued = await server.client.post(`/companies/${companyId}/keys`, body);
    expect(issued.status, issued.text).to.equal(201);
    return issued.body as Record<string, any>;
  }

  /** Whether the public API accepts the key now, past any instance's cache of what it read before. */
  async function publicStatus(key: string): Promise<number> {
    server.clock.advance(KEY_CACHE_TTL_MAX_MS);
    return (await server.publicClient(key).get('/vacancies')).status;
  }

  it('creates a company (201) and reads it back', async () => {
    const created = await server.client.post('/companies', { name: 'ТОО «Дала»', ignored: true });
    expect(created.status).to.equal(201);
    expect(created.headers.get('content-type')).to.match(/^application\/json/);
    expect(Object.keys(created.body)).to.have.members(['id', 'name', 'createdAt']);
    expect(created.body).to.include({ name: 'ТОО «Дала»' });
    expect(created.body.createdAt).to.match(TIMESTAMP);
    const read = await server.client.get(`/companies/${created.body.id}`);
    expect([read.status, read.body]).to.deep.equal([200, created.body]);
    expect(created.headers.get('location')).to.equal(`${MANAGEMENT_PATH}/companies/${created.body.id}`);
    expect((await readLocation(created)).body, 'where Location says').to.deep.equal(created.body);
  });

  /** What GET answers at the Location of a 201, with the platform token and an actor. */
  async function readLocation(created: ApiResponse) {
    const location = created.headers.get('location');
    expect(location, 'a 201 says where').to.be.a('string');
    return server.client.send('GET', location!.slice(MANAGEMENT_PATH.length), undefined);
  }

  it('issues a key (201) whose secret works against the public API, shown in that answer only', async () => {
    const companyId = await aCompany();
    const expiresAt = new Date(server.clock.peek().getTime() + 30 * 86_400_000).toISOString();
    const issued = await aKey(companyId, { name: 'Портал', scopes: ['applications:write', 'vacancies:read'], expiresAt });
    expect(Object.keys(issued)).to.have.members([...KEY_VIEW_FIELDS, 'key']);
    expect(issued).to.deep.include({
      name: 'Портал', scopes: ['vacancies:read', 'applications:write'], status: 'active', createdBy: 'tester@platform.example', expiresAt,
      revokedAt: null, revokedBy: null, lastUsedAt: null, rolledFrom: null, rolledTo: null,
    });
    expect(issued.key).to.match(new RegExp(`^ik_${issued.id}_[0-9A-Za-z]{32,}$`));
    expect(await publicStatus(issued.key)).to.equal(200);
    const { key: _secret, ...view } = issued;
    const read = await server.client.get(`/companies/${companyId}/keys/${issued.id}`);
    expect(read.status).to.equal(200);
    expect(Object.keys(read.body)).to.have.members(KEY_VIEW_FIELDS);
    expect({ ...read.body, lastUsedAt: null }, 'the key as issued, without its secret').to.deep.equal(view);
    expect(read.text).not.to.contain(issued.key.split('_')[2]);

    // lastUsedAt is written in the background of the public request: waited for, with a deadline.
    const listing = () => server.client.get(`/companies/${companyId}/keys`);
    expect(await eventually(async () => (await listing()).body.items[0]?.lastUsedAt !== null, 10_000), 'the public API used it').to.equal(true);
    const listed = await listing();
    expect(listed.status).to.equal(200);
    expect(listed.body.items).to.have.length(1);
    const [item] = listed.body.items;
    expect(Object.keys(item)).to.have.members(KEY_VIEW_FIELDS);
    expect(item.lastUsedAt).to.match(TIMESTAMP);
    expect(listed.text).not.to.contain(issued.key.split('_')[2]);
  });

  it("lists a company's keys oldest first, each with its status, and never another company's", async () => {
    const [mine, theirs] = [await aCompany('Mine'), await aCompany('Theirs')];
    const first = await aKey(mine, { name: 'first', scopes: ['vacancies:read'] });
    const second = await aKey(mine, { name: 'second', scopes: ['candidates:read'], expiresAt: new Date(server.clock.peek().getTime() + 60_000).toISOString() });
    const foreign = await aKey(theirs);
    server.clock.advance(120_000);
    const listed = await server.client.get(`/companies/${mine}/keys`);
    expect(listed.body.items.map((k: any) => [k.id, k.status])).to.deep.equal([[first.id, 'active'], [second.id, 'expired']]);
    expect(listed.text).not.to.contain(foreign.id);
    expect((await server.client.get(`/companies/${theirs}/keys`)).body.items.map((k: any) => k.id)).to.deep.equal([foreign.id]);
  });

  it('revokes a key (200): the public API refuses it, a second revocation changes nothing', async () => {
    const companyId = await aCompany();
    const key = await aKey(companyId);
    const revoked = await server.client.post(`/companies/${companyId}/keys/${key.id}/revoke`, undefined, { actor: 'security-officer' });
    expect(revoked.status, revoked.text).to.equal(200);
    expect(Object.keys(revoked.body)).to.have.members(KEY_VIEW_FIELDS);
    expect(revoked.body).to.include({ id: key.id, status: 'revoked', revokedBy: 'security-officer' });
    expect(revoked.body.revokedAt).to.match(TIMESTAMP);
    expect(await publicStatus(key.key)).to.equal(401);

    const again = await server.client.post(`/companies/${companyId}/keys/${key.id}/revoke`, undefined, { actor: 'someone-else' });
    expect([again.status, again.body]).to.deep.equal([200, revoked.body]);
    const events = (await server.client.get(`/companies/${companyId}/key-events`)).body.items;
    expect(events.filter((e: any) => e.type === 'revoked')).to.have.length(1);
  });

  it('rolls a key (201): a new key with the same name and scopes, the old one working until the time given', async () => {
    const companyId = await aCompany();
    const old = await aKey(companyId, { name: 'Интеграция HR', scopes: ['candidates:read', 'vacancies:read'] });
    const oldKeyExpiresAt = new Date(server.clock.peek().getTime() + 3_600_000).toISOString();
    const rolled = await server.client.post(`/companies/${companyId}/keys/${old.id}/roll`, { oldKeyExpiresAt }, { actor: 'rotator' });
    expect(rolled.status, rolled.text).to.equal(201);
    const { issued, rolled: before } = rolled.body;
    expect(Object.keys(rolled.body)).to.have.members(['issued', 'rolled']);
    expect(issued).to.deep.include({ name: 'Интеграция HR', scopes: ['vacancies:read', 'candidates:read'], status: 'active', createdBy: 'rotator', rolledFrom: old.id, rolledTo: null, expiresAt: null });
    expect(issued.key).to.match(new RegExp(`^ik_${issued.id}_`));
    expect(before).to.deep.include({ id: old.id, status: 'active', rolledTo: issued.id, expiresAt: oldKeyExpiresAt });
    expect(Object.keys(before)).to.have.members(KEY_VIEW_FIELDS);

    expect(await publicStatus(old.key), 'the old key, before its end').to.equal(200);
    expect(await publicStatus(issued.key)).to.equal(200);
    server.clock.advance(3_600_000);
    expect(await publicStatus(old.key), 'the old key, after its end').to.equal(401);
    expect(await publicStatus(issued.key)).to.equal(200);
  });

  it("gives the successor the old key's lifetime when expiresAt is left out, and no expiry when it is null", async () => {
    const companyId = await aCompany();
    const lifetime = 30 * 86_400_000;
    const expiring = () => aKey(companyId, { name: 'на месяц', scopes: ['vacancies:read'], expiresAt: new Date(server.clock.peek().getTime() + lifetime).toISOString() });
    const [left, nulled, forever] = [await expiring(), await expiring(), await aKey(companyId)];
    const roll = async (keyId: string, body?: unknown) => {
      const rolled = await server.client.post(`/companies/${companyId}/keys/${keyId}/roll`, body);
      expect(rolled.status, rolled.text).to.equal(201);
      return rolled.body.issued;
    };
    server.clock.advance(5_000);
    const successor = await roll(left.id, { oldKeyExpiresAt: new Date(server.clock.peek().getTime() + 60_000).toISOString() });
    const issuedFor = Date.parse(left.expiresAt) - Date.parse(left.createdAt);
    expect(issuedFor).to.be.within(lifetime - 1_000, lifetime);
    expect(Date.parse(successor.expiresAt) - Date.parse(successor.createdAt), 'as long as the old key was issued for, not the minute the roll left it').to.equal(issuedFor);
    expect((await roll(nulled.id, { expiresAt: null })).expiresAt, 'an explicit null: never').to.equal(null);
    expect((await roll(forever.id)).expiresAt, 'the old key never expired').to.equal(null);
  });

  it('rolls for 7 days asked by a caller whose clock runs a little ahead, keeping the old key 7 days from the roll', async () => {
    const companyId = await aCompany();
    const old = await aKey(companyId);
    const week = 7 * 86_400_000;
    const rolled = await server.client.post(`/companies/${companyId}/keys/${old.id}/roll`, { oldKeyExpiresAt: new Date(server.clock.peek().getTime() + week + 30_000).toISOString() });
    expect(rolled.status, rolled.text).to.equal(201);
    expect(Date.parse(rolled.body.rolled.expiresAt) - Date.parse(rolled.body.issued.createdAt), 'cut to 7 days from the roll').to.equal(week);
    const events = (await server.client.get(`/companies/${companyId}/key-events`)).body.items;
    expect(events.find((e: any) => e.type === 'rolled').expiresAt).to.equal(rolled.body.rolled.expiresAt);
  });

  it('rolls with the defaults when no body is sent: the old key ends 24 hours on', async () => {
    const companyId = await aCompany();
    const old = await aKey(companyId);
    const before = server.clock.peek().getTime();
    const rolled = await server.client.post(`/companies/${companyId}/keys/${old.id}/roll`);
    expect(rolled.status, rolled.text).to.equal(201);
    const end = Date.parse(rolled.body.rolled.expiresAt) - before;
    expect(end).to.be.within(24 * 3_600_000, 24 * 3_600_000 + 1_000);
    expect((await server.client.post(`/companies/${companyId}/keys/${rolled.body.issued.id}/roll`, {})).status, 'an empty object too').to.equal(201);
  });

  it('rolls with the defaults for an empty body however it is framed, and reads a body that is there', async () => {
    const companyId = await aCompany();
    const rollOf = async (headers: Record<string, string>, body?: Buffer | string) => {
      const old = await aKey(companyId);
      const before = server.clock.peek().getTime();
      const answer = await rawRequest(server.managementOrigin, {
        method: 'POST',
        path: `${MANAGEMENT_PATH}/companies/${companyId}/keys/${old.id}/roll`,
        headers: { Authorization: `Bearer ${server.token}`, 'X-Actor': 'rotator', ...headers },
        ...(body === undefined ? {} : { body }),
      });
      return { status: answer.status, code: answer.body?.code, overlapMs: answer.status === 201 ? Date.parse(answer.body.rolled.expiresAt) - before : null };
    };
    const defaults = { status: 201, code: undefined, overlapMs: 24 * 3_600_000 };
    const toSeconds = (answer: { overlapMs: number | null }) => ({ ...answer, overlapMs: Math.floor((answer.overlapMs ?? 0) / 1_000) * 1_000 });
    expect(toSeconds(await rollOf({ 'Transfer-Encoding': 'chunked' })), 'chunked, no chunk, no Content-Type').to.deep.equal(defaults);
    expect(toSeconds(await rollOf({ 'Transfer-Encoding': 'chunked', 'Content-Type': 'application/json' })), 'chunked, no chunk').to.deep.equal(defaults);
    expect(toSeconds(await rollOf({ 'Content-Length': '0', 'Content-Type': 'text/plain' })), 'Content-Length: 0 of any type').to.deep.equal(defaults);
    expect(toSeconds(await rollOf({ 'Content-Encoding': 'gzip', 'Content-Length': String(gzipSync('').length) }, gzipSync(''))), 'gzip of nothing').to.deep.equal(defaults);

    const hourLater = () => new Date(server.clock.peek().getTime() + 3_600_000).toISOString();
    const chunkedJson = await rollOf({ 'Transfer-Encoding': 'chunked', 'Content-Type': 'application/json' }, JSON.stringify({ oldKeyExpiresAt: hourLater() }));
    expect([chunkedJson.status, Math.round((chunkedJson.overlapMs ?? 0) / 60_000)], 'a chunked body is read').to.deep.equal([201, 60]);
    expect(await rollOf({ 'Transfer-Encoding': 'chunked' }, '{}'), 'a chunked body without a type').to.deep.include({ status: 415, code: 'unsupported_media_type' });
    expect(await rollOf({ 'Transfer-Encoding': 'chunked', 'Content-Type': 'application/json' }, 'null'), 'a JSON null is a body').to.deep.include({ status: 400, code: 'validation_failed' });
  });

  it('refuses to roll a key twice (409 key_already_rolled) or a revoked or expired one (409 key_not_active)', async () => {
    const companyId = await aCompany();
    const key = await aKey(companyId);
    expect((await server.client.post(`/companies/${companyId}/keys/${key.id}/roll`)).status).to.equal(201);
    const twice = await server.client.post(`/companies/${companyId}/keys/${key.id}/roll`);
    expect([twice.status, twice.body.code]).to.deep.equal([409, 'key_already_rolled']);
    expect(twice.headers.get('content-type')).to.match(/^application\/problem\+json/);

    const revoked = await aKey(companyId);
    await server.client.post(`/companies/${companyId}/keys/${revoked.id}/revoke`);
    const expiring = await aKey(companyId, { name: 'short', scopes: ['vacancies:read'], expiresAt: new Date(server.clock.peek().getTime() + 1_000).toISOString() });
    server.clock.advance(2_000);
    for (const id of [revoked.id, expiring.id]) {
      const refused = await server.client.post(`/companies/${companyId}/keys/${id}/roll`);
      expect([refused.status, refused.body.code, refused.body.title]).to.deep.equal([409, 'key_not_active', 'Conflict']);
    }
    const keys = (await server.client.get(`/companies/${companyId}/keys`)).body.items;
    expect(keys, 'no successor was made by a refused roll').to.have.length(4);
  });

  it('answers each 201 with the Location of what it created: the company, the key issued, the key a roll issued', async () => {
    const company = await server.client.post('/companies', { name: 'ТОО «Адрес»' });
    const companyId = company.body.id;
    const issued = await server.client.post(`/companies/${companyId}/keys`, { name: 'Портал', scopes: ['vacancies:read'] });
    const rolled = await server.client.post(`/companies/${companyId}/keys/${issued.body.id}/roll`);
    expect([company, issued, rolled].map((answer) => [answer.status, answer.headers.get('location')])).to.deep.equal([
      [201, `${MANAGEMENT_PATH}/companies/${companyId}`],
      [201, `${MANAGEMENT_PATH}/companies/${companyId}/keys/${issued.body.id}`],
      [201, `${MANAGEMENT_PATH}/companies/${companyId}/keys/${rolled.body.issued.id}`],
    ]);
    const [atIssued, atRolled] = [await readLocation(issued), await readLocation(rolled)];
    const listed = (await server.client.get(`/companies/${companyId}/keys`)).body.items;
    expect([atIssued.status, atRolled.status]).to.deep.equal([200, 200]);
    expect([atIssued.body, atRolled.body], 'each key as the list shows it now').to.deep.equal(listed);
    expect(atIssued.body).to.include({ status: 'active', rolledTo: rolled.body.issued.id });
  });

  it('reads a key only under its own company: another company\'s, an unknown and a malformed key id, an unknown company are one 404', async () => {
    const [mine, theirs] = [await aCompany(), await aCompany()];
    const foreign = await aKey(theirs);
    const unknownCompany = '019a98c0-0000-7000-8000-00000000dead';
    const answers = [
      await server.client.get(`/companies/${mine}/keys/${foreign.id}`),
      await server.client.get(`/companies/${mine}/keys/Zz9Yy8Xx7Ww6`),
      await server.client.get(`/companies/${mine}/keys/not-a-key-id`),
      await server.client.get(`/companies/${unknownCompany}/keys/${foreign.id}`),
    ];
    expect(answers.map((a) => ({ status: a.status, code: a.body.code, title: a.body.title }))).to.deep.equal(Array(4).fill({ status: 404, code: 'not_found', title: 'Not found' }));
    expect(answers.map((a) => a.text).join(), 'nothing of the key').not.to.contain(foreign.name);
    const own = await server.client.get(`/companies/${theirs}/keys/${foreign.id}`);
    expect([own.status, own.body.id]).to.deep.equal([200, foreign.id]);
    const withQuery = await server.client.get(`/companies/${theirs}/keys/${foreign.id}?fields=id`);
    expect([withQuery.status, withQuery.body.errors?.[0]?.pointer]).to.deep.equal([400, '/fields']);
  });

  it('answers 404 for an unknown company on every company route, and for a key of another company on revoke and roll, changing nothing', async () => {
    const unknown = '019a98c0-0000-7000-8000-00000000dead';
    for (const [method, path] of [['GET', ''], ['GET', '/keys'], ['POST', '/keys'], ['GET', '/key-events'], ['POST', '/keys/Zz9Yy8Xx7Ww6/revoke'], ['POST', '/keys/Zz9Yy8Xx7Ww6/roll']] as const) {
      const body = method === 'POST' && path === '/keys' ? { name: 'x', scopes: ['vacancies:read'] } : undefined;
      const response = method === 'GET' ? await server.client.get(`/companies/${unknown}${path}`) : await server.client.post(`/companies/${unknown}${path}`, body);
      expect([response.status, response.body.code], `${method} ${path}`).to.deep.equal([404, 'not_found']);
    }
    const [mine, theirs] = [await aCompany(), await aCompany()];
    const foreign = await aKey(theirs);
    const answers = [
      await server.client.post(`/companies/${mine}/keys/${foreign.id}/revoke`),
      await server.client.post(`/companies/${mine}/keys/${foreign.id}/roll`),
      await server.client.post(`/companies/${mine}/keys/Zz9Yy8Xx7Ww6/revoke`),
      await server.client.post(`/companies/${mine}/keys/not-a-key-id/revoke`),
    ];
    const bodies = answers.map((a) => ({ status: a.status, code: a.body.code, title: a.body.title }));
    expect(bodies).to.deep.equal(Array(4).fill({ status: 404, code: 'not_found', title: 'Not found' }));
    expect((await server.client.get(`/companies/${theirs}/keys`)).body.items[0]).to.include({ status: 'active', rolledTo: null });
    expect((await server.client.get(`/companies/${mine}/key-events`)).body.items).to.deep.equal([]);
    expect(await publicStatus(foreign.key)).to.equal(200);
  });
});
