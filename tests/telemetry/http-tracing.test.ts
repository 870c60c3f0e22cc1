import { expect } from 'chai';
import { PgPlatformTokenRepository } from '../../adapters/persistence/postgres/pg-platform-token-repository.js';
import { NodeCryptoSecrets } from '../../adapters/system/node-crypto-secrets.js';
import { SystemClock } from '../../adapters/system/system-clock.js';
import { UuidV7IdGenerator } from '../../adapters/system/uuid-v7-id-generator.js';
import { IssuePlatformToken } from '../../application/use-cases/issue-platform-token.use-case.js';
import { stablePort } from '../support/stable-port.js';
import { npmStart, npmStartToExit, type NpmStart } from '../lifecycle/support/npm-start.js';
import { adminOn } from '../scale/support/registry.js';
import { aFullApplicationBody } from '../support/http-fixtures.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js';
import { descendsFrom, leaksOf, randomHex, traceOf } from './support/span-tree.js';

const SERVER = 2;

/** `npm start` on the test database, exporting to `endpoint` with the OTEL_* variables given. */
function serviceTracingTo(databaseUrl: string, otel: Record<string, string>): Promise<NpmStart> {
  return npmStart({ STORE: 'postgres', DATABASE_URL: databaseUrl, REGION: 'uz', OTEL_BSP_SCHEDULE_DELAY: '100', ...otel }, 180_000);
}

function personalValuesOf(body: ReturnType<typeof aFullApplicationBody>, key: string): string[] {
  const { candidate, resume, referral, coverLetter } = body;
  return [key, candidate.name, candidate.email, candidate.phone, candidate.location, coverLetter, resume.summary, resume.role, referral.name, referral.email, referral.phone];
}

function serverSpanOf(spans: readonly ReceivedSpan[], route: string): ReceivedSpan | undefined {
  return spans.find((span) => span.kind === SERVER && span.attributes['http.route'] === route);
}

