import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Vacancy } from '../../clients/typescript/src/index.js';
import { startPortal, type RunningPortal } from '../../examples/career-portal/src/start-portal.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

const VACANCY: Vacancy = {
  id: 'vac-1', title: 'Бэкенд-разработчик', status: 'open', city: 'Алматы', officeAddress: null, experience: null,
  workFormat: 'remote', workFormats: ['Удалённо'], salaryFrom: 500_000, salaryTo: 900_000, salaryCurrency: 'KZT', salaryGross: false,
  employmentForm: null, workSchedule: [], skills: [], languages: [], professionalRoles: [], description: '<p>API</p>', responsibilities: 'API',
  positionsCount: 1, sourceUrl: null, publishedAt: null, createdAt: '2026-11-01T10:00:00.000Z', updatedAt: '2026-11-01T10:00:00.000Z',
};

function problem(response: ServerResponse, status: number, code: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/problem+json', 'X-Request-Id': 'stub-1', ...headers });
  response.end(JSON.stringify({ type: `urn:problem-type:integration-api:${code}`, title: code, status, code, detail: `stub ${code}`, requestId: 'stub-1' }));
}

/**
 * The portal's answers to the API's failures, against a stub of the API that fails on demand: the visitor
 * gets a page in Russian with the form as typed, never the API's JSON, its codes or a stack trace.
 */
