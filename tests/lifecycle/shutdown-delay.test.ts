import { expect } from 'chai';
import { get } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServerProcess, type ServerProcess } from '../scale/support/server-process.js';
import { connectionRefused } from '../support/connection-refused.js';

/** A GET on a connection of its own (no keep-alive pool), as a balancer's probe or a new client makes it. */
function freshGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((answered, failed) => {
    const request = get(url, { agent: false, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => answered({ status: response.statusCode ?? 0, body }));
    });
    request.once('error', failed);
  });
}

describe('SHUTDOWN_DELAY_MS: the service process after SIGTERM', function () {
  this.timeout(90_000);
  let service: ServerProcess | undefined;

  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });

  it('answers /readyz with 503 at once, serves new connections on for the delay, then drains and exits 0', async () => {
    // Long enough that the checks below, made right after the first 503, fall well inside it on a busy machine.
    service = await startServerProcess({ STORE: 'memory', SHUTDOWN_DELAY_MS: '8000' });
    const key = service.logs().find((line) => typeof line.developmentKey === 'string')?.developmentKey as string;
    expect((await freshGet(`${service.origin}/readyz`)).status).to.equal(200);

    service.child.kill('SIGTERM');
    let ready = await freshGet(`${service.origin}/readyz`);
    for (let tries = 0; ready.status === 200 && tries < 100; tries++) {
      await sleep(20);
      ready = await freshGet(`${service.origin}/readyz`);
    }
    expect(ready.status).to.equal(503);
    expect(JSON.parse(ready.body)).to.include({ code: 'not_ready' });
    // Still listening, still serving: a request on a new connection is answered in full.
    const vacancies = await freshGet(`${service.apiUrl}/vacancies?limit=1`, { 'X-API-Key': key });
    expect(vacancies.status, vacancies.body).to.equal(200);
    expect((await freshGet(`${service.origin}/healthz`)).status).to.equal(200);

    const { code } = await service.exited;
    expect(code, service.output()).to.equal(0);
    expect(await connectionRefused(service.port)).to.equal(true);
    const messages = service.logs().map((line) => String(line.msg));
    const waiting = service.logs().find((line) => String(line.msg).startsWith('stopping: /readyz answers 503'));
    expect(waiting, service.output()).to.include({ signal: 'SIGTERM', shutdownDelayMs: 8000 });
    expect(messages.indexOf(String(waiting?.msg))).to.be.below(messages.indexOf('draining requests in flight, then stopping'));
    expect(messages.at(-1)).to.equal('stopped');
  });
});
