import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, IntegrationClient, NetworkError } from '../../clients/typescript/src/index.js';
import { aMinimalApplicationBody, aTenant } from '../support/http-fixtures.js';
import { startTestServer } from '../support/http-test-server.js';

type Answer = (request: IncomingMessage, response: ServerResponse) => void;

/** A stand-in for the service that gives the scripted answers in turn and remembers what it was sent. */
async function scriptedServer(answers: Answer[]) {
  const received: { requestId: string; body: string }[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ requestId: String(request.headers['x-request-id']), body });
      const answer = answers[Math.min(received.length, answers.length) - 1]!;
      answer(request, response);
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    received,
    close: () => new Promise<void>((done) => { server.closeAllConnections(); server.close(() => done()); }),
  };
}

const problem = (status: number, code: string, headers: Record<string, string> = {}): Answer => (_request, response) => {
  response.writeHead(status, { 'Content-Type': 'application/problem+json', 'X-Request-Id': 'srv-1', ...headers });
  response.end(JSON.stringify({ type: `urn:problem-type:integration-api:${code}`, title: code, status, code, detail: code, requestId: 'srv-1' }));
};
const created: Answer = (_request, response) => {
  response.writeHead(201, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify({ id: 'card-1', status: 'created' }));
};
const hangUp: Answer = (request) => request.socket.destroy();

describe('IntegrationClient retries', () => {
  const waits: number[] = [];
  const recordWaits = async (ms: number) => void waits.push(ms);
  beforeEach(() => (waits.length = 0));

  it('retries a 429 after the Retry-After it was given, then returns the created card', async () => {
    const fake = await scriptedServer([problem(429, 'rate_limited', { 'Retry-After': '7' }), created]);
    try {
      const client = new IntegrationClient({ baseUrl: fake.baseUrl, apiKey: 'k', sleep: recordWaits });
      const result = await client.submitApplication(aMinimalApplicationBody('v'));
      expect(result).to.include({ id: 'card-1', status: 'created', attempts: 2 });
      expect(waits).to.have.length(1);
      expect(waits[0]).to.be.within(7000, 7250);
      expect(fake.received.map((r) => r.body), 'the same body, so the service can tell it is the same application').to.satisfy((bodies: string[]) => bodies[0] === bodies[1]);
      expect(fake.received[1]!.requestId).to.equal(`${fake.received[0]!.requestId}.2`);
    } finally {
      await fake.close();
    }
  });

  it('retries 503 and dropped connections with growing, jittered backoff, and gives up after maxAttempts', async () => {
    const fake = await scriptedServer([problem(503, 'not_ready'), hangUp, problem(503, 'not_ready'), created]);
    try {
      const client = new IntegrationClient({ baseUrl: fake.baseUrl, apiKey: 'k', sleep: recordWaits, random: () => 0.5, retry: { baseDelayMs: 100 } });
      expect(await client.submitApplication(aMinimalApplicationBody('v'))).to.include({ status: 'created', attempts: 4 });
      expect(waits).to.deep.equal([75, 150, 300]);
    } finally {
      await fake.close();
    }

    const down = await scriptedServer([problem(503, 'not_ready')]);
    try {
      const client = new IntegrationClient({ baseUrl: down.baseUrl, apiKey: 'k', sleep: recordWaits, retry: { maxAttempts: 3 } });
      const failure = (await client.submitApplication(aMinimalApplicationBody('v')).catch((e: unknown) => e)) as ApiError;
      expect(failure).to.be.instanceOf(ApiError);
      expect(failure).to.include({ status: 503, code: 'not_ready', attempts: 3 });
      expect(down.received).to.have.length(3);
    } finally {
      await down.close();
    }
  });

  it('reports an unreachable service as NetworkError after its attempts, and never retries a 4xx other than 429', async () => {
    const nowhere = await scriptedServer([hangUp]);
    try {
      const client = new IntegrationClient({ baseUrl: nowhere.baseUrl, apiKey: 'k', sleep: recordWaits, retry: { maxAttempts: 2 } });
      const failure = await client.listVacancies().catch((e: unknown) => e);
      expect(failure).to.be.instanceOf(NetworkError);
      expect(failure).to.include({ attempts: 2 });
      expect(waits).to.have.length(1);
    } finally {
      await nowhere.close();
    }
    waits.length = 0;
    const strict = await scriptedServer([problem(404, 'not_found'), created]);
    try {
      const client = new IntegrationClient({ baseUrl: strict.baseUrl, apiKey: 'k', sleep: recordWaits });
      expect(await client.submitApplication(aMinimalApplicationBody('v')).catch((e: ApiError) => [e.status, e.attempts])).to.deep.equal([404, 1]);
      expect(waits).to.deep.equal([]);
    } finally {
      await strict.close();
    }
  });

  it('does not wait for a Retry-After longer than it allows: the 429 is thrown with what the service asked', async () => {
    const fake = await scriptedServer([problem(429, 'rate_limited', { 'Retry-After': '3600' }), created]);
    try {
      const client = new IntegrationClient({ baseUrl: fake.baseUrl, apiKey: 'k', sleep: recordWaits });
      const failure = (await client.submitApplication(aMinimalApplicationBody('v')).catch((e: unknown) => e)) as ApiError;
      expect(failure).to.include({ status: 429, retryAfterMs: 3_600_000, attempts: 1 });
      expect(waits).to.deep.equal([]);
    } finally {
      await fake.close();
    }
  });

  it('rides out the real rate limit of the service: waits the Retry-After, then the application is created once', async function () {
    this.timeout(20_000);
    const server = await startTestServer({ config: { rateLimitPoints: 1, rateLimitWindowS: 1 } });
    try {
      const tenant = await aTenant(server);
      const vacancy = await tenant.addVacancy();
      const client = new IntegrationClient({ baseUrl: server.baseUrl, apiKey: tenant.key });
      await client.listVacancies();
      const started = Date.now();
      const result = await client.submitApplication(aMinimalApplicationBody(vacancy.id));
      expect(result.status).to.equal('created');
      expect(result.attempts).to.be.at.least(2);
      expect(Date.now() - started, 'it waited for the window').to.be.at.least(900);
      const page = await client.listCandidates();
      expect(page.items.map((c) => c.id)).to.deep.equal([result.id]);
    } finally {
      await server.close();
    }
  });
});