describe('the career portal when the API fails', () => {
  let api: Server;
  let portal: RunningPortal;
  let onApplication: Handler;
  let onList: Handler;
  const logged: string[] = [];

  before(async () => {
    api = createServer((request, response) => {
      if (request.method === 'GET' && request.url?.startsWith('/api/integration/v1/vacancies')) return onList(request, response);
      if (request.method === 'POST' && request.url === '/api/integration/v1/applications') return void request.resume().on('end', () => onApplication(request, response));
      problem(response, 404, 'not_found');
    });
    await new Promise<void>((ready) => api.listen(0, '127.0.0.1', ready));
    const origin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    portal = await startPortal({ apiBaseUrl: `${origin}/api`, apiKey: 'ik_stub', port: 0, cacheTtlMs: 0, log: (event, details) => void logged.push(JSON.stringify({ event, ...details })) });
  });

  beforeEach(() => {
    logged.length = 0;
    onList = (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ items: [VACANCY], nextCursor: null }));
    };
  });

  after(async () => {
    await portal.close();
    await new Promise<void>((closed) => api.close(() => closed()));
  });

  const apply = (fields: Record<string, string>) =>
    // Origin as a browser sends it from the portal's own form (a post without one is refused as cross-site).
    fetch(`${portal.url}/vacancies/vac-1/apply`, { method: 'POST', headers: { Origin: portal.url }, body: new URLSearchParams({ externalId: 'portal-0f8fad5b-d9cb-469f-a165-70867728950e', ...fields }) });

  for (const [status, code] of [[429, 'rate_limited'], [503, 'service_unavailable']] as const) {
    it(`asks to try again in a minute on a ${status}, with the form as typed and the same externalId`, async () => {
      onApplication = (_request, response) => problem(response, status, code, { 'Retry-After': '120' });
      const response = await apply({ name: 'Айгерим <Нурланова>', coverLetter: 'Здравствуйте!\r\nХочу к вам.' });
      const page = await response.text();
      expect(response.status).to.equal(503);
      expect(page).to.include('нажмите «Отправить отклик» ещё раз через минуту');
      expect(page).to.include('value="Айгерим &lt;Нурланова&gt;"');
      expect(page).to.include('>Здравствуйте!\nХочу к вам.</textarea>');
      expect(page).to.include('value="portal-0f8fad5b-d9cb-469f-a165-70867728950e"');
      expect(page).not.to.include(code);
      expect(page).not.to.include('stub-1');
      expect(logged.map((line) => JSON.parse(line) as Record<string, unknown>)).to.deep.include({ event: 'portal.api-error', operation: 'submit', status, code, requestId: 'stub-1', attempts: 1 });
      expect(logged.join('\n')).not.to.include('ik_stub');
    });
  }

  it('keeps the form as typed when the API is down altogether, vacancy list included', async () => {
    onList = (_request, response) => problem(response, 503, 'service_unavailable', { 'Retry-After': '120' });
    onApplication = (_request, response) => problem(response, 503, 'service_unavailable', { 'Retry-After': '120' });
    const response = await apply({ name: 'Айгерим', email: 'aigerim@example.kz' });
    const page = await response.text();
    expect(response.status).to.equal(503);
    expect(page).to.include('ещё раз через минуту').and.to.include('value="aigerim@example.kz"');
    expect(page).not.to.include('Вакансия закрыта');
  });

  it('sends nothing while the list cannot be read (it cannot tell the vacancy is open), keeping the form as typed', async () => {
    let sent = 0;
    onList = (_request, response) => problem(response, 503, 'service_unavailable', { 'Retry-After': '120' });
    onApplication = (_request, response) => {
      sent += 1;
      response.writeHead(201, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ id: 'card-1', status: 'created' }));
    };
    const response = await apply({ name: 'Айгерим', email: 'aigerim@example.kz' });
    expect(response.status).to.equal(503);
    expect(await response.text()).to.include('ещё раз через минуту').and.to.include('value="aigerim@example.kz"');
    expect(sent).to.equal(0);
  });

  it('offers to send a form changed after it was sent as a new application, with a new externalId', async () => {
    onApplication = (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true', 'Idempotency-Conflict': 'body-differs' });
      response.end(JSON.stringify({ id: 'card-1', status: 'duplicate' }));
    };
    const response = await apply({ name: 'Айгерим', phone: '+7 701 555 12 34' });
    const page = await response.text();
    expect(response.status).to.equal(409);
    expect(page).to.include('мы сохранили первую версию');
    expect(page).to.include('value="+7 701 555 12 34"');
    expect(page).to.match(/name="externalId" value="portal-[0-9a-f-]{36}"/);
    expect(page).not.to.include('portal-0f8fad5b-d9cb-469f-a165-70867728950e');
  });

  it('says the vacancy is closed when the API answers 404', async () => {
    onApplication = (_request, response) => problem(response, 404, 'not_found');
    const response = await apply({ name: 'Айгерим' });
    expect(response.status).to.equal(404);
    expect(await response.text()).to.include('Эта вакансия уже закрыта или снята с публикации');
  });

  it('answers a friendly page, not a stack trace, when the API sends something that is not JSON', async () => {
    onList = (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html' });
      response.end('<html>proxy error</html>');
    };
    const response = await fetch(portal.url);
    const page = await response.text();
    expect(response.status).to.equal(500);
    expect(page).to.include('Что-то пошло не так');
    expect(page).not.to.match(/proxy error|at .*\.ts:\d+|Error:/);
    expect(logged.join('\n')).to.include('is not JSON');
  });

  it('says the list is unavailable for now when the API cannot be read', async () => {
    onList = (_request, response) => problem(response, 503, 'service_unavailable', { 'Retry-After': '120' });
    const response = await fetch(portal.url);
    expect(response.status).to.equal(503);
    expect(await response.text()).to.include('Нам не удалось загрузить список вакансий');
  });

  it('escapes the vacancy and serves a policy that allows no script', async () => {
    onList = (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ items: [{ ...VACANCY, title: '<script>alert(1)</script>', city: '"><img src=x>' }], nextCursor: null }));
    };
    const response = await fetch(portal.url);
    const page = await response.text();
    expect(page).to.include('&lt;script&gt;alert(1)&lt;/script&gt;').and.to.include('&quot;&gt;&lt;img src=x&gt;');
    expect(page).not.to.include('<script>');
    expect(response.headers.get('content-security-policy')).to.match(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'/);
  });
});
