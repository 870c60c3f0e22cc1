import { context, diag, DiagLogLevel, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { expect } from 'chai';
import Koa from 'koa';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { serverSpanMiddleware } from '../../../adapters/http/server-span.middleware.js';

const ROUTES = ['/slow-body', '/hang'];
const msOf = ([seconds, nanos]: [number, number]) => seconds * 1_000 + nanos / 1e6;

describe('the request\'s server span (our own middleware)', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const warnings: string[] = [];
  let server: Server;
  let origin: string;
  let lastChunkAt = 0;
  let releaseHang: () => void = () => undefined;
  let hangEntered: Promise<void>;
  let enterHang: () => void = () => undefined;

  before(async () => {
    provider.register();
    // The SDK warns (diag) when an ended span is changed: a test fails on any warning.
    const record = (message: string) => warnings.push(message);
    diag.setLogger({ error: record, warn: record, info: () => undefined, debug: () => undefined, verbose: () => undefined }, DiagLogLevel.WARN);
    const app = new Koa<{ company?: string }>();
    app.use(serverSpanMiddleware<{ company?: string }>({ tracer: provider.getTracer('test'), region: 'kz' }, (path) => (ROUTES.includes(path) ? path : null), (ctx) => ctx.state.company));
    app.use(async (ctx) => {
      ctx.state.company = 'company-1';
      if (ctx.path === '/slow-body') {
        const body = new Readable({ read() {} });
        body.push('first ');
        setTimeout(() => {
          lastChunkAt = Date.now();
          body.push('last');
          body.push(null);
        }, 150);
        ctx.body = body;
      } else if (ctx.path === '/hang') {
        enterHang();
        await new Promise<void>((release) => (releaseHang = release));
        ctx.body = 'too late';
      } else {
        ctx.body = 'ok';
      }
    });
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server.close();
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
    diag.disable();
  });

  beforeEach(() => {
    exporter.reset();
    warnings.length = 0;
    hangEntered = new Promise<void>((entered) => (enterHang = entered));
  });

  const spansUntil = async (count: number): Promise<ReadableSpan[]> => {
    for (let i = 0; i < 100 && exporter.getFinishedSpans().length < count; i++) await new Promise((tick) => setTimeout(tick, 10));
    return exporter.getFinishedSpans();
  };

  it('ends when the body has been written, after the middleware returned, named by the route', async () => {
    const response = await fetch(`${origin}/slow-body?limit=5&cursor=abc`);
    expect(await response.text()).to.equal('first last');
    const [span] = await spansUntil(1);
    expect(span?.name).to.equal('GET /slow-body');
    expect(msOf(span!.endTime), 'ended after the last chunk was written').to.be.at.least(lastChunkAt - 1);
    expect(span?.attributes).to.include({ 'http.route': '/slow-body', 'http.response.status_code': 200, 'app.company.id': 'company-1', 'app.region': 'kz', 'url.query': 'limit=REDACTED&cursor=REDACTED' });
    expect(JSON.stringify(span?.attributes), 'no value of the query, no path, no user agent').to.not.match(/abc|url\.path|user_agent|node/);
    expect(warnings).to.deep.equal([]);
  });

  it('a caller that hangs up before the answer: the span ends once, named, marked aborted, and is never changed after', async () => {
    const aborting = new AbortController();
    const request = fetch(`${origin}/hang`, { signal: aborting.signal }).catch(() => 'aborted');
    await hangEntered;
    aborting.abort();
    expect(await request).to.equal('aborted');
    const [span] = await spansUntil(1);
    releaseHang();
    await new Promise((tick) => setTimeout(tick, 50));
    expect(span?.name).to.equal('GET /hang');
    expect(span?.attributes).to.include({ 'http.route': '/hang', 'app.company.id': 'company-1', 'error.type': 'aborted' });
    expect(exporter.getFinishedSpans()).to.have.length(1);
    expect(warnings, 'the SDK\'s warnings (an ended span changed)').to.deep.equal([]);
  });

  it('makes no span for the probes and /metrics', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics']) expect((await fetch(`${origin}${path}`)).status).to.equal(200);
    const traced = await fetch(`${origin}/other`);
    expect(traced.status).to.equal(200);
    expect((await spansUntil(1)).map((span) => span.name)).to.deep.equal(['GET']);
  });
});
