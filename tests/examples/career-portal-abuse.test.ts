import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Vacancy } from '../../clients/typescript/src/index.js';
import { startPortal, type PortalConfig, type RunningPortal } from '../../examples/career-portal/src/start-portal.js';
import { clientKey } from '../../examples/career-portal/src/submit-limiter.js';

const VACANCY: Vacancy = {
  id: 'vac-1', title: 'Бэкенд-разработчик', status: 'open', city: 'Алматы', officeAddress: null, experience: null,
  workFormat: 'remote', workFormats: [], salaryFrom: null, salaryTo: null, salaryCurrency: null, salaryGross: null,
  employmentForm: null, workSchedule: [], skills: [], languages: [], professionalRoles: [], description: null, responsibilities: 'API',
  positionsCount: 1, sourceUrl: null, publishedAt: null, createdAt: '2026-11-01T10:00:00.000Z', updatedAt: '2026-11-01T10:00:00.000Z',
};

/**
 * What the portal lets through to the API's POST /applications: forms posted from its own pages only, and at
 * most so many per client address. A stub of the API counts the applications that reach it.
 */
describe('the career portal against forged and repeated posts', () => {
  let api: Server;
  let apiBaseUrl: string;
  let received = 0;
  const portals: RunningPortal[] = [];
  const logged: Record<string, unknown>[] = [];

  before(async () => {
    api = createServer((request, response) => {
      if (request.method === 'POST' && request.url === '/api/integration/v1/applications') {
        received += 1;
        return void request.resume().on('end', () => {
          response.writeHead(201, { 'Content-Type': 'application/json' });
          response.end(JSON.stringify({ id: `card-${received}`, status: 'created' }));
        });
      }
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ items: [VACANCY], nextCursor: null }));
    });
    await new Promise<void>((ready) => api.listen(0, '127.0.0.1', ready));
    apiBaseUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/api`;
  });

  beforeEach(() => {
    received = 0;
    logged.length = 0;
  });

  after(async () => {
    await Promise.all(portals.map((portal) => portal.close()));
    await new Promise<void>((closed) => api.close(() => closed()));
  });

  const aPortal = async (config: Partial<PortalConfig> = {}) => {
    const portal = await startPortal({ apiBaseUrl, apiKey: 'ik_stub', port: 0, log: (event, details) => void logged.push({ event, ...details }), ...config });
    portals.push(portal);
    return portal;
  };

  const apply = (portal: RunningPortal, headers: Record<string, string>, name = 'Айгерим') =>
    fetch(`${portal.url}/vacancies/vac-1/apply`, {
      method: 'POST',
      headers,
      body: new URLSearchParams({ externalId: 'portal-0f8fad5b-d9cb-469f-a165-70867728950e', name, coverLetter: 'Здравствуйте!' }),
    });

  const expectRefused = async (response: Response) => {
    const page = await response.text();
    expect(response.status).to.equal(403);
    expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(page).to.include('<h1>Отклик не принят</h1>').and.to.include('<a href="/vacancies/vac-1">Открыть вакансию</a>');
    expect(page).not.to.include('Айгерим');
  };

  describe('a post from another site', () => {
    it('is judged by Sec-Fetch-Site when the browser sends it: same-origin and none pass, same-site and cross-site are refused', async () => {
      const portal = await aPortal();
      for (const site of ['cross-site', 'same-site']) {
        // Origin agreeing with the portal does not outvote what the browser computed.
        await expectRefused(await apply(portal, { 'Sec-Fetch-Site': site, Origin: portal.url }));
      }
      expect(received).to.equal(0);
      expect(logged).to.deep.include({ event: 'portal.cross-site-refused', reason: 'sec-fetch-site: cross-site' });
      for (const site of ['same-origin', 'none']) expect((await apply(portal, { 'Sec-Fetch-Site': site })).status).to.equal(201);
      expect(received).to.equal(2);
    });

    it('is judged by Origin without Sec-Fetch-Site: another origin, another port of the same host and "null" are refused', async () => {
      const portal = await aPortal();
      const otherPort = portal.url.replace(/:(\d+)$/, (_match, port: string) => `:${Number(port) === 65_535 ? 1 : Number(port) + 1}`);
      for (const origin of ['https://evil.example', otherPort, 'null', `https://${new URL(portal.url).host}`]) {
        await expectRefused(await apply(portal, { Origin: origin, Referer: `${portal.url}/vacancies/vac-1` }));
      }
      expect(received).to.equal(0);
      expect((await apply(portal, { Origin: portal.url })).status).to.equal(201);
      expect(received).to.equal(1);
    });

    it('is judged by Referer when there is no Origin either, and refused when there is none of the three', async () => {
      const portal = await aPortal();
      await expectRefused(await apply(portal, { Referer: 'https://evil.example/jobs.html' }));
      await expectRefused(await apply(portal, {}));
      expect(received).to.equal(0);
      expect(logged.map((entry) => entry.reason)).to.deep.equal(['referer from: https://evil.example', 'no sec-fetch-site, origin or referer']);
      expect((await apply(portal, { Referer: `${portal.url}/vacancies/vac-1` })).status).to.equal(201);
      expect(received).to.equal(1);
    });

    it('takes the portal origin from PORTAL_PUBLIC_URL when set: the listening address is then another origin', async () => {
      const portal = await aPortal({ publicUrl: 'https://Jobs.Example.kz/careers/' });
      await expectRefused(await apply(portal, { Origin: portal.url }));
      expect(received).to.equal(0);
      expect((await apply(portal, { Origin: 'https://jobs.example.kz' })).status).to.equal(201);
      expect(received).to.equal(1);
    });

    it('refuses to start with a PORTAL_PUBLIC_URL that is no http(s) address', async () => {
      for (const publicUrl of ['jobs.example.kz', 'ftp://jobs.example.kz', 'data:text/html,x']) {
        let failure: unknown;
        await aPortal({ publicUrl }).catch((error: unknown) => (failure = error));
        expect(String(failure)).to.include(`"${publicUrl}" is not an http:// or https:// URL`);
      }
    });
  });

  describe('the limit of applications per client address', () => {
    const own = (portal: RunningPortal, extra: Record<string, string> = {}) => ({ 'Sec-Fetch-Site': 'same-origin', Origin: portal.url, ...extra });

    it('answers 429 with Retry-After and the form as typed once the address has used its budget, without calling the API', async () => {
      const portal = await aPortal({ submitBudget: { points: 2, windowS: 120 } });
      expect((await apply(portal, own(portal))).status).to.equal(201);
      expect((await apply(portal, own(portal))).status).to.equal(201);
      const limited = await apply(portal, own(portal), 'Айгерим <Нурланова>');
      const page = await limited.text();
      expect(limited.status).to.equal(429);
      expect(Number(limited.headers.get('retry-after'))).to.be.within(119, 120);
      expect(page).to.include('слишком много откликов').and.to.include('ещё раз через 2 мин.');
      expect(page).to.include('value="Айгерим &lt;Нурланова&gt;"').and.to.include('>Здравствуйте!</textarea>');
      expect(page).to.include('value="portal-0f8fad5b-d9cb-469f-a165-70867728950e"');
      expect(received).to.equal(2);
      expect(logged).to.deep.include({ event: 'portal.submit-limited', retryAfterS: Number(limited.headers.get('retry-after')) });
    });

    it('does not count refused cross-site posts against the visitor whose browser sent them', async () => {
      const portal = await aPortal({ submitBudget: { points: 1, windowS: 120 } });
      for (let i = 0; i < 3; i += 1) await expectRefused(await apply(portal, { 'Sec-Fetch-Site': 'cross-site' }));
      expect((await apply(portal, own(portal))).status).to.equal(201);
      expect((await apply(portal, own(portal))).status).to.equal(429);
      expect(received).to.equal(1);
    });

    it('ignores X-Forwarded-For by default, so a forged one buys no fresh budget', async () => {
      const portal = await aPortal({ submitBudget: { points: 1, windowS: 120 } });
      expect((await apply(portal, own(portal, { 'X-Forwarded-For': '198.51.100.1' }))).status).to.equal(201);
      expect((await apply(portal, own(portal, { 'X-Forwarded-For': '198.51.100.2' }))).status).to.equal(429);
      expect(received).to.equal(1);
    });

    it('behind PORTAL_TRUST_PROXY proxies counts the address they saw, whatever the client put further left', async () => {
      const portal = await aPortal({ submitBudget: { points: 1, windowS: 120 }, trustProxy: 1 });
      expect((await apply(portal, own(portal, { 'X-Forwarded-For': '198.51.100.1' }))).status).to.equal(201);
      expect((await apply(portal, own(portal, { 'X-Forwarded-For': '203.0.113.9, 198.51.100.1' }))).status).to.equal(429);
      expect((await apply(portal, own(portal, { 'X-Forwarded-For': '198.51.100.2' }))).status).to.equal(201);
      expect(received).to.equal(2);
    });

    it('counts an IPv6 client by its /64 and an IPv4-mapped address as the IPv4 address', () => {
      expect(clientKey('2001:db8:aa:bb:1:2:3:4')).to.equal(clientKey('2001:0db8:00aa:00bb::ffff'));
      expect(clientKey('2001:db8:aa:bb::1%eth0')).to.equal('2001:db8:aa:bb::/64');
      expect(clientKey('2001:db8:aa:bc::1')).not.to.equal(clientKey('2001:db8:aa:bb::1'));
      expect(clientKey('::1')).to.equal('0:0:0:0::/64');
      expect(clientKey('::ffff:198.51.100.7')).to.equal('198.51.100.7');
      expect(clientKey('198.51.100.7')).to.equal('198.51.100.7');
    });
  });
});
