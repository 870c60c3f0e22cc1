import { expect } from 'chai';
import { PrometheusHttpMetrics } from '../../adapters/http/metrics/prometheus-http-metrics.js';
import { buildContainer, disposeContainer } from '../../infrastructure/container/build-container.js';
import { DATABASE_POOL_STATS, REPLICA_READ_STATS } from '../../infrastructure/container/metrics.tokens.js';
import { httpMetricsFor } from '../../infrastructure/http-metrics.js';
import { ApiClient } from '../support/api-client.js';
import { aMinimalApplicationBody, aTenant } from '../support/http-fixtures.js';
import { API_PATH, startTestServer, TEST_STORE, type TestServer } from '../support/http-test-server.js';
import { parsePrometheusText, sampleValue, type PromSample } from '../support/prometheus-text.js';

const REQUESTS = 'integration_api_http_requests_total';
const DURATION_COUNT = 'integration_api_http_request_duration_seconds_count';
const DURATION_BUCKET = 'integration_api_http_request_duration_seconds_bucket';
const APPLICATIONS = 'integration_api_applications_total';
const RATE_LIMITED = 'integration_api_rate_limited_total';

describe('GET /metrics', () => {
  const servers: TestServer[] = [];
  async function serverWith(options: Parameters<typeof startTestServer>[0]) {
    const server = await startTestServer(options);
    servers.push(server);
    return server;
  }
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  function scraperOf(server: TestServer): ApiClient {
    if (server.metricsOrigin === null) throw new Error('metrics are off on this server');
    return new ApiClient(server.metricsOrigin);
  }

  async function scrape(server: TestServer): Promise<PromSample[]> {
    const response = await scraperOf(server).get('/metrics');
    expect(response.status, response.text).to.equal(200);
    return parsePrometheusText(response.text);
  }

  it('is never served on the public listener, with METRICS on or off: a 404 problem there', async () => {
    for (const metrics of [false, true]) {
      const server = await serverWith({ config: { metrics } });
      expect(server.metricsOrigin === null, `metrics ${metrics}: a metrics listener only when on`).to.equal(!metrics);
      const tenant = await aTenant(server);
      for (const key of [undefined, tenant.key]) {
        const response = await new ApiClient(server.origin).get('/metrics', { key });
        expect(response.status, `metrics ${metrics}`).to.equal(404);
        expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/);
        expect(response.body.code).to.equal('not_found');
      }
    }
  });

  it('serves the Prometheus text format on its own listener, without a key, never rate limited, and nothing else there', async () => {
    const server = await serverWith({ config: { metrics: true, rateLimitPoints: 2 } });
    const scraper = scraperOf(server);
    for (let i = 0; i < 5; i++) {
      const response = await scraper.get('/metrics', { headers: { 'X-API-Key': 'ik_not_a_key' } });
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('text/plain; version=0.0.4; charset=utf-8');
      expect(response.headers.get('ratelimit')).to.equal(null);
      expect(response.headers.get('cache-control')).to.equal('no-store');
      expect(response.text).to.include('# TYPE integration_api_http_requests_total counter');
    }
    for (const path of ['/api/integration/v1/vacancies', '/healthz', '/']) expect((await scraper.get(path)).status, path).to.equal(404);
    const samples = await scrape(server);
    expect(sampleValue(samples, REQUESTS, { route: '/metrics', status: '200' }), 'scrapes are not API traffic').to.equal(undefined);
    expect(sampleValue(samples, 'process_cpu_user_seconds_total')).to.be.a('number');
    for (const sample of samples) expect(sample.labels.region, sample.name).to.equal('kz');
  });

  it('counts requests by method, route template and status, and times them, never naming the URL', async () => {
    const server = await serverWith({ config: { metrics: true } });
    const tenant = await aTenant(server);
    await tenant.api.get('/vacancies');
    await tenant.api.get('/vacancies?limit=0&since=secret-since-value');
    await tenant.api.get('/candidates', { key: undefined });
    await tenant.api.get('/no-such-route-secret');
    await tenant.api.get('/no-such-route-secret', { key: undefined });
    await new ApiClient(server.origin).get('/elsewhere-secret');
    await tenant.api.send('DELETE', '/vacancies', undefined);

    const samples = await scrape(server);
    const vacancies = `${API_PATH}/vacancies`;
    expect(sampleValue(samples, REQUESTS, { method: 'GET', route: vacancies, status: '200' })).to.equal(1);
    expect(sampleValue(samples, REQUESTS, { method: 'GET', route: vacancies, status: '400' })).to.equal(1);
    expect(sampleValue(samples, REQUESTS, { method: 'GET', route: `${API_PATH}/candidates`, status: '401' })).to.equal(1);
    expect(sampleValue(samples, REQUESTS, { method: 'GET', route: 'unmatched', status: '404' })).to.equal(2);
    expect(sampleValue(samples, REQUESTS, { method: 'GET', route: 'unmatched', status: '401' }), 'an unknown path under the API root, without a key').to.equal(1);
    expect(sampleValue(samples, REQUESTS, { method: 'DELETE', route: 'unmatched', status: '405' })).to.equal(1);
    expect(sampleValue(samples, DURATION_COUNT, { method: 'GET', route: vacancies })).to.equal(2);
    expect(sampleValue(samples, DURATION_BUCKET, { method: 'GET', route: vacancies, le: '+Inf' })).to.equal(2);
    const text = samples.map((s) => JSON.stringify(s)).join('\n');
    for (const secret of ['secret', tenant.key, tenant.keyId]) expect(text).to.not.include(secret);
  });

  it('counts applications created and duplicate, and requests refused by the rate limit', async () => {
    const server = await serverWith({ config: { metrics: true, rateLimitPoints: 4 } });
    const tenant = await aTenant(server);
    const vacancyId = (await tenant.addVacancy()).id;
    const before = await scrape(server);
    expect(sampleValue(before, APPLICATIONS, { outcome: 'created' })).to.equal(0);
    expect(sampleValue(before, RATE_LIMITED, { bucket: 'key' })).to.equal(0);

    const body = aMinimalApplicationBody(vacancyId);
    expect((await tenant.api.post('/applications', body)).status).to.equal(201);
    expect((await tenant.api.post('/applications', body)).status).to.equal(200);
    expect((await tenant.api.post('/applications', aMinimalApplicationBody('missing'))).status).to.equal(404);
    expect((await tenant.api.get('/vacancies')).status).to.equal(200);
    expect((await tenant.api.get('/vacancies')).status).to.equal(429);
    for (let i = 0; i < 5; i++) await new ApiClient(server.baseUrl).get('/vacancies');

    const after = await scrape(server);
    expect(sampleValue(after, APPLICATIONS, { outcome: 'created' })).to.equal(1);
    expect(sampleValue(after, APPLICATIONS, { outcome: 'duplicate' })).to.equal(1);
    expect(sampleValue(after, RATE_LIMITED, { bucket: 'key' })).to.equal(1);
    expect(sampleValue(after, RATE_LIMITED, { bucket: 'address' })).to.equal(1);
    expect(sampleValue(after, REQUESTS, { method: 'GET', route: `${API_PATH}/vacancies`, status: '429' })).to.equal(2);
  });

  it('reports database pool use from the store, and no pool series for the memory store', async () => {
    const started = await serverWith({ config: { metrics: true } });
    // A list read: the business database's pool opens its first connection for it (pools open none before use).
    expect((await (await aTenant(started)).api.get('/vacancies')).status).to.equal(200);
    const fromStore = await scrape(started);
    if (TEST_STORE === 'memory') {
      expect(fromStore.filter((s) => s.name.startsWith('integration_api_db_pool'))).to.deep.equal([]);
    } else {
      // The PostgreSQL profile reads its real pool: the business database answered the list, so it has a connection.
      expect(sampleValue(fromStore, 'integration_api_db_pool_connections', { pool: 'business' })).to.be.at.least(1);
      expect(sampleValue(fromStore, 'integration_api_db_pool_waiting_requests', { pool: 'business' })).to.equal(0);
    }

    let waiting = 1;
    const metrics = new PrometheusHttpMetrics({
      processMetrics: false,
      poolStats: () => [
        { pool: 'business', total: 10, idle: 4, waiting },
        { pool: 'registry', total: 2, idle: 2, waiting: 0 },
      ],
    });
    const server = await serverWith({ overrides: { metrics } });
    const first = await scrape(server);
    expect(sampleValue(first, 'integration_api_db_pool_connections', { pool: 'business' })).to.equal(10);
    expect(sampleValue(first, 'integration_api_db_pool_idle_connections', { pool: 'business' })).to.equal(4);
    expect(sampleValue(first, 'integration_api_db_pool_waiting_requests', { pool: 'business' })).to.equal(1);
    expect(sampleValue(first, 'integration_api_db_pool_connections', { pool: 'registry' })).to.equal(2);
    waiting = 7;
    expect(sampleValue(await scrape(server), 'integration_api_db_pool_waiting_requests', { pool: 'business' }), 'read at every scrape').to.equal(7);
  });

  it('takes pool use from DATABASE_POOL_STATS when a store profile binds it, and is off with METRICS off', async () => {
    const container = await buildContainer({ profile: 'memory', config: { metrics: true, region: 'uz' } });
    try {
      container.bind(DATABASE_POOL_STATS).toConstantValue(() => [{ pool: 'business', total: 3, idle: 1, waiting: 0 }]);
      const samples = parsePrometheusText((await httpMetricsFor(container)!.render()).text);
      expect(sampleValue(samples, 'integration_api_db_pool_connections', { pool: 'business', region: 'uz' })).to.equal(3);
    } finally {
      await disposeContainer(container);
    }
    const off = await buildContainer({ profile: 'memory', config: { metrics: false } });
    expect(httpMetricsFor(off)).to.equal(undefined);
    await disposeContainer(off);
  });

  it('shows where list pages were read when REPLICA_READ_STATS is bound: pages per copy, fallbacks per reason, lag per replica', async () => {
    const container = await buildContainer({ profile: 'memory', config: { metrics: true, region: 'kz' } });
    try {
      const pages = new Map([['primary', 3], ['replica-1', 40]]);
      const lags = [{ replica: 'replica-1', bytes: 4_096 }, { replica: 'replica-2', bytes: null }];
      container.bind(REPLICA_READ_STATS).toConstantValue({ pages, fallbacks: new Map([['lagging', 2], ['unavailable', 1], ['error', 0]]), lags: () => lags });
      const metrics = httpMetricsFor(container)!;
      const first = parsePrometheusText((await metrics.render()).text);
      expect(sampleValue(first, 'integration_api_list_pages_total', { copy: 'replica-1', region: 'kz' })).to.equal(40);
      expect(sampleValue(first, 'integration_api_list_pages_total', { copy: 'primary', region: 'kz' })).to.equal(3);
      expect(sampleValue(first, 'integration_api_list_page_fallbacks_total', { reason: 'lagging', region: 'kz' })).to.equal(2);
      expect(sampleValue(first, 'integration_api_replica_lag_bytes', { replica: 'replica-1', region: 'kz' })).to.equal(4_096);
      expect(first.some((sample) => sample.labels.replica === 'replica-2'), 'an unknown lag is not shown as 0').to.equal(false);
      pages.set('replica-1', 41);
      expect(sampleValue(parsePrometheusText((await metrics.render()).text), 'integration_api_list_pages_total', { copy: 'replica-1', region: 'kz' }), 'read at every scrape').to.equal(41);
    } finally {
      await disposeContainer(container);
    }
  });

  it('keeps the counts of each app to itself', async () => {
    const busy = await serverWith({ config: { metrics: true } });
    const idle = await serverWith({ config: { metrics: true } });
    const tenant = await aTenant(busy);
    for (let i = 0; i < 3; i++) await tenant.api.get('/vacancies');
    expect(sampleValue(await scrape(busy), REQUESTS, { route: `${API_PATH}/vacancies`, status: '200' })).to.equal(3);
    expect(sampleValue(await scrape(idle), REQUESTS, { route: `${API_PATH}/vacancies`, status: '200' })).to.equal(undefined);
  });
});
