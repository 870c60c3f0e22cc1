import { expect } from 'chai';
import { startServerProcess, type ServerProcess } from '../scale/support/server-process.js';

describe('METRICS=on (the real server process)', function () {
  this.timeout(60_000);
  let server: ServerProcess | undefined;
  afterEach(async () => server?.stop());

  it('serves GET /metrics on METRICS_HOST:METRICS_PORT, named in the listening line, and never on the public listener', async () => {
    server = await startServerProcess({ STORE: 'memory', METRICS: 'on', METRICS_PORT: '0' });
    const listening = server.logs().find((line) => line.msg === 'integration API listening');
    const metricsUrl = String(listening?.metrics);
    expect(metricsUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(metricsUrl).port).to.not.equal(String(server.port));

    const scraped = await fetch(metricsUrl);
    expect(scraped.status).to.equal(200);
    expect(await scraped.text()).to.include('# TYPE integration_api_http_requests_total counter');
    const onPublic = await fetch(`${server.origin}/metrics`);
    expect(onPublic.status).to.equal(404);
    await server.stop();
    expect((await server.exited).code).to.equal(0);
  });

  it('refuses to start, naming METRICS_PORT, when that port is taken', async () => {
    const first = await startServerProcess({ STORE: 'memory', METRICS: 'on', METRICS_PORT: '0' });
    server = first;
    const taken = new URL(String(first.logs().find((line) => line.msg === 'integration API listening')?.metrics)).port;
    const second = startServerProcess({ STORE: 'memory', METRICS: 'on', METRICS_PORT: taken });
    let failure = '';
    await second.then(
      async (s) => s.stop(),
      (error: Error) => (failure = error.message),
    );
    expect(failure).to.match(/exited \(1\) before it listened/).and.match(/METRICS_PORT/);
  });
});
