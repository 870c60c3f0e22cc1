import { expect } from 'chai';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

interface BinaryResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The body as it came over the wire, still encoded. */
  readonly bytes: Buffer;
}

/** node:http rather than fetch: fetch decodes gzip and br by itself and would hide what the server sent. */
function getRaw(url: string, headers: Record<string, string>): Promise<BinaryResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes: Buffer.concat(chunks) }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('Response compression', () => {
  let server: TestServer;
  let tenant: Tenant;

  beforeEach(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
    // Several Cyrillic vacancies: a page well above the 1 KB threshold.
    for (let i = 0; i < 8; i++) await tenant.addVacancy({ title: `Бэкенд-разработчик ${i}`, description: '<p>Разработка API на Node.js и PostgreSQL</p>'.repeat(4) });
  });
  afterEach(() => server.close());

  const vacanciesUrl = () => `${server.baseUrl}/vacancies?limit=100`;

  it('sends a page brotli- or gzip-encoded when the client accepts it, decoding to the same JSON as the identity page', async () => {
    const identity = await getRaw(vacanciesUrl(), { 'X-API-Key': tenant.key });
    expect(identity.status).to.equal(200);
    expect(identity.headers['content-encoding']).to.equal(undefined);
    expect(identity.bytes.length).to.be.greaterThan(1024);
    const plain = JSON.parse(identity.bytes.toString('utf8'));

    for (const [encoding, decode] of [['br', brotliDecompressSync], ['gzip', gunzipSync]] as const) {
      const encoded = await getRaw(vacanciesUrl(), { 'X-API-Key': tenant.key, 'Accept-Encoding': encoding });
      expect(encoded.status, encoding).to.equal(200);
      expect(encoded.headers['content-encoding'], encoding).to.equal(encoding);
      expect(encoded.headers['content-type'], encoding).to.match(/^application\/json/);
      expect(encoded.headers.vary, encoding).to.match(/accept-encoding/i);
      expect(encoded.headers['x-sync-watermark'], encoding).to.be.a('string');
      expect(encoded.bytes.length, encoding).to.be.lessThan(identity.bytes.length / 2);
      const decoded = JSON.parse(decode(encoded.bytes).toString('utf8'));
      // The same items and cursor; only the watermark header may move between two requests.
      expect(decoded, encoding).to.deep.equal(plain);
    }
  });

  it('prefers brotli when the client accepts both, and sends identity for an encoding it does not offer', async () => {
    const both = await getRaw(vacanciesUrl(), { 'X-API-Key': tenant.key, 'Accept-Encoding': 'gzip, deflate, br' });
    expect(both.headers['content-encoding']).to.equal('br');
    const unknown = await getRaw(vacanciesUrl(), { 'X-API-Key': tenant.key, 'Accept-Encoding': 'compress' });
    expect(unknown.status).to.equal(200);
    expect(unknown.headers['content-encoding']).to.equal(undefined);
    expect(JSON.parse(unknown.bytes.toString('utf8')).items).to.have.length(8);
  });

  it('leaves answers under 1 KB as they are: a probe, and a problem document that keeps its media type', async () => {
    const health = await getRaw(`${server.origin}/healthz`, { 'Accept-Encoding': 'br, gzip' });
    expect(health.headers['content-encoding']).to.equal(undefined);
    expect(JSON.parse(health.bytes.toString('utf8'))).to.deep.equal({ status: 'ok' });

    const unauthorized = await getRaw(vacanciesUrl(), { 'Accept-Encoding': 'br, gzip' });
    expect(unauthorized.status).to.equal(401);
    expect(unauthorized.headers['content-encoding']).to.equal(undefined);
    expect(unauthorized.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(JSON.parse(unauthorized.bytes.toString('utf8'))).to.include({ status: 401, code: 'unauthorized' });
  });
});