describe('tracing of the HTTP service (OTEL_* variables, OTLP over HTTP)', function () {
  this.timeout(240_000);
  const database = usePostgresTestDatabase();
  let receiver: OtlpReceiver | undefined;
  let service: NpmStart | undefined;
  afterEach(async () => {
    service?.kill();
    await receiver?.close();
    service = undefined;
    receiver = undefined;
  });

  it('http/json: continues the caller\'s trace from the HTTP span down to each statement, with no personal value or key in it', async () => {
    receiver = await startOtlpReceiver();
    const admin = adminOn(database());
    const companyId = await admin.company();
    const key = await admin.issueKey(companyId, { scopes: ['applications:write'] });
    const vacancyId = await admin.vacancy(companyId);
    service = await serviceTracingTo(database().businessUrl, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'api-under-test',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=tracing-test',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '1',
    });
    const callerTrace = randomHex(16);
    const callerSpan = randomHex(8);
    const body = aFullApplicationBody(vacancyId);
    const response = await fetch(`${service.apiUrl}/applications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key.key, traceparent: `00-${callerTrace}-${callerSpan}-01` },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).to.equal(201);
    const route = '/api/integration/v1/applications';
    await receiver.until((spans) => {
      const server = serverSpanOf(spans, route);
      return server !== undefined && spans.some((span) => span.name.startsWith('pg.query') && descendsFrom(spans, span, server));
    });

    const spans = traceOf(receiver.spans, callerTrace);
    const server = serverSpanOf(spans, route) as ReceivedSpan;
    expect(server, 'the HTTP span, in the caller\'s trace').to.not.equal(undefined);
    expect(server.parentSpanId, 'the caller\'s span is its parent').to.equal(callerSpan);
    expect(server.name).to.equal(`POST ${route}`);
    expect(server.attributes).to.include({ 'app.region': 'uz', 'app.company.id': companyId, 'http.request.method': 'POST', 'http.response.status_code': 201 });
    expect(server.attributes, 'no path: the caller\'s text').to.not.have.property('url.path');
    expect(server.resource).to.include({ 'service.name': 'api-under-test', 'deployment.environment.name': 'tracing-test' });
    const useCase = spans.find((span) => span.name === 'use case submitApplication');
    expect(useCase && descendsFrom(spans, useCase, server), 'the use case under the HTTP span').to.equal(true);
    const lock = spans.find((span) => span.name === 'company lock');
    expect(lock && useCase && descendsFrom(spans, lock, useCase), 'the company lock under the use case').to.equal(true);
    expect(lock?.attributes['app.company.id']).to.equal(companyId);
    const statements = spans.filter((span) => span.name.startsWith('pg.query'));
    expect(statements.length, 'statements').to.be.greaterThan(1);
    for (const statement of statements) {
      expect(descendsFrom(spans, statement, server), `${statement.name} under the HTTP span`).to.equal(true);
      expect(statement.attributes['db.query.text'], statement.name).to.be.a('string');
    }
    expect(receiver.spans.filter((span) => span.traceId !== callerTrace).map((span) => span.name), 'spans of another trace').to.deep.equal([]);
    expect(leaksOf(receiver.rawBodies, [...personalValuesOf(body, key.key), key.key.slice(-12)]), 'personal values or the key, exported').to.deep.equal([]);
    expect([...receiver.contentTypes]).to.deep.equal(['application/json']);
    // The request's log line names its span.
    const line = service.logs().find((entry) => entry.msg === 'request' && entry.trace_id === callerTrace);
    expect(line, 'the access log line carries trace_id').to.not.equal(undefined);
    expect(spans.map((span) => span.spanId)).to.include(line?.span_id);
  });

  it('http/protobuf: a list request without a traceparent is one new trace, from its HTTP span to its statements', async () => {
    receiver = await startOtlpReceiver();
    const admin = adminOn(database());
    const companyId = await admin.company();
    const key = await admin.issueKey(companyId, { scopes: ['vacancies:read'] });
    await admin.vacancy(companyId);
    service = await serviceTracingTo(database().businessUrl, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' });
    const response = await fetch(`${service.apiUrl}/vacancies?limit=5`, { headers: { 'x-api-key': key.key } });
    expect(response.status).to.equal(200);
    const route = '/api/integration/v1/vacancies';
    await receiver.until((spans) => {
      const server = serverSpanOf(spans, route);
      return server !== undefined && spans.some((span) => span.name.startsWith('pg.query') && descendsFrom(spans, span, server));
    });
    const server = serverSpanOf(receiver.spans, route) as ReceivedSpan;
    expect(server.parentSpanId, 'a new trace').to.equal('');
    expect(server.attributes).to.include({ 'app.company.id': companyId, 'url.query': 'limit=REDACTED', 'http.response.status_code': 200 });
    // The request's span outlasts every statement of the request (its end after the body: tests/unit/telemetry).
    const statementsOf = traceOf(receiver.spans, server.traceId).filter((span) => span.name.startsWith('pg.query'));
    expect(statementsOf.length, 'statements').to.be.greaterThan(0);
    for (const statement of statementsOf) expect(statement.endTimeUnixNano <= server.endTimeUnixNano, statement.name).to.equal(true);
    expect(server.endTimeUnixNano > 0n, 'an end time').to.equal(true);
    expect(server.resource['service.name'], 'the default service name').to.equal('integration-api');
    const spans = traceOf(receiver.spans, server.traceId);
    expect(spans.some((span) => span.name === 'use case listVacancies' && descendsFrom(spans, span, server))).to.equal(true);
    expect(new Set(receiver.spans.map((span) => span.traceId)).size, 'one trace id').to.equal(1);
    expect([...receiver.contentTypes]).to.deep.equal(['application/x-protobuf']);
    expect(leaksOf(receiver.rawBodies, [key.key, key.key.slice(-12)]), 'the key, exported').to.deep.equal([]);
  });

  it('the management API: its request, use case and statements in one trace, without the actor, the key or the token', async () => {
    receiver = await startOtlpReceiver();
    const admin = adminOn(database());
    const companyId = await admin.company();
    const { companies } = database().adapters();
    const issueToken = new IssuePlatformToken(new PgPlatformTokenRepository(database().databases.registry), companies, new NodeCryptoSecrets(), new UuidV7IdGenerator(), new SystemClock());
    const token = (await issueToken.execute({ name: 'tracing test platform' })).token;
    const managementPort = await stablePort();
    service = await serviceTracingTo(database().businessUrl, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', MANAGEMENT_PORT: String(managementPort) });
    const actor = `zarina.${randomHex(3)}@example.kz`;
    const keyName = `Зарина ${randomHex(3)}`;
    const issued = await fetch(`http://127.0.0.1:${managementPort}/internal/v1/companies/${companyId}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-actor': actor, 'content-type': 'application/json' },
      body: JSON.stringify({ name: keyName, scopes: ['vacancies:read'] }),
    });
    expect(issued.status, await issued.clone().text()).to.equal(201);
    const { key } = (await issued.json()) as { key: string };
    const route = '/internal/v1/companies/:companyId/keys';
    await receiver.until((spans) => {
      const server = serverSpanOf(spans, route);
      return server !== undefined && spans.some((span) => span.name.startsWith('pg.query') && descendsFrom(spans, span, server));
    });
    const server = serverSpanOf(receiver.spans, route) as ReceivedSpan;
    expect(server.name).to.equal(`POST ${route}`);
    expect(server.attributes).to.include({ 'app.company.id': companyId, 'app.region': 'uz' });
    const spans = traceOf(receiver.spans, server.traceId);
    const useCase = spans.find((span) => span.name === 'use case issueKey');
    expect(useCase && descendsFrom(spans, useCase, server), 'the use case under the HTTP span').to.equal(true);
    expect(spans.some((span) => span.name.startsWith('pg.query') && useCase !== undefined && descendsFrom(spans, span, useCase)), 'its statements under it').to.equal(true);
    expect(leaksOf(receiver.rawBodies, [actor, keyName, key, token]), 'the actor, the key\'s name, the key or the token, exported').to.deep.equal([]);
  });

  it('a collector that fails every export, or none at all, never fails a request nor the stop', async () => {
    receiver = await startOtlpReceiver({ failWith: 503 });
    const admin = adminOn(database());
    const companyId = await admin.company();
    const key = await admin.issueKey(companyId, { scopes: ['applications:write', 'vacancies:read'] });
    const vacancyId = await admin.vacancy(companyId);
    for (const endpoint of [receiver.endpoint, 'http://127.0.0.1:9']) {
      service = await serviceTracingTo(database().businessUrl, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: '2000' });
      for (let i = 0; i < 5; i++) {
        const posted = await fetch(`${service.apiUrl}/applications`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key.key }, body: JSON.stringify(aFullApplicationBody(vacancyId)) });
        expect(posted.status, endpoint).to.equal(201);
        expect((await fetch(`${service.apiUrl}/vacancies`, { headers: { 'x-api-key': key.key } })).status, endpoint).to.equal(200);
      }
      // Spans exported meanwhile (100 ms batches) were refused; the stop still ends at once, with 0.
      await new Promise((wait) => setTimeout(wait, 500));
      process.kill(service.npm.pid as number, 'SIGTERM');
      expect(await service.exited, service.output()).to.deep.equal({ code: 0, signal: null });
      service = undefined;
    }
  });

  it('refuses to start with a protocol it cannot export (grpc), naming the variable', async () => {
    const run = await npmStartToExit([], { STORE: 'memory', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    expect(run.code).to.equal(1);
    expect(run.stderr).to.include('OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported');
  });
});
