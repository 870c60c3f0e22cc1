import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { IntegrationClient, type Candidate } from '../../clients/typescript/src/index.js';
import { startPortal, type RunningPortal } from '../../examples/career-portal/src/start-portal.js';
import { aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';
import { launchChromium, plainText, requireBrowser, type HeadlessBrowser } from './chromium.js';

describe('the career portal in headless Chromium, against the real service', function () {
  this.timeout(60_000);
  let server: TestServer;
  let tenant: Tenant;
  let portal: RunningPortal;
  let browser: HeadlessBrowser;
  let api: IntegrationClient;
  let page: Page;
  let elsewhere: Server;
  const portalLog: Record<string, unknown>[] = [];
  const vacancies = { backend: '', analyst: '', closing: '' };

  before(async function () {
    requireBrowser();

    server = await startTestServer();
    tenant = await aTenant(server, { name: 'ТОО «Степной ветер»' });
    api = new IntegrationClient({ baseUrl: `${server.origin}/api`, apiKey: tenant.key });
    const backend = await tenant.addVacancy({
      title: 'Бэкенд-разработчик',
      city: 'Алматы',
      salaryFrom: 500_000,
      salaryTo: 900_000,
      salaryCurrency: 'KZT',
      salaryGross: false,
      workFormats: ['Удалённо'],
      // The employer's HTML: a script in it must not run on the portal.
      description: '<p>Разработка API для карьерных порталов</p><p>Код-ревью и наставничество</p><img src="x" onerror="window.__pwned = true">',
      publishedAt: new Date('2026-10-20T09:00:00.000Z'),
    });
    const analyst = await tenant.addVacancy({ title: 'Аналитик <BI> & отчёты', city: 'Астана', salaryFrom: null, salaryTo: null, salaryCurrency: null });
    const closing = await tenant.addVacancy({ title: 'Тестировщик', city: 'Шымкент' });
    await tenant.addVacancy({ title: 'Закрытая вакансия', status: 'closed' });
    Object.assign(vacancies, { backend: backend.id, analyst: analyst.id, closing: closing.id });
    // The card of an application lands in the first column of the vacancy's board (spec 3.2).
    await server.seed.setBoardColumns.execute({ companyId: tenant.companyId, vacancyId: backend.id, columns: ['Новые', 'Интервью', 'Оффер'] });

    // The portal holds a storefront key: no candidates:read (spec 5.3).
    const portalKey = await tenant.issueKey(['vacancies:read', 'applications:write']);
    portal = await startPortal({ apiBaseUrl: `${server.origin}/api`, apiKey: portalKey.key, port: 0, cacheTtlMs: 0, log: (event, details) => void portalLog.push({ event, ...details }) });
    browser = await launchChromium();

    // Another site: a page that posts an application to the portal as soon as it is opened, with a form
    // (/form) or with a fetch in no-cors mode (/fetch), the two ways a page can send a POST elsewhere.
    elsewhere = createServer((request, response) => {
      const target = `${portal.url}/vacancies/${encodeURIComponent(vacancies.backend)}/apply`;
      const fields = { externalId: 'portal-0f8fad5b-d9cb-469f-a165-70867728950e', name: 'Подделка Чужая', email: 'forged@example.kz' };
      const script =
        request.url === '/fetch'
          ? `fetch(${JSON.stringify(target)}, { method: 'POST', mode: 'no-cors', body: new URLSearchParams(${JSON.stringify(fields)}) });`
          : 'document.forms[0].submit();';
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><form method="post" action="${target}">${Object.entries(fields)
        .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
        .join('')}</form><script>${script}</script>`);
    });
    await new Promise<void>((ready) => elsewhere.listen(0, '127.0.0.1', ready));
  });

  after(async () => {
    await browser?.close();
    elsewhere?.closeAllConnections();
    await new Promise<void>((closed) => (elsewhere === undefined ? closed() : elsewhere.close(() => closed())));
    await portal?.close();
    await server?.close();
  });

  beforeEach(async () => {
    page = await browser.context.newPage();
  });

  afterEach(async () => {
    await page?.close();
  });

  const candidatesOf = async (vacancyId: string): Promise<Candidate[]> => (await api.listCandidates({ vacancyId })).items;

  it('lists the open vacancies, shows one, and sends an application that the API lists in the first column with its referral', async () => {
    await page.goto(portal.url);
    expect(await page.locator('h1').textContent()).to.equal('Открытые вакансии');
    const titles = await page.locator('.vacancy h2').allTextContents();
    expect(titles.map(plainText)).to.have.members(['Бэкенд-разработчик', 'Аналитик <BI> & отчёты', 'Тестировщик']);
    const card = page.locator('.vacancy', { hasText: 'Бэкенд-разработчик' });
    expect(plainText(await card.locator('.meta').textContent())).to.equal('Алматы · Удалённо');
    expect(plainText(await card.locator('.salary').textContent())).to.equal('от 500 000 до 900 000 ₸ на руки');

    await page.getByRole('link', { name: 'Бэкенд-разработчик' }).click();
    await page.waitForURL(`${portal.url}/vacancies/${vacancies.backend}`);
    expect(await page.locator('h1').textContent()).to.equal('Бэкенд-разработчик');
    expect(await page.locator('.description p').allTextContents()).to.deep.equal(['Разработка API для карьерных порталов', 'Код-ревью и наставничество']);
    expect(await page.evaluate(() => (globalThis as { __pwned?: boolean }).__pwned)).to.equal(undefined);

    await page.getByLabel('Имя и фамилия').fill('Айгерим Нурланова');
    await page.getByLabel('Электронная почта').fill('aigerim@example.kz');
    await page.getByLabel('Телефон', { exact: true }).fill('+7 701 555 12 34');
    await page.getByLabel('Сопроводительное письмо').fill('Здравствуйте!\nПять лет пишу сервисы на Node.js.');
    await page.getByLabel('Имя рекомендателя').fill('Данияр Ахметов');
    await page.getByLabel('Почта рекомендателя').fill('daniyar@example.kz');
    await page.getByLabel('Телефон рекомендателя').fill('+7 702 000 11 22');
    await page.getByLabel('Откуда вы знакомы').fill('бывший коллега');
    await page.getByRole('button', { name: 'Отправить отклик' }).click();

    await page.waitForSelector('.success');
    expect(await page.locator('h1').textContent()).to.equal('Спасибо, Айгерим Нурланова!');
    expect(plainText(await page.locator('.success').textContent())).to.include('Мы получили ваш отклик на вакансию «Бэкенд-разработчик»');
    // For a person to look at: the page as the candidate sees it (E2E_SCREENSHOT_DIR, or the temp folder).
    const screenshot = path.join(process.env.E2E_SCREENSHOT_DIR ?? tmpdir(), 'career-portal-success.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    console.log(`    screenshot: ${screenshot}`);

    const [candidate, ...others] = await candidatesOf(vacancies.backend);
    expect(others).to.deep.equal([]);
    expect(candidate!.stage).to.equal('Новые');
    expect(candidate!.source).to.equal('career-portal');
    expect(candidate!.externalId).to.match(/^portal-[0-9a-f-]{36}$/);
    expect(candidate!.candidate).to.include({ name: 'Айгерим Нурланова', email: 'aigerim@example.kz', phone: '+7 701 555 12 34' });
    expect(candidate!.coverLetter).to.equal('Здравствуйте!\nПять лет пишу сервисы на Node.js.');
    expect(candidate!.referral).to.deep.equal({ name: 'Данияр Ахметов', email: 'daniyar@example.kz', phone: '+7 702 000 11 22', company: null, relationship: 'бывший коллега' });
    expect(plainText(await page.locator('.success').textContent())).to.include(`Номер отклика: ${candidate!.id}`);
  });

  it('keeps what was typed and says next to the e-mail field what is wrong, then accepts the corrected form', async () => {
    await page.goto(`${portal.url}/vacancies/${encodeURIComponent(vacancies.analyst)}`);
    const externalId = await page.locator('input[name=externalId]').inputValue();
    await page.getByLabel('Имя и фамилия').fill('Ержан Сапаров');
    await page.getByLabel('Электронная почта').fill('erzhan@');
    await page.getByLabel('Сопроводительное письмо').fill('Добрый день!\nХочу к вам.');
    await page.getByLabel('Откуда вы знакомы').fill('учились вместе');
    await page.getByRole('button', { name: 'Отправить отклик' }).click();

    await page.waitForSelector('#email-error');
    expect(await page.locator('#email-error').textContent()).to.equal('Проверьте адрес почты: он должен выглядеть так: name@example.kz.');
    expect(await page.getByLabel('Электронная почта').getAttribute('aria-invalid')).to.equal('true');
    expect(await page.getByLabel('Электронная почта').getAttribute('aria-describedby')).to.equal('email-error');
    // A relationship without the referrer's name: the API names /referral/name, the portal the field.
    expect(await page.locator('#referralName-error').textContent()).to.include('Укажите имя того, кто вас рекомендует');
    expect(await page.locator('#form-notice a').allTextContents()).to.deep.equal(['Электронная почта', 'Имя рекомендателя']);
    expect(await page.getByLabel('Имя и фамилия').inputValue()).to.equal('Ержан Сапаров');
    expect(await page.getByLabel('Электронная почта').inputValue()).to.equal('erzhan@');
    expect(await page.getByLabel('Сопроводительное письмо').inputValue()).to.equal('Добрый день!\nХочу к вам.');
    expect(await page.getByLabel('Откуда вы знакомы').inputValue()).to.equal('учились вместе');
    expect(await page.locator('input[name=externalId]').inputValue()).to.equal(externalId);
    expect(await page.content()).not.to.include('validation_failed');
    expect(await candidatesOf(vacancies.analyst)).to.deep.equal([]);

    await page.getByLabel('Электронная почта').fill('erzhan@example.kz');
    await page.getByLabel('Имя рекомендателя').fill('Асель Жумабаева');
    await page.getByRole('button', { name: 'Отправить отклик' }).click();
    await page.waitForSelector('.success');
    const [candidate, ...others] = await candidatesOf(vacancies.analyst);
    expect(others).to.deep.equal([]);
    expect(candidate!.externalId).to.equal(externalId);
    expect(candidate!.stage).to.equal('NEW');
    expect(candidate!.referral).to.deep.equal({ name: 'Асель Жумабаева', email: null, phone: null, company: null, relationship: 'учились вместе' });
  });

  it('tells the visitor kindly when the vacancy was removed while they filled the form', async () => {
    await page.goto(`${portal.url}/vacancies/${encodeURIComponent(vacancies.closing)}`);
    await page.getByLabel('Имя и фамилия').fill('Алишер Каримов');
    await server.seed.deleteVacancy.execute({ companyId: tenant.companyId, id: vacancies.closing });
    const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Отправить отклик' }).click()]);
    expect(response.status()).to.equal(404);
    expect(await page.locator('h1').textContent()).to.equal('Вакансия закрыта');
    await page.goto(`${portal.url}/vacancies/${encodeURIComponent(vacancies.closing)}`);
    expect(await page.locator('h1').textContent()).to.equal('Вакансия закрыта');
  });

  it('creates one candidate when one rendered form is sent twice (a double click, a browser retry)', async () => {
    const form = await (await fetch(`${portal.url}/vacancies/${encodeURIComponent(vacancies.backend)}`)).text();
    const externalId = /name="externalId" value="([^"]+)"/.exec(form)?.[1];
    expect(externalId).to.match(/^portal-/);
    const body = new URLSearchParams({ externalId: externalId!, name: 'Дилноза Юсупова', email: 'dilnoza@example.uz' });
    // Origin as the portal's own form sends it: a post that says nothing of where it comes from is refused.
    const post = () => fetch(`${portal.url}/vacancies/${encodeURIComponent(vacancies.backend)}/apply`, { method: 'POST', headers: { Origin: portal.url }, body });
    const [first, second] = await Promise.all([post(), post()]).then((responses) => responses.sort((a, b) => b.status - a.status));
    expect([first!.status, second!.status]).to.deep.equal([201, 200]);
    expect(await second!.text()).to.include('Мы уже получили ваш отклик');
    const mine = (await candidatesOf(vacancies.backend)).filter((c) => c.externalId === externalId);
    expect(mine.map((c) => c.candidate.name)).to.deep.equal(['Дилноза Юсупова']);
  });

  // localhost is another site than 127.0.0.1; 127.0.0.1 on another port is the same site but another origin.
  for (const [host, site] of [['localhost', 'cross-site'], ['127.0.0.1', 'same-site']] as const) {
    it(`refuses a form that a page on ${host} (${site}) posts to the portal, shows why, and the portal's own form still works`, async () => {
      const attacker = `http://${host}:${(elsewhere.address() as AddressInfo).port}`;
      portalLog.length = 0;
      const [refused] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.goto(`${attacker}/form`)]);
      expect(refused.status()).to.equal(403);
      await page.waitForURL(`${portal.url}/vacancies/${vacancies.backend}/apply`);
      expect(await page.locator('h1').textContent()).to.equal('Отклик не принят');
      expect(plainText(await page.locator('.card').textContent())).to.include('Мы принимаем отклики только из формы на нашем сайте');
      expect(portalLog).to.deep.equal([{ event: 'portal.cross-site-refused', reason: `sec-fetch-site: ${site}` }]);
      expect((await candidatesOf(vacancies.backend)).map((c) => c.candidate.name)).not.to.include('Подделка Чужая');

      await page.getByRole('link', { name: 'Открыть вакансию' }).click();
      await page.waitForURL(`${portal.url}/vacancies/${vacancies.backend}`);
      await page.getByLabel('Имя и фамилия').fill(`Настоящий Кандидат ${site}`);
      await page.getByRole('button', { name: 'Отправить отклик' }).click();
      await page.waitForSelector('.success');
      expect((await candidatesOf(vacancies.backend)).map((c) => c.candidate.name)).to.include(`Настоящий Кандидат ${site}`);
    });
  }

  it('refuses a no-cors fetch that a page on another site sends to the portal', async () => {
    const attacker = `http://localhost:${(elsewhere.address() as AddressInfo).port}`;
    portalLog.length = 0;
    const [refused] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.goto(`${attacker}/fetch`)]);
    expect(refused.status()).to.equal(403);
    expect(portalLog).to.deep.equal([{ event: 'portal.cross-site-refused', reason: 'sec-fetch-site: cross-site' }]);
    expect((await candidatesOf(vacancies.backend)).map((c) => c.candidate.name)).not.to.include('Подделка Чужая');
  });
});
