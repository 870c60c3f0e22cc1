import { randomInt } from 'node:crypto';
import { expect } from 'chai';
import { formatServiceKey, KEY_ID_LENGTH, KEY_SECRET_LENGTH, parseServiceKey } from '../../domain/service-key/service-key-format.js';
import { KEY_CACHE_TTL_MAX_MS } from '../../infrastructure/config.schema.js';
import { ApiClient, type ApiResponse } from '../support/api-client.js';
import { aTenant } from '../support/http-fixtures.js';
import { startTestServer, TEST_STORE, type TestServer } from '../support/http-test-server.js';

const BUDGET = 20;
/** Requests in flight at once, as a probe sends them. */
const IN_FLIGHT = 10;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomText(length: number): string {
  return Array.from({ length }, () => BASE62[randomInt(BASE62.length)]).join('');
}

/** A well-formed key no one issued: a new id every time. */
function aMadeUpKey(): string {
  return formatServiceKey(randomText(KEY_ID_LENGTH), randomText(KEY_SECRET_LENGTH));
}

/** The registry reads the server makes, counted at the port (KEY_CACHE_TTL_MS as the service runs it). */
function countRegistryReads(server: TestServer): { reads: () => number; stop: () => void } {
  const registry = server.keyRegistry;
  const findById = registry.findById.bind(registry);
  let reads = 0;
  registry.findById = (id) => {
    reads += 1;
    return findById(id);
  };
  return { reads: () => reads, stop: () => delete (registry as Partial<typeof registry>).findById };
}

async function inBatches(count: number, send: () => Promise<ApiResponse>): Promise<ApiResponse[]> {
  const answers: ApiResponse[] = [];
  while (answers.length < count) answers.push(...(await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, count - answers.length) }, send))));
  return answers;
}

describe(`Rate limit before the key registry (${TEST_STORE})`, () => {
  let server: TestServer;

  beforeEach(async () => {
    server = await startTestServer({ config: { rateLimitPoints: BUDGET, rateLimitWindowS: 60, keyCacheTtlMs: KEY_CACHE_TTL_MAX_MS } });
  });
  afterEach(() => server.close());

  it('refuses a flood of made-up keys from one address with 429 before the registry is read for them', async () => {
    const counter = countRegistryReads(server);
    try {
      const anonymous = new ApiClient(server.baseUrl);
      const answers = await inBatches(300, () => anonymous.get('/vacancies', { key: aMadeUpKey() }));
      const statuses = answers.map((answer) => answer.status);
      const refused = statuses.filter((status) => status === 429).length;
      const unauthorized = statuses.filter((status) => status === 401).length;
      expect(refused + unauthorized, 'nothing but 401 and 429').to.equal(300);
      expect(counter.reads(), 'one read per 401, none per 429').to.equal(unauthorized);
      // The address's budget, and the requests that were past its check when it ran out.
      expect(unauthorized).to.be.within(BUDGET, BUDGET + IN_FLIGHT - 1);
      for (const answer of answers.filter((a) => a.status === 429)) expect(Number(answer.headers.get('retry-after'))).to.be.at.least(1);
    } finally {
      counter.stop();
    }
  });

  it('with KEY_CACHE_TTL_MS=0 holds a known key id sent with wrong secrets to the address budget too: no read past it', async () => {
    await server.close();
    server = await startTestServer({ config: { rateLimitPoints: BUDGET, rateLimitWindowS: 60, keyCacheTtlMs: 0 } });
    const tenant = await aTenant(server);
    expect((await tenant.api.get('/vacancies')).status, 'the key works').to.equal(200);
    const keyId = parseServiceKey(tenant.key)?.keyId as string;
    const counter = countRegistryReads(server);
    try {
      const guesser = new ApiClient(server.baseUrl);
      const answers = await inBatches(100, () => guesser.get('/vacancies', { key: formatServiceKey(keyId, randomText(KEY_SECRET_LENGTH)) }));
      const unauthorized = answers.filter((answer) => answer.status === 401).length;
      expect(unauthorized + answers.filter((answer) => answer.status === 429).length, 'nothing but 401 and 429').to.equal(100);
      expect(counter.reads(), 'one read per 401, none per 429').to.equal(unauthorized);
      expect(unauthorized).to.be.within(BUDGET, BUDGET + IN_FLIGHT - 1);
    } finally {
      counter.stop();
    }
  });

  it('keeps serving valid keys from that address, past the cache lifetime, and never spends its budget on them', async () => {
    const spender = await aTenant(server);
    for (let i = 0; i < BUDGET; i++) expect((await spender.api.get('/vacancies')).status).to.equal(200);
    const anonymous = new ApiClient(server.baseUrl);
    expect((await anonymous.get('/vacancies', { key: aMadeUpKey() })).status, "a valid key's requests spent none of the address's budget").to.equal(401);
    const tenant = await aTenant(server, { name: 'Другая' });
    expect((await tenant.api.get('/vacancies')).status).to.equal(200);
    await inBatches(2 * BUDGET, () => anonymous.get('/vacancies', { key: aMadeUpKey() }));
    expect((await anonymous.get('/vacancies', { key: aMadeUpKey() })).status).to.equal(429);

    const counter = countRegistryReads(server);
    try {
      expect((await tenant.api.get('/candidates')).status, 'a key this instance holds').to.equal(200);
      expect(counter.reads()).to.equal(0);
      server.clock.advance(KEY_CACHE_TTL_MAX_MS);
      expect((await tenant.api.get('/vacancies')).status, 'read again after KEY_CACHE_TTL_MS, whatever the address spent').to.equal(200);
      expect(counter.reads()).to.equal(1);
    } finally {
      counter.stop();
    }
  });

  it('refuses a key first seen from an address that has spent its budget until the window ends, without a read', async () => {
    const anonymous = new ApiClient(server.baseUrl);
    await inBatches(2 * BUDGET, () => anonymous.get('/vacancies', { key: aMadeUpKey() }));
    const tenant = await aTenant(server);
    const counter = countRegistryReads(server);
    try {
      expect((await tenant.api.get('/vacancies')).status).to.equal(429);
      expect(counter.reads()).to.equal(0);
    } finally {
      counter.stop();
    }
  });

  it('keys an IPv6 client by its /64: another address of the block shares the budget, another block has its own', async () => {
    const behindProxy = await startTestServer({ config: { rateLimitPoints: 2, rateLimitWindowS: 60, trustProxy: 1 } });
    try {
      const anonymous = new ApiClient(behindProxy.baseUrl);
      const from = (ip: string) => anonymous.get('/vacancies', { headers: { 'X-Forwarded-For': ip } });
      expect((await from('2001:db8:7:1::1')).status).to.equal(401);
      expect((await from('2001:db8:7:1:abcd::2')).status).to.equal(401);
      expect((await from('2001:0db8:0007:0001:ffff:ffff:ffff:fffe')).status, 'the same /64').to.equal(429);
      expect((await from('2001:db8:7:2::1')).status, 'the next /64').to.equal(401);
    } finally {
      await behindProxy.close();
    }
  });
});
