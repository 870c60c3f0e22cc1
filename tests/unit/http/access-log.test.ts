import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino, type Level } from 'pino';
import { accessLogMiddleware } from '../../../adapters/http/access-log.middleware.js';

/** A logger at `level` whose lines are collected, and a route resolver that counts its calls. */
function harness(level: Level) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level }, sink);
  let resolved = 0;
  const middleware = accessLogMiddleware(logger, () => {
    resolved++;
    return '/api/integration/v1/vacancies';
  });
  const answer = async (status: number) => {
    const ctx = { state: { requestId: 'r-1' }, method: 'GET', path: '/api/integration/v1/vacancies', status } as never;
    await middleware(ctx, async () => {});
    // pino writes through the stream asynchronously.
    await new Promise((done) => setImmediate(done));
  };
  return { lines, answer, resolvedCount: () => resolved };
}

describe('access log', () => {
  it('writes a line for every answer at LOG_LEVEL=info, with the route template', async () => {
    const h = harness('info');
    await h.answer(200);
    await h.answer(404);
    expect(h.lines.map((line) => [line.status, line.route])).to.deep.equal([
      [200, '/api/integration/v1/vacancies'],
      [404, '/api/integration/v1/vacancies'],
    ]);
  });

  it('builds no line it would not write: above info only 5xx answers are logged, and only they resolve the route', async () => {
    const h = harness('warn');
    await h.answer(200);
    await h.answer(429);
    expect(h.lines).to.deep.equal([]);
    expect(h.resolvedCount()).to.equal(0);
    await h.answer(503);
    expect(h.lines.map((line) => [line.status, line.route, line.requestId])).to.deep.equal([[503, '/api/integration/v1/vacancies', 'r-1']]);
    expect(h.resolvedCount()).to.equal(1);
  });
});
