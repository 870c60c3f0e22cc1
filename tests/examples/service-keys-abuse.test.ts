import { expect } from 'chai';
import { request } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { CallerContext } from '../../examples/service-keys/src/management-client.js';
import { startServiceKeys, type RunningServiceKeys, type ServiceKeysConfig } from '../../examples/service-keys/src/start-service-keys.js';
import { formToken, startKeyService, type KeyService } from './service-keys-api.js';

const text = (page: string) => page.replace(/<style>[\s\S]*?<\/style>|<script>[\s\S]*?<\/script>/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

/**
 * What the page refuses and how it fails, against the real management API: posts from other sites and
 * forms without a good token do nothing; the identity the platform's proxy sends is the only one used;
 * the API's failures are sentences, never its JSON, a stack or the platform token.
 */
describe('the service keys page: refusals and failures', function () {
  this.timeout(30_000);
  let service: KeyService;
  let caller: CallerContext;
  const pages: RunningServiceKeys[] = [];
  const logged: Record<string, unknown>[] = [];

  const startPage = async (overrides: Partial<ServiceKeysConfig> = {}) => {
    const page = await startServiceKeys({
      managementUrl: service.managementUrl,
      platformToken: service.platformToken,
      identity: { kind: 'config', caller },
      port: 0,
      log: (event, details) => void logged.push({ event, ...details }),
      ...overrides,
    });
    pages.push(page);
    return page;
  };
  const call = async (page: RunningServiceKeys, path: string, init: RequestInit = {}) => {
    const response = await fetch(`${page.url}${path}`, { redirect: 'manual', ...init });
    return { status: response.status, body: await response.text() };
  };
  const keyCount = async (who: CallerContext = caller) => (await service.client.listKeys(who)).length;

  before(async () => {
    service = await startKeyService();
    caller = { companyId: await service.createCompany('ООО «Самарканд Софт»'), actor: 'user:1042' };
  });

  beforeEach(() => {
    logged.length = 0;
  });

  after(async () => {
    await Promise.all(pages.map((page) => page.close()));
    await service?.close();
  });

  describe('posts from elsewhere', () => {
    const forged: [string, Record<string, string>, string][] = [
      ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site', Origin: 'http://evil.example' }, 'sec-fetch-site: cross-site'],
      ['Sec-Fetch-Site: same-site', { 'Sec-Fetch-Site': 'same-site' }, 'sec-fetch-site: same-site'],
      ['an Origin of another site', { Origin: 'http://evil.example' }, 'origin: http://evil.example'],
      ['no Sec-Fetch-Site, Origin or Referer', {}, 'no sec-fetch-site, origin or referer'],
    ];
    for (const [what, headers, reason] of forged) {
      it(`refuses an issue post with ${what}, even with a good token, and issues nothing`, async () => {
        const page = await startPage();
        const token = formToken((await call(page, '/')).body);
        const before = await keyCount();
        const body = new URLSearchParams([['token', token], ['name', 'forged'], ['scopes', 'candidates:read']]);
        const answer = await call(page, '/keys', { method: 'POST', headers, body });
        expect(answer.status).to.equal(403);
        expect(text(answer.body)).to.include('Эта форма отправлена с другого сайта, поэтому ничего не сделано.');
        expect(await keyCount()).to.equal(before);
        expect(logged).to.deep.include({ event: 'service-keys.cross-site-refused', reason });
      });
    }

    it('refuses a revoke posted from another site; the key keeps working', async () => {
      const page = await startPage();
      const key = await service.client.issueKey(caller, { name: 'Живой ключ', scopes: ['vacancies:read'], expiresAt: null });
      const token = formToken((await call(page, `/keys/${key.id}/revoke`)).body);
      const answer = await call(page, `/keys/${key.id}/revoke`, { method: 'POST', headers: { 'Sec-Fetch-Site': 'cross-site' }, body: new URLSearchParams({ token }) });
      expect(answer.status).to.equal(403);
      expect((await service.client.listKeys(caller)).find((listed) => listed.id === key.id)?.status).to.equal('active');
    });
  });

  describe('form tokens', () => {
    it('refuses a post without a token, with a forged one, or with one made for another action', async () => {
      const page = await startPage();
      const key = await service.client.issueKey(caller, { name: 'Ключ', scopes: ['vacancies:read'], expiresAt: null });
      const issueToken = formToken((await call(page, '/')).body);
      const before = await keyCount();
      const post = (path: string, fields: Record<string, string>) => call(page, path, { method: 'POST', headers: { Origin: page.url }, body: new URLSearchParams({ ...fields, name: 'x', scopes: 'vacancies:read' }) });
      for (const answer of [
        await post('/keys', {}),
        await post('/keys', { token: `${Date.now()}.bm9uY2U.Zm9yZ2Vk` }),
        await post(`/keys/${key.id}/revoke`, { token: issueToken }),
        await post(`/keys/${key.id}/roll`, { token: issueToken }),
      ]) {
        expect(answer.status).to.equal(403);
        expect(text(answer.body)).to.include('Форма устарела');
      }
      expect(await keyCount()).to.equal(before);
      expect((await service.client.listKeys(caller)).find((listed) => listed.id === key.id)?.rolledTo).to.equal(null);
      // The issue token was not spent by the refused posts.
      expect((await post('/keys', { token: issueToken })).status).to.equal(201);
    });
  });

  describe('identity from the platform\'s proxy (SERVICE_KEYS_IDENTITY=headers)', () => {
    it('answers 401 without the headers, and acts as the user they name, percent-encoded as UTF-8', async () => {
      const page = await startPage({ identity: { kind: 'headers' } });
      const anonymous = await call(page, '/');
      expect(anonymous.status).to.equal(401);
      expect(text(anonymous.body)).to.include('Платформа не сообщила, кто вы');
      expect(logged).to.deep.include({ event: 'service-keys.no-identity', path: '/' });

      const asel = { 'X-Platform-Company': caller.companyId, 'X-Platform-User': encodeURIComponent('Асель Жумабаева') };
      // A browser's own header beside the proxy's is no identity either.
      const twice = await new Promise<number>((answered, failed) => {
        const headers = { 'X-Platform-Company': caller.companyId, 'X-Platform-User': ['user:proxy', 'user:browser'] };
        request(`${page.url}/`, { headers }, (response) => void response.resume().on('end', () => answered(response.statusCode ?? 0))).on('error', failed).end();
      });
      expect(twice).to.equal(401);
      // A name the management API would refuse (a bidi override that shows it reversed in the trail) is no identity.
      const reversed = await call(page, '/', { headers: { ...asel, 'X-Platform-User': encodeURIComponent('\u202eлесА') } });
      expect(reversed.status).to.equal(401);
      const token = formToken((await call(page, '/', { headers: asel })).body);
      const body = () => new URLSearchParams([['token', token], ['name', 'Из платформы'], ['scopes', 'vacancies:read']]);
      // The same form posted in another user's name (a stolen token) is refused.
      const other = await call(page, '/keys', { method: 'POST', headers: { ...asel, 'X-Platform-User': 'user:mallory', Origin: page.url }, body: body() });
      expect(other.status).to.equal(403);
      const issued = await call(page, '/keys', { method: 'POST', headers: { ...asel, Origin: page.url }, body: body() });
      expect(issued.status).to.equal(201);
      const made = (await service.client.listKeys(caller)).find((key) => key.name === 'Из платформы');
      expect(made?.createdBy).to.equal('Асель Жумабаева');
    });
  });

  describe('failures of the management API', () => {
    it('says the page may not manage keys when its platform token is wrong, without the token or a stack', async () => {
      const wrong = `pt_${'A'.repeat(12)}_${'b'.repeat(40)}`;
      const page = await startPage({ platformToken: wrong });
      const answer = await call(page, '/?lang=en');
      expect(answer.status).to.equal(502);
      expect(text(answer.body)).to.include('its platform token is wrong or revoked');
      expect(answer.body).not.to.include(wrong).and.not.include('unauthorized').and.not.match(/at .*\.ts:\d+/);
      expect(logged.find((line) => line.event === 'service-keys.api-error')).to.include({ status: 401, code: 'unauthorized' });
      expect(JSON.stringify(logged)).not.to.include(wrong);
    });

    it('says the key service cannot be reached when nothing listens', async () => {
      const closed = createServer();
      await new Promise<void>((ready) => closed.listen(0, '127.0.0.1', ready));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((done) => closed.close(() => done()));
      const page = await startPage({ managementUrl: `http://127.0.0.1:${port}` });
      const answer = await call(page, '/');
      expect(answer.status).to.equal(503);
      expect(text(answer.body)).to.include('Сервис ключей сейчас недоступен');
    });

    it("shows the API's refusal of a roll of a key revoked meanwhile on the confirmation, and rolls nothing", async () => {
      const page = await startPage();
      const key = await service.client.issueKey(caller, { name: 'Отзываемый', scopes: ['vacancies:read'], expiresAt: null });
      const token = formToken((await call(page, `/keys/${key.id}/roll`)).body);
      await service.client.revokeKey(caller, key.id);
      const answer = await call(page, `/keys/${key.id}/roll?lang=en`, { method: 'POST', headers: { Origin: page.url }, body: new URLSearchParams({ token, overlap: '24h' }) });
      expect(answer.status).to.equal(409);
      const shown = text(answer.body);
      expect(shown).to.include('The key service refused the request:').and.include(`Service key ${key.id} is revoked or expired`);
      // The key as it is now, and no form to send again.
      expect(shown).to.include('Revoked just now by user:1042');
      expect(answer.body).not.to.include('key_not_active').and.not.include('name="secret"').and.not.include('name="token"');
      expect((await service.client.listKeys(caller)).filter((listed) => listed.rolledFrom === key.id)).to.deep.equal([]);
    });
  });

  it('pages through the event trail, newest first, by the API cursor', async () => {
    const company = { companyId: await service.createCompany('Много ключей'), actor: 'user:7' };
    for (let index = 0; index < 30; index++) await service.client.issueKey(company, { name: `key ${String(index).padStart(2, '0')}`, scopes: ['vacancies:read'], expiresAt: null });
    const page = await startPage({ identity: { kind: 'config', caller: company } });
    const first = await call(page, '/events?lang=en');
    const names = (body: string) => [...body.matchAll(/<td>(key \d\d) <br>/g)].map((match) => match[1]);
    expect(names(first.body)).to.deep.equal(Array.from({ length: 25 }, (_, index) => `key ${String(29 - index).padStart(2, '0')}`));
    const older = /href="(\/events\?cursor=[^"]+)" rel="next"/.exec(first.body)?.[1]?.replace(/&amp;/g, '&');
    const second = await call(page, older!);
    expect(names(second.body)).to.deep.equal(['key 04', 'key 03', 'key 02', 'key 01', 'key 00']);
    expect(second.body).not.to.include('rel="next"');
    expect(second.body).to.include('Newest events');
  });
});
