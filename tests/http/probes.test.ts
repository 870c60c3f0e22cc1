import { expect } from 'chai';
import { ApiClient } from '../support/api-client.js';
import { startTestServer } from '../support/http-test-server.js';

describe('GET /healthz and GET /readyz', () => {
  it('answers 200 on both, without a key, while the stores answer', async () => {
    const server = await startTestServer();
    try {
      const probe = new ApiClient(server.origin);
      const health = await probe.get('/healthz');
      const ready = await probe.get('/readyz');
      expect([health.status, ready.status]).to.deep.equal([200, 200]);
      expect(health.body).to.deep.equal({ status: 'ok' });
      expect(ready.body).to.deep.equal({ status: 'ready' });
    } finally {
      await server.close();
    }
  });

  for (const [label, readiness] of [
    ['reports false', async () => false],
    ['throws', async () => Promise.reject(new Error('connection refused'))],
  ] as const) {
    it(`answers /readyz with 503 not_ready when the readiness check ${label}, and /healthz still with 200`, async () => {
      const server = await startTestServer({ overrides: { readiness } });
      try {
        const probe = new ApiClient(server.origin);
        const ready = await probe.get('/readyz');
        expect(ready.status).to.equal(503);
        expect(ready.headers.get('content-type')).to.match(/^application\/problem\+json/);
        expect(ready.body).to.include({ status: 503, code: 'not_ready' });
        expect(ready.body.requestId).to.equal(ready.headers.get('x-request-id'));
        expect((await probe.get('/healthz')).status).to.equal(200);
      } finally {
        await server.close();
      }
    });
  }

  it('answers /readyz with 503 not_ready from the moment the process is asked to stop, without asking the stores, while /healthz and the API still answer', async () => {
    let asked = 0;
    let stopping = false;
    const readiness = async () => {
      asked += 1;
      return true;
    };
    const server = await startTestServer({ overrides: { readiness, stopping: () => stopping } });
    try {
      const probe = new ApiClient(server.origin);
      expect((await probe.get('/readyz')).status).to.equal(200);
      stopping = true;
      const ready = await probe.get('/readyz');
      expect(ready.status).to.equal(503);
      expect(ready.body).to.include({ status: 503, code: 'not_ready' });
      expect(String(ready.body.detail)).to.match(/stopping/);
      expect(asked, 'the stores were asked before the stop only').to.equal(1);
      expect((await probe.get('/healthz')).status).to.equal(200);
      expect((await probe.get('/api/integration/v1/openapi.json')).status).to.equal(200);
    } finally {
      await server.close();
    }
  });
});
