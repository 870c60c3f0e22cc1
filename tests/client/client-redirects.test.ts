import { expect } from 'chai';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IntegrationClient, RedirectError } from '../../clients/typescript/src/index.js';
import { aMinimalApplicationBody } from '../support/http-fixtures.js';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly apiKey: string | undefined;
  readonly body: string;
}

/** A local HTTP server that records every request it gets (with the X-API-Key it carried) and answers with `answer`. */
async function recordingServer(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const apiKey = request.headers['x-api-key'];
      seen.push({ method: request.method ?? '', url: request.url ?? '', apiKey: Array.isArray(apiKey) ? apiKey.join(',') : apiKey, body });
      answer(request, response);
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((done) => { server.closeAllConnections(); server.close(() => done()); }),
  };
}

describe('IntegrationClient and redirects', () => {
  let elsewhere: Awaited<ReturnType<typeof recordingServer>>;
  let redirecting: Awaited<ReturnType<typeof recordingServer>>;
  let status = 302;
  beforeEach(async () => {
    // Another origin (another port), answering like the API would, so that a followed redirect succeeds.
    elsewhere = await recordingServer((request, response) => {
      const page = request.method === 'POST' ? { id: 'card-1', status: 'created' } : { items: [], nextCursor: null };
      response.writeHead(request.method === 'POST' ? 201 : 200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(page));
    });
    redirecting = await recordingServer((request, response) => {
      response.writeHead(status, { Location: `${elsewhere.origin}${request.url ?? '/'}` });
      response.end();
    });
  });
  afterEach(async () => {
    await redirecting.close();
    await elsewhere.close();
  });

  const client = () => new IntegrationClient({ baseUrl: `${redirecting.origin}/api`, apiKey: 'ik_secret-key-of-the-test', sleep: async () => {} });
  const failureOf = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);

  for (const code of [301, 302, 303, 307, 308]) {
    it(`refuses a ${code} to another origin on a read, naming that origin, so the key never reaches it`, async () => {
      status = code;
      const error = await failureOf(client().listVacancies({ status: 'all' }));
      expect(error).to.be.instanceOf(RedirectError);
      expect(error).to.include({ name: 'RedirectError', status: code, location: `${elsewhere.origin}/api/integration/v1/vacancies?status=all` });
      expect((error as Error).message).to.include(`(HTTP ${code}) to ${elsewhere.origin};`);
      expect(elsewhere.seen, 'requests at the other origin').to.deep.equal([]);
      expect(redirecting.seen.map((r) => r.apiKey), 'one attempt, not retried').to.deep.equal(['ik_secret-key-of-the-test']);
    });
  }

  it('refuses a 307 on an application, which fetch would send on with its body and the key', async () => {
    status = 307;
    const error = await failureOf(client().submitApplication(aMinimalApplicationBody('vac-1')));
    expect(error).to.be.instanceOf(RedirectError);
    expect((error as Error).message).to.match(new RegExp(`^POST ${redirecting.origin}/api/integration/v1/applications was answered with a redirect \\(HTTP 307\\) to ${elsewhere.origin};`));
    expect(elsewhere.seen).to.deep.equal([]);
    expect(redirecting.seen).to.have.length(1);
  });
});
