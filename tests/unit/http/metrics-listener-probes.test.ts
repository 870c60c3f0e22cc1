import { expect } from 'chai';
import { listenForMetrics, type RunningMetricsServer } from '../../../infrastructure/metrics-server.js';

describe('The metrics listener with probes (the feed process\'s: GET /healthz and GET /readyz beside GET /metrics)', () => {
  let listener: RunningMetricsServer | undefined;
  afterEach(async () => listener?.close());

  it('answers /readyz 200 while the process does its work, and 503 problem+json saying why not, /healthz 200 throughout', async () => {
    let reason: string | null = 'The feed consumer is starting: it is not connected to the broker yet.';
    const metrics = { render: async () => ({ contentType: 'text/plain; version=0.0.4; charset=utf-8', text: 'feed_consuming 1\n' }) };
    listener = await listenForMetrics(metrics, 0, '127.0.0.1', { notReadyBecause: () => reason });
    const get = (path: string) => fetch(`${listener!.origin}${path}`);

    const starting = await get('/readyz');
    expect(starting.status).to.equal(503);
    expect(starting.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(starting.headers.get('cache-control')).to.equal('no-store');
    expect(await starting.json()).to.deep.equal({
      type: 'urn:problem-type:integration-api:not_ready', title: 'Not ready', status: 503, code: 'not_ready', detail: reason,
    });
    const health = await get('/healthz');
    expect([health.status, await health.json()]).to.deep.equal([200, { status: 'ok' }]);

    reason = null;
    const ready = await get('/readyz');
    expect([ready.status, await ready.json()]).to.deep.equal([200, { status: 'ready' }]);
    expect(await (await get('/metrics')).text()).to.equal('feed_consuming 1\n');
    const other = await get('/vacancies');
    expect(other.status).to.equal(404);
    expect(await other.text()).to.equal('Not found: this listener serves GET /metrics, /healthz, /readyz only.\n');
    expect((await fetch(`${listener.origin}/readyz`, { method: 'POST' })).status).to.equal(405);
  });
});
