import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { CallerContext } from '../../examples/service-keys/src/management-client.js';
import { startServiceKeys, type RunningServiceKeys } from '../../examples/service-keys/src/start-service-keys.js';
import { publicGet, publicPost, startKeyService, untilRefused, untilUsed, type KeyService } from '../examples/service-keys-api.js';
import { launchChromium, plainText, requireBrowser, type HeadlessBrowser } from './chromium.js';

/** Where the screenshots go: E2E_SCREENSHOT_DIR, or var/ (ignored by git). */
const SCREENSHOTS = process.env.E2E_SCREENSHOT_DIR ?? path.join('var', 'e2e-screenshots');

/**
 * The "Service keys" page in headless Chromium against the real API (public and management listeners in
 * this process): a key issued with two scopes by keyboard alone, its secret read once and copied, used on
 * the public API, rolled, revoked, and each step in the event trail.
 */
describe('the service keys page in headless Chromium, against the real API', function () {
  this.timeout(60_000);
  let service: KeyService;
  let caller: CallerContext;
  let keysPage: RunningServiceKeys;
  let browser: HeadlessBrowser;
  let page: Page;
  const problems: string[] = [];

  before(async function () {
    requireBrowser();
    service = await startKeyService();
    caller = { companyId: await service.createCompany('ТОО «Степной ветер»'), actor: 'Асель Жумабаева' };
    keysPage = await startServiceKeys({ managementUrl: service.managementUrl, platformToken: service.platformToken, identity: { kind: 'config', caller }, port: 0, log: () => {} });
    browser = await launchChromium();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: keysPage.url });
    await freshPage();
    await mkdir(SCREENSHOTS, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await keysPage?.close();
    await service?.close();
  });

  /** A new tab; a script refused by the policy, or any error of the page's own script, is collected. */
  const freshPage = async () => {
    await page?.close();
    page = await browser.context.newPage();
    // The 409 of the resent form is logged as a failed load, on purpose; anything else is a problem.
    page.on('console', (message) => void (message.type() === 'error' && !message.text().startsWith('Failed to load resource') && problems.push(message.text())));
    page.on('pageerror', (error) => void problems.push(error.message));
  };

  /** Presses Tab until the element with this id has the focus: it is reachable by keyboard, in order. */
  const tabTo = async (id: string) => {
    for (let presses = 0; presses < 40; presses++) {
      await page.keyboard.press('Tab');
      if ((await focusedId()) === id) return;
    }
    throw new Error(`#${id} was never reached with Tab`);
  };
  // Page-side expressions as text: the tests are compiled without the DOM's types.
  const focusedId = async () => String(await page.evaluate('document.activeElement ? document.activeElement.id : ""'));
  const focusOutline = async () => String(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle'));

  /**
   * Clicks the button, and again once the first sending has been answered by the page's server but before
   * the browser has that answer (held back, as a slow network would): only then would a second sending
   * replace the first navigation and drop its answer, the one with the secret. Waits for the page shown;
   * the statuses of the sendings that reached the server.
   */
  const clickTwice = async (name: string, url: RegExp): Promise<number[]> => {
    const answers: number[] = [];
    let firstAnswered!: () => void;
    const answered = new Promise<void>((resolve) => (firstAnswered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(url, async (route) => {
      const response = await route.fetch();
      answers.push(response.status());
      if (answers.length === 1) {
        firstAnswered();
        await released;
      }
      // The browser has given up this request when a later sending replaced it.
      await route.fulfill({ response }).catch(() => undefined);
    });
    const button = page.getByRole('button', { name, exact: true });
    // Whether the button is disabled at each press, kept where the next page of the tab can read it:
    // Playwright waits out a navigation under way before it evaluates anything.
    await page.evaluate(`sessionStorage.removeItem('presses'); addEventListener('pointerdown', () => sessionStorage.setItem('presses',
      (sessionStorage.getItem('presses') ?? '') + document.querySelector('form button[type=submit]').disabled + ' '), true)`);
    const box = await button.boundingBox();
    const [x, y] = [box!.x + box!.width / 2, box!.y + box!.height / 2];
    await page.mouse.click(x, y);
    await answered;
    await page.mouse.click(x, y);
    release();
    await page.waitForSelector('#secret, #notice');
    await page.unroute(url);
    expect(await page.evaluate(`sessionStorage.getItem('presses')`)).to.equal('false true ');
    return answers;
  };

  const secrets = { first: '', second: '', firstId: '', secondId: '' };

  it('issues a key with two scopes by keyboard alone and shows its secret once, with a copy button', async () => {
    await page.goto(keysPage.url);
    expect(await page.getAttribute('html', 'lang')).to.equal('ru');
    expect(await page.locator('h1').textContent()).to.equal('Сервисные ключи');
    expect(plainText(await page.locator('.keys, .card').first().textContent())).to.include('У компании пока нет сервисных ключей');
    expect(plainText(await page.locator('#scope-candidates-read-hint').textContent())).to.include('персональным данным: имена, контакты');

    await tabTo('key-name');
    expect(await focusOutline()).to.equal('solid');
    await page.keyboard.type('Карьерный сайт');
    await tabTo('scope-vacancies-read');
    expect(await focusOutline()).to.equal('solid');
    await page.keyboard.press('Space');
    await tabTo('scope-candidates-read');
    await page.keyboard.press('Space');
    await tabTo('key-expiry');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).to.equal('Выпустить ключ');
    const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.keyboard.press('Enter')]);
    expect(answer.status()).to.equal(201);
    expect(answer.headers()['cache-control']).to.equal('no-store');
    expect(page.url()).not.to.match(/ik_/);

    expect(await page.locator('h1').textContent()).to.equal('Ваш новый ключ');
    expect(plainText(await page.locator('#secret-warning').textContent())).to.include('Больше он показан не будет');
    secrets.first = await page.getByLabel('Секретный ключ: Карьерный сайт').inputValue();
    expect(secrets.first).to.match(/^ik_/);
    expect(await focusedId()).to.equal('secret');
    await page.getByRole('button', { name: 'Копировать' }).click();
    await page.waitForFunction('document.getElementById("copy-status").textContent !== ""');
    expect(await page.locator('#copy-status').textContent()).to.equal('Скопировано в буфер обмена.');
    expect(await page.evaluate('navigator.clipboard.readText()')).to.equal(secrets.first);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'service-keys-secret.png'), fullPage: true });

    const listed = (await service.client.listKeys(caller)).find((key) => key.name === 'Карьерный сайт');
    expect(listed?.scopes).to.have.members(['vacancies:read', 'candidates:read']);
    secrets.firstId = listed!.id;
  });

  it('uses the secret on the public API, and the page then says it was used', async () => {
    expect(await publicGet(service, secrets.first, '/vacancies')).to.equal(200);
    expect(await publicGet(service, secrets.first, '/candidates')).to.equal(200);
    // Not a scope of this key: refused as such (403 forbidden) before the body is read, though the key works.
    expect(await publicPost(service, secrets.first, '/applications', {})).to.deep.equal({ status: 403, code: 'forbidden' });
    await untilUsed(service, caller, secrets.firstId);
    await page.goto(keysPage.url);
    const card = page.locator(`#key-${secrets.firstId}`);
    expect(plainText(await card.locator('.last-use').textContent())).to.equal('использован только что');
    expect(plainText(await card.textContent())).to.include('пользователь Асель Жумабаева');
  });

  it('never shows the secret again: Back does not resend its POST, and a resend shows no secret', async () => {
    // History: the form, the secret (the POST's answer), the list. Back to the secret: Chromium will not
    // send the POST again by itself (no-store, so nothing cached to show either).
    const back = await page.goBack().catch((error: Error) => error);
    expect(back).to.be.instanceOf(Error);
    expect((back as Error).message).to.include('ERR_CACHE_MISS');
    await page.waitForURL('chrome-error://chromewebdata/');
    expect(await page.content()).to.include('Confirm Form Resubmission').and.not.include(secrets.first);
    // Reloading that entry sends the POST again: the form's token is spent, so no key and no secret.
    const [resent] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.reload().catch(() => null)]);
    expect(resent.status()).to.equal(409);
    await page.waitForSelector('h1');
    expect(await page.locator('h1').textContent()).to.equal('Эта форма уже отправлена');
    expect(await page.content()).not.to.include(secrets.first);
    expect((await service.client.listKeys(caller)).map((key) => key.name)).to.deep.equal(['Карьерный сайт']);
    await freshPage();
  });

  it('issues exactly one key when the button is clicked twice, and shows its secret', async () => {
    await page.goto(keysPage.url);
    await page.getByLabel('Название').fill('Синхронизация с ATS');
    await page.getByLabel('Отправка откликов applications:write').check();
    expect(await clickTwice('Выпустить ключ', /\/keys\?/)).to.deep.equal([201]);
    expect(await page.locator('h1').textContent()).to.equal('Ваш новый ключ');
    const secret = await page.getByLabel('Секретный ключ: Синхронизация с ATS').inputValue();
    const issued = (await service.client.listKeys(caller)).filter((key) => key.name === 'Синхронизация с ATS');
    expect(issued).to.have.length(1);
    expect(secret).to.match(new RegExp(`^ik_${issued[0]!.id}_`));
    await freshPage();
  });

  it('rolls the key after a confirmation, once for two clicks: a second secret, both keys working for the overlap', async () => {
    await page.goto(keysPage.url);
    await page.getByRole('link', { name: `Перевыпустить ключ «Карьерный сайт», ID ${secrets.firstId}`, exact: true }).click();
    expect(await page.locator('h1').textContent()).to.equal('Перевыпустить ключ «Карьерный сайт»?');
    await page.getByLabel('Текущий ключ будет работать ещё').selectOption('1h');
    expect(await clickTwice('Перевыпустить ключ', /\/keys\/[^/]+\/roll\?/)).to.deep.equal([201]);
    expect(await page.locator('h1').textContent()).to.equal('Новый ключ');
    secrets.second = await page.locator('#secret').inputValue();
    expect(secrets.second).to.match(/^ik_/).and.not.equal(secrets.first);
    expect(plainText(await page.locator('.notice.success').textContent())).to.match(/^Старый ключ «Карьерный сайт» действует до /);
    expect(await publicGet(service, secrets.second, '/candidates')).to.equal(200);
    expect(await publicGet(service, secrets.first, '/candidates')).to.equal(200);
    secrets.secondId = (await service.client.listKeys(caller)).find((key) => key.rolledFrom === secrets.firstId)!.id;
  });

  it('revokes the key the integrator holds after the roll, by its id: the public API refuses exactly that one, the old one keeps working', async () => {
    const [oldId, newId] = [secrets.firstId, secrets.secondId];
    await page.goto(keysPage.url);
    // Both keys are named «Карьерный сайт»: the old one says, in its heading and its link, that it is replaced.
    const replaced = `заменён ключом ${newId}, действует до `;
    expect(plainText(await page.locator(`#key-${oldId} h3`).textContent())).to.match(new RegExp(`^Карьерный сайт — ${replaced}.+ UTC$`));
    expect(plainText(await page.locator(`#key-${newId} h3`).textContent())).to.equal('Карьерный сайт');
    const oldLink = new RegExp(`^Отозвать ключ «Карьерный сайт», ID ${oldId}, ${replaced}.+ UTC$`);
    expect(await page.getByRole('link', { name: oldLink }).count()).to.equal(1);
    expect(await page.getByRole('link', { name: `Перевыпустить ключ «Карьерный сайт», ID ${oldId}` }).count()).to.equal(0);

    await page.getByRole('link', { name: `Отозвать ключ «Карьерный сайт», ID ${newId}`, exact: true }).click();
    expect(await page.locator('h1').textContent()).to.equal('Отозвать ключ «Карьерный сайт»?');
    expect(plainText(await page.locator(`#key-${newId}`).textContent())).to.include(`Заменяет ключ ${oldId}`);
    await page.getByRole('button', { name: 'Отозвать ключ' }).click();
    await page.waitForSelector('.notice.success');
    expect(plainText(await page.locator('.notice.success').textContent())).to.equal('Ключ «Карьерный сайт» отозван.');
    expect(new URL(page.url()).searchParams.get('revoked')).to.equal(newId);
    // The public API trusts what it read of a key for KEY_CACHE_TTL_MS (at most 5 s): wait for the refusal.
    expect(await untilRefused(service, secrets.second)).to.equal(401);
    expect(await publicGet(service, secrets.first, '/candidates')).to.equal(200);
    expect(plainText(await page.locator(`#key-${newId}`).textContent())).to.include('Отозван только что, пользователь Асель Жумабаева');
    expect(plainText(await page.locator(`#key-${oldId} .status`).first().textContent())).to.equal('Действует');
    expect(await page.getByRole('link', { name: oldLink }).count()).to.equal(1);
  });

  it('shows every step in the event trail, newest first, and in English on request', async () => {
    await page.goto(keysPage.url);
    await page.getByRole('link', { name: 'Весь журнал событий' }).click();
    expect(await page.locator('h1').textContent()).to.equal('Журнал событий');
    const rows = await page.locator('tr.event').evaluateAll((trs) => trs.map((tr) => `${tr.className.replace('event ', '')} ${tr.querySelector('td:nth-child(3) code')?.textContent}`));
    const [first, second] = [secrets.firstId, secrets.secondId];
    const at = (row: string) => rows.indexOf(row);
    for (const row of [`issued ${first}`, `first_used ${first}`, `rolled ${first}`, `issued ${second}`, `first_used ${second}`]) expect(rows).to.include(row);
    expect(rows.filter((row) => row.startsWith('revoked '))).to.deep.equal([`revoked ${second}`]);
    expect(at(`issued ${first}`)).to.be.above(at(`first_used ${first}`));
    expect(at(`first_used ${first}`)).to.be.above(at(`rolled ${first}`));
    expect(at(`rolled ${first}`)).to.be.above(at(`revoked ${second}`));
    expect(plainText(await page.locator('tr.event.rolled').textContent())).to.include(`замена — ${second}`);
    expect(plainText(await page.locator('tr.event.revoked').textContent())).to.include('Асель Жумабаева через платформу');

    await page.getByRole('link', { name: 'English' }).click();
    expect(await page.getAttribute('html', 'lang')).to.equal('en');
    expect(await page.locator('h1').textContent()).to.equal('Event trail');
    expect(plainText(await page.locator('tr.event.revoked').textContent())).to.include('Асель Жумабаева via the platform');
    await page.getByRole('link', { name: 'Back to the keys' }).click();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'service-keys-list.png'), fullPage: true });
    console.log(`    screenshots: ${SCREENSHOTS}/service-keys-secret.png, service-keys-list.png`);
    expect(problems).to.deep.equal([]);
  });
});
