import { expect } from 'chai';
import { ApiClient } from '../support/api-client.js';
import { aMinimalApplicationBody, aTenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

const RATE_LIMIT = /^"default";r=(\d+);t=(\d+)$/;

function remainingOf(headers: Headers): number {
  const match = RATE_LIMIT.exec(headers.get('ratelimit') ?? '');
  expect(match, `RateLimit header: ${headers.get('ratelimit')}`).to.not.equal(null);
  return Number(match![1]);
}

describe('Rate limit', () => {
  let server: TestServer;

  beforeEach(async () => {
    server = await startTestServer({ config: { rateLimitPoints: 3, rateLimitWindowS: 60 } });
  });
  afterEach(() => server.close());

  it('announces the policy and the remaining budget on every response, errors included', async () => {
    const tenant = await aTenant(server);
    const responses = [
      await tenant.api.get('/vacancies'),
      await tenant.api.get('/vacancies?limit=0'),
      await tenant.api.post('/applications', aMinimalApplicationBody('missing')),
    ];
    expect(responses.map((r) => r.status)).to.deep.equal([200, 400, 404]);
    for (const response of responses) {
      expect(response.headers.get('ratelimit-policy')).to.equal('"default";q=3;w=60');
      const [, , reset] = RATE_LIMIT.exec(response.headers.get('ratelimit')!)!;
      expect(Number(reset)).to.be.within(1, 60);
    }
    expect(responses.map((r) => remainingOf(r.headers))).to.deep.equal([2, 1, 0]);
  });

  it('answers 429 rate_limited with Retry-After once the budget of the key is spent', async () => {
    const tenant = await aTenant(server);
    for (let i = 0; i < 3; i++) expect((await tenant.api.get('/vacancies')).status).to.equal(200);
    const limited = await tenant.api.get('/vacancies');
    expect(limited.status).to.equal(429);
    expect(limited.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(limited.body).to.include({ status: 429, code: 'rate_limited' });
    const retryAfter = limited.headers.get('retry-after')!;
    expect(retryAfter).to.match(/^\d+$/);
    expect(Number(retryAfter)).to.be.within(1, 60);
    expect(remainingOf(limited.headers)).to.equal(0);
    expect((await tenant.api.post('/applications', aMinimalApplicationBody('x'))).status, 'every operation shares the budget').to.equal(429);
  });

  it('keeps a separate budget per key', async () => {
    const a = await aTenant(server);
    const b = await aTenant(server, { name: 'Другая' });
    for (let i = 0; i < 4; i++) await a.api.get('/vacancies');
    expect((await a.api.get('/vacancies')).status).to.equal(429);
    const other = await b.api.get('/vacancies');
    expect(other.status).to.equal(200);
    expect(remainingOf(other.headers)).to.equal(2);
  });

  it('limits requests without a valid key by client address, so keys cannot be guessed at speed', async () => {
    // In use before the guessing starts (a key id first read once the address has spent its budget waits for the window: rate-limit-reads.test.ts).
    const tenant = await aTenant(server);
    expect((await tenant.api.get('/vacancies')).status).to.equal(200);
    const anonymous = new ApiClient(server.baseUrl);
    for (let i = 0; i < 3; i++) expect((await anonymous.get('/vacancies', { key: `ik_${'A'.repeat(12)}_${String(i).repeat(40)}` })).status).to.equal(401);
    const limited = await anonymous.get('/vacancies');
    expect(limited.status).to.equal(429);
    expect(Number(limited.headers.get('retry-after'))).to.be.at.least(1);
    expect((await tenant.api.get('/vacancies')).status, 'a valid key spends its own budget').to.equal(200);
  });

  it('tells clients behind one load balancer apart by X-Forwarded-For only when TRUST_PROXY is on', async () => {
    for (const trustProxy of [1, 0]) {
      const behindProxy = await startTestServer({ config: { rateLimitPoints: 2, rateLimitWindowS: 60, trustProxy } });
      try {
        const anonymous = new ApiClient(behindProxy.baseUrl);
        const from = (ip: string) => anonymous.get('/vacancies', { headers: { 'X-Forwarded-For': ip } });
        for (let i = 0; i < 2; i++) expect((await from('203.0.113.7')).status).to.equal(401);
        expect((await from('203.0.113.7')).status).to.equal(429);
        expect((await from('198.51.100.9')).status, `trustProxy ${trustProxy}`).to.equal(trustProxy ? 401 : 429);
      } finally {
        await behindProxy.close();
      }
    }
  });

  it('reads the client address TRUST_PROXY hops from the right, so a forged leftmost entry buys no new budget', async () => {
    for (const hops of [1, 2]) {
      const behindProxies = await startTestServer({ config: { rateLimitPoints: 2, rateLimitWindowS: 60, trustProxy: hops } });
      try {
        const anonymous = new ApiClient(behindProxies.baseUrl);
        // What the proxies append: with two, the outer one's view of the client, then the inner one's view of the outer.
        const appended = hops === 1 ? '203.0.113.7' : '203.0.113.7, 10.0.0.2';
        const from = (forged: string) => anonymous.get('/vacancies', { headers: { 'X-Forwarded-For': `${forged}, ${appended}` } });
        expect((await from('192.0.2.1')).status).to.equal(401);
        expect((await from('192.0.2.2')).status).to.equal(401);
        expect((await from('192.0.2.3')).status, `${hops} hops: a new forged entry is the same client`).to.equal(429);
        const another = await anonymous.get('/vacancies', { headers: { 'X-Forwarded-For': hops === 1 ? '198.51.100.9' : '198.51.100.9, 10.0.0.2' } });
        expect(another.status, `${hops} hops: another client has its own budget`).to.equal(401);
      } finally {
        await behindProxies.close();
      }
    }
  });

  it('never limits the health probes', async () => {
    const probe = new ApiClient(server.origin);
    for (let i = 0; i < 6; i++) {
      const health = await probe.get('/healthz');
      expect(health.status).to.equal(200);
      expect(health.headers.get('ratelimit')).to.equal(null);
      expect((await probe.get('/readyz')).status).to.equal(200);
    }
  });

  it('answers 500 when the limiter store fails, rather than letting requests through unlimited', async () => {
    const failing = await startTestServer({ overrides: { rateLimiter: { consume: async () => Promise.reject(new Error('store unreachable')), peek: async () => Promise.reject(new Error('store unreachable')) } } });
    try {
      const tenant = await aTenant(failing);
      const response = await tenant.api.get('/vacancies');
      expect(response.status).to.equal(500);
      expect(response.body.code).to.equal('internal_error');
    } finally {
      await failing.close();
    }
  });
});
