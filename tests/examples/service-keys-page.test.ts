import { expect } from 'chai';
import { createHash } from 'node:crypto';
import type { CallerContext } from '../../examples/service-keys/src/management-client.js';
import { startServiceKeys, type RunningServiceKeys } from '../../examples/service-keys/src/start-service-keys.js';
import { formToken, publicGet, startKeyService, untilUsed, type KeyService } from './service-keys-api.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Text as a person reads it: tags gone, entities of the page decoded, spaces folded. */
const text = (page: string) =>
  page
    .replace(/<style>[\s\S]*?<\/style>|<script>[\s\S]*?<\/script>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

/**
 * The page against the real management API (both listeners of the API in this process, memory store):
 * what it lists and in which words, and the issue, roll and revoke forms end to end over HTTP.
 */
describe('the service keys page over the management API', function () {
  this.timeout(30_000);
  let service: KeyService;
  let page: RunningServiceKeys;
  let caller: CallerContext;
  const logged: string[] = [];

  before(async () => {
    service = await startKeyService();
    caller = { companyId: await service.createCompany('ТОО «Степной ветер»'), actor: 'Асель Жумабаева' };
    // The page's clock is 3 minutes ahead of the API's: a key used just now was used "3 minutes ago".
    page = await startServiceKeys({
      managementUrl: service.managementUrl,
      platformToken: service.platformToken,
      identity: { kind: 'config', caller },
      port: 0,
      now: () => new Date(Date.now() + 3 * MINUTE),
      log: (event, details) => void logged.push(JSON.stringify({ event, ...details })),
    });
  });

  after(async () => {
    await page?.close();
    await service?.close();
  });

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${page.url}${path}`, { headers, redirect: 'manual' });
    return { status: response.status, headers: response.headers, body: await response.text() };
  };
  const post = async (path: string, fields: [string, string][]) => {
    const response = await fetch(`${page.url}${path}`, { method: 'POST', headers: { Origin: page.url }, body: new URLSearchParams(fields), redirect: 'manual' });
    return { status: response.status, headers: response.headers, body: await response.text() };
  };

  it('lists the keys with their scopes, who issued them and their last use in words, in Russian and in English', async () => {
    const used = await service.client.issueKey(caller, { name: 'Карьерный сайт', scopes: ['vacancies:read', 'candidates:read'], expiresAt: null });
    await service.client.issueKey(caller, { name: 'ATS sync', scopes: ['applications:write'], expiresAt: new Date(Date.now() + 10 * 24 * 60 * MINUTE).toISOString() });
    expect(await publicGet(service, used.key, '/vacancies')).to.equal(200);
    await untilUsed(service, caller, used.id);

    const ru = await get('/', { 'Accept-Language': 'ru-RU,ru;q=0.9,en;q=0.8' });
    expect(ru.status).to.equal(200);
    expect(ru.body).to.include('<html lang="ru">');
    const card = (body: string, name: string) => text(body.slice(body.indexOf(`<h3>${name}</h3>`)).split('</li>\n')[0] ?? '');
    const site = card(ru.body, 'Карьерный сайт');
    expect(site).to.include('Действует').and.include('Чтение вакансий vacancies:read').and.include('Чтение кандидатов candidates:read Персональные данные');
    expect(site).to.include('использован 3 минуты назад').and.include('пользователь Асель Жумабаева').and.include('Бессрочный');
    const ats = card(ru.body, 'ATS sync');
    expect(ats).to.include('не использовался').and.include('Отправка откликов applications:write').and.include('истекает через 10 дней');
    expect(text(ru.body)).to.include('Первое использование').and.include('Выпущен');

    const en = await get('/?lang=en', { 'Accept-Language': 'ru' });
    expect(en.body).to.include('<html lang="en">');
    expect(card(en.body, 'Карьерный сайт')).to.include('used 3 minutes ago').and.include('by Асель Жумабаева').and.include('Read candidates candidates:read Personal data');
    expect(card(en.body, 'ATS sync')).to.include('never used').and.include('expires in 10 days');
    expect(en.body).to.include('href="/events?lang=en"');
    for (const answer of [ru, en]) {
      expect(answer.headers.get('cache-control')).to.equal('no-store');
      expect(answer.body).not.to.include(service.platformToken).and.not.include(used.key);
    }
  });

  it('escapes a hostile key name wherever it is shown and serves a policy that allows only its own scripts', async () => {
    const hostile = `<script>alert(1)</script>"><img src=x onerror=alert(2)>'&`;
    const issued = await service.client.issueKey(caller, { name: hostile, scopes: ['vacancies:read'], expiresAt: null });
    const escaped = '&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;&#39;&amp;';
    for (const path of ['/', `/keys/${issued.id}/roll`, `/keys/${issued.id}/revoke`, '/events']) {
      const answer = await get(path);
      expect(answer.status, path).to.equal(200);
      expect(answer.body, path).to.include(escaped);
      expect(answer.body, path).not.to.include('<script>alert').and.not.include('<img');
      const policy = answer.headers.get('content-security-policy') ?? '';
      expect(policy).to.match(/^default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+' 'sha256-[^']+'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'$/);
      // The form guard's script on every page, each inline script allowed by its hash; the buttons work without it.
      const scripts = [...answer.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
      expect(scripts, path).to.have.length(1);
      for (const script of scripts) expect(policy).to.include(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
      expect(answer.body, path).not.to.match(/<button[^>]* disabled/);
    }
  });

  it("shows the scopes, companies and expiry of the page's own platform token, and the API's 403 when it lacks one", async () => {
    const full = text((await get('/?lang=en')).body);
    expect(full).to.include('What this page may do').and.include(`(${service.platformTokenId})`);
    expect(full).to.include('see the keys keys:read').and.include('issue, roll and revoke keys keys:write').and.include('read the key events key-events:read');
    expect(full).to.include('Companies every company').and.include('Token expires Never');

    const readOnly = await service.issuePlatformToken({ scopes: ['keys:read', 'key-events:read'], companies: [caller.companyId] });
    const limitedPage = await startServiceKeys({
      managementUrl: service.managementUrl,
      platformToken: readOnly.token,
      identity: { kind: 'config', caller },
      port: 0,
      log: () => {},
    });
    try {
      const shown = await fetch(`${limitedPage.url}/`, { headers: { 'Accept-Language': 'ru' } });
      const words = text(await shown.text());
      expect(words).to.include('Что может эта страница').and.include('просмотр ключей keys:read').and.include('чтение событий ключей key-events:read');
      expect(words).not.to.include('keys:write');
      expect(words).to.include(`Компании ${caller.companyId}`);
      const form = formToken(await (await fetch(`${limitedPage.url}/`)).text());
      const before = (await service.client.listKeys(caller)).length;
      const refused = await fetch(`${limitedPage.url}/keys`, {
        method: 'POST', headers: { Origin: limitedPage.url }, redirect: 'manual',
        body: new URLSearchParams([['token', form], ['name', 'нельзя'], ['scopes', 'vacancies:read'], ['expiry', 'never']]),
      });
      expect(refused.status).to.equal(403);
      expect(text(await refused.text())).to.include('The platform token lacks the scope keys:write.');
      expect((await service.client.listKeys(caller)).length).to.equal(before);
    } finally {
      await limitedPage.close();
    }
  });

  it('issues a key from the form and shows its secret once, in the answer to the POST only', async () => {
    const token = formToken((await get('/')).body);
    const before = (await service.client.listKeys(caller)).length;
    const fields: [string, string][] = [['token', token], ['name', 'HR-аналитика'], ['scopes', 'vacancies:read'], ['scopes', 'candidates:read'], ['expiry', '90d']];
    const issued = await post('/keys', fields);
    expect(issued.status).to.equal(201);
    expect(issued.headers.get('cache-control')).to.equal('no-store');
    const secret = /id="secret" class="secret" name="secret" value="([^"]+)"/.exec(issued.body)?.[1] ?? '';
    expect(secret).to.match(/^ik_/);
    expect(text(issued.body)).to.include('Больше он показан не будет');
    const keys = await service.client.listKeys(caller);
    const made = keys.find((key) => key.name === 'HR-аналитика');
    expect(made?.scopes).to.have.members(['vacancies:read', 'candidates:read']);
    expect(made?.createdBy).to.equal('Асель Жумабаева');
    expect(Date.parse(made!.expiresAt!) - Date.parse(made!.createdAt)).to.be.closeTo(90 * 24 * 60 * MINUTE, 10 * MINUTE);
    expect(await publicGet(service, secret, '/candidates')).to.equal(200);

    // The browser sends the same POST again on reload: nothing is issued, no secret is shown.
    const again = await post('/keys', fields);
    expect(again.status).to.equal(409);
    expect(text(again.body)).to.include('Эта форма отправлена второй раз');
    expect(again.body).not.to.include(secret).and.not.match(/ik_[A-Za-z0-9]/);
    expect((await service.client.listKeys(caller)).length).to.equal(before + 1);
    for (const answer of [(await get('/')).body, (await get('/events')).body]) expect(answer).not.to.include(secret);
    expect(logged.join('\n')).not.to.include(secret);
    expect(service.rawLogs()).not.to.include(secret);
  });

  it('says on an issue or roll form sent twice that a key may have been made whose secret is gone, and how to recover, in both languages', async () => {
    const twice = async (path: string, fields: [string, string][]) => [await post(path, fields), await post(path, fields)] as const;
    const issued = await twice('/keys', [['token', formToken((await get('/')).body)], ['name', 'Дважды'], ['scopes', 'vacancies:read']]);
    expect(issued.map((answer) => answer.status)).to.deep.equal([201, 409]);
    expect(text(issued[1].body)).to.include('Эта форма уже отправлена').and.include(
      'Но первая отправка, возможно, уже выпустила ключ, а его секрет был только в ответе на неё, который заменила эта страница: показать его ещё раз нельзя. Если вы не скопировали секрет, найдите в списке ключ, выпущенный только что, отзовите его и выпустите новый.',
    );
    const issuedEn = await twice('/keys?lang=en', [['token', formToken((await get('/?lang=en')).body)], ['name', 'Twice'], ['scopes', 'vacancies:read']]);
    expect(text(issuedEn[1].body)).to.include('This form was sent already').and.include(
      'But the first sending may have issued a key, and its secret was only in the answer to that sending, which this page has replaced: it cannot be shown again. If you did not copy it, find the key issued just now in the list, revoke it, and issue a new one.',
    );

    const key = await service.client.issueKey(caller, { name: 'Перевыпускаемый дважды', scopes: ['vacancies:read'], expiresAt: null });
    const rolled = await twice(`/keys/${key.id}/roll`, [['token', formToken((await get(`/keys/${key.id}/roll`)).body)], ['overlap', '1h'], ['expiry', 'never']]);
    expect(rolled.map((answer) => answer.status)).to.deep.equal([201, 409]);
    expect(text(rolled[1].body)).to.include(
      'Но первая отправка, возможно, уже перевыпустила ключ: новый ключ выпущен, а его секрет был только в ответе на неё, который заменила эта страница: показать его ещё раз нельзя. Если вы не скопировали секрет, найдите в списке новый ключ (у него написано «Заменяет ключ …»), отзовите его и выпустите новый ключ с теми же правами.',
    );
    const keyEn = await service.client.issueKey(caller, { name: 'Rolled twice', scopes: ['vacancies:read'], expiresAt: null });
    const rolledEn = await twice(`/keys/${keyEn.id}/roll?lang=en`, [['token', formToken((await get(`/keys/${keyEn.id}/roll?lang=en`)).body)], ['overlap', '1h'], ['expiry', 'never']]);
    expect(text(rolledEn[1].body)).to.include(
      'But the first sending may have rolled the key: a new key was issued, and its secret was only in the answer to that sending, which this page has replaced: it cannot be shown again. If you did not copy it, find the new key in the list (it says “Replaces key …”), revoke it, and issue a new key with the same scopes.',
    );
    for (const answer of [issued[1], issuedEn[1], rolled[1], rolledEn[1]]) expect(answer.body).not.to.match(/ik_[A-Za-z0-9]/);

    // A revocation sent twice made no key: nothing to recover.
    const other = await service.client.issueKey(caller, { name: 'Отзываемый дважды', scopes: ['vacancies:read'], expiresAt: null });
    const revoked = await twice(`/keys/${other.id}/revoke?lang=en`, [['token', formToken((await get(`/keys/${other.id}/revoke?lang=en`)).body)]]);
    expect(revoked.map((answer) => answer.status)).to.deep.equal([303, 409]);
    expect(text(revoked[1].body)).to.include('nothing was done again. The list shows whether the key is revoked.').and.not.include('secret');
  });

  it('says what is missing, keeps what was typed, and issues nothing', async () => {
    const before = (await service.client.listKeys(caller)).length;
    const answer = await post('/keys?lang=en', [['token', formToken((await get('/?lang=en')).body)], ['name', '  '], ['expiry', '30d']]);
    expect(answer.status).to.equal(400);
    expect(text(answer.body)).to.include('Give the key a name.').and.include('Choose at least one scope.');
    expect(answer.body).to.include('aria-invalid="true"').and.include('<option value="30d" selected>');
    expect((await service.client.listKeys(caller)).length).to.equal(before);
  });

  it("shows the API's refusal in its own words, the field named, never its code or a stack", async () => {
    const answer = await post('/keys?lang=en', [['token', formToken((await get('/?lang=en')).body)], ['name', 'bad\u0000name'], ['scopes', 'vacancies:read']]);
    expect(answer.status).to.equal(400);
    const shown = text(answer.body);
    expect(shown).to.include('The key service refused the request:').and.match(/Name: .*NUL/);
    expect(shown).to.match(/Request ID: \S+/);
    expect(answer.body).not.to.include('validation_failed').and.not.match(/at .*\.ts:\d+/);
    expect(answer.body).to.include('value="bad');
  });

  it('rolls a key behind a confirmation: a new secret, the old key working until the chosen time, both in the trail', async () => {
    // A key that expires, so that "never" for its successor is a choice the page must send (left out, the API
    // would give the successor the old key's lifetime).
    const old = await service.client.issueKey(caller, { name: 'Сайт вакансий', scopes: ['vacancies:read'], expiresAt: new Date(Date.now() + 30 * 24 * 60 * MINUTE).toISOString() });
    const confirm = await get(`/keys/${old.id}/roll`);
    expect(text(confirm.body)).to.include('Перевыпустить ключ «Сайт вакансий»?').and.include('24 часа (рекомендуется)');
    const rolled = await post(`/keys/${old.id}/roll`, [['token', formToken(confirm.body)], ['overlap', '1h'], ['expiry', 'never']]);
    expect(rolled.status).to.equal(201);
    expect(rolled.headers.get('cache-control')).to.equal('no-store');
    const secret = /name="secret" value="([^"]+)"/.exec(rolled.body)?.[1] ?? '';
    expect(text(rolled.body)).to.include('Старый ключ «Сайт вакансий» действует до');
    expect(await publicGet(service, secret, '/vacancies')).to.equal(200);
    expect(await publicGet(service, old.key, '/vacancies')).to.equal(200);
    const listed = await service.client.listKeys(caller);
    const successor = listed.find((key) => key.rolledFrom === old.id);
    expect(listed.find((key) => key.id === old.id)?.rolledTo).to.equal(successor?.id);
    expect(successor?.expiresAt, 'never, as chosen').to.equal(null);
    // One hour from the page's clock, which runs 3 minutes ahead.
    expect(Date.parse(listed.find((key) => key.id === old.id)!.expiresAt!) - Date.now()).to.be.within(55 * MINUTE, 64 * MINUTE);

    await untilUsed(service, caller, old.id);
    await untilUsed(service, caller, successor!.id);
    const listPage = (await get('/')).body;
    const list = text(listPage);
    expect(list).to.include(`Перевыпущен: заменён ключом ${successor!.id}`).and.include(`Заменяет ключ ${old.id}`);
    // The two keys share their name: the old one says it is replaced, in its heading and its links' names.
    const cardOf = (body: string, id: string) => body.slice(body.indexOf(`<li class="card key" id="key-${id}">`)).split('\n</li>')[0]!;
    const until = /действует до ([^<"]+ UTC)/.exec(cardOf(listPage, old.id))?.[1] ?? '';
    expect(until).to.match(/\d\d:\d\d UTC$/);
    expect(text(/<h3>[\s\S]*?<\/h3>/.exec(cardOf(listPage, old.id))![0]).trim()).to.equal(`Сайт вакансий — заменён ключом ${successor!.id}, действует до ${until}`);
    const labels = (body: string, id: string) => [...cardOf(body, id).matchAll(/aria-label="([^"]+)"/g)].map((match) => match[1]);
    expect(labels(listPage, old.id)).to.deep.equal([`Отозвать ключ «Сайт вакансий», ID ${old.id}, заменён ключом ${successor!.id}, действует до ${until}`]);
    expect(labels(listPage, successor!.id)).to.deep.equal([`Перевыпустить ключ «Сайт вакансий», ID ${successor!.id}`, `Отозвать ключ «Сайт вакансий», ID ${successor!.id}`]);
    const listEn = (await get('/?lang=en')).body;
    const untilEn = /works until ([^<"]+ UTC)/.exec(cardOf(listEn, old.id))?.[1] ?? '';
    expect(text(/<h3>[\s\S]*?<\/h3>/.exec(cardOf(listEn, old.id))![0]).trim()).to.equal(`Сайт вакансий — replaced by key ${successor!.id}, works until ${untilEn}`);
    expect(labels(listEn, old.id)).to.deep.equal([`Revoke the key “Сайт вакансий”, ID ${old.id}, replaced by key ${successor!.id}, works until ${untilEn}`]);
    expect(labels(listEn, successor!.id)).to.deep.equal([`Roll the key “Сайт вакансий”, ID ${successor!.id}`, `Revoke the key “Сайт вакансий”, ID ${successor!.id}`]);
    const trail = (await get('/events')).body;
    expect(text(trail)).to.include(`Перевыпущен замена — ${successor!.id}; старый ключ действует до`);
    // Newest first: both keys' first use, then the roll with the successor's issue, then the old key's issue.
    const rows = [...trail.matchAll(/<tr class="event (\w+)">[\s\S]*?<code>([^<]+)<\/code>/g)].map((row) => `${row[1]} ${row[2]}`);
    expect(rows.slice(0, 4)).to.have.members([`first_used ${old.id}`, `first_used ${successor!.id}`, `rolled ${old.id}`, `issued ${successor!.id}`]);
    expect(rows.indexOf(`rolled ${old.id}`)).to.be.below(rows.indexOf(`issued ${old.id}`));
  });

  it('rolls with "7 days" from a page whose clock runs ahead of the API: it sends a little under 7 days', async () => {
    // The page's clock is 3 minutes ahead (see before): 7 days from it would be beyond what the API takes.
    const old = await service.client.issueKey(caller, { name: 'Недельная замена', scopes: ['vacancies:read'], expiresAt: null });
    const confirm = await get(`/keys/${old.id}/roll`);
    const rolled = await post(`/keys/${old.id}/roll`, [['token', formToken(confirm.body)], ['overlap', '7d'], ['expiry', 'never']]);
    expect(rolled.status, text(rolled.body)).to.equal(201);
    const end = Date.parse((await service.client.listKeys(caller)).find((key) => key.id === old.id)!.expiresAt!);
    expect(end - Date.now()).to.be.within(7 * DAY - 10 * MINUTE, 7 * DAY);
  });

  it('revokes a key behind a confirmation, then answers the list by a redirect that names it', async () => {
    const key = await service.client.issueKey(caller, { name: 'Старая интеграция', scopes: ['vacancies:read'], expiresAt: null });
    const confirm = await get(`/keys/${key.id}/revoke?lang=en`);
    expect(text(confirm.body)).to.include('Revoke the key “Старая интеграция”?').and.include('loses access within a few seconds');
    const revoked = await post(`/keys/${key.id}/revoke?lang=en`, [['token', formToken(confirm.body)]]);
    expect(revoked.status).to.equal(303);
    expect(revoked.headers.get('location')).to.equal(`/?revoked=${key.id}&lang=en`);
    expect(await publicGet(service, key.key, '/vacancies')).to.equal(401);
    const list = await get(revoked.headers.get('location')!);
    expect(text(list.body)).to.include('The key “Старая интеграция” is revoked.').and.match(/Revoked (just now|3 minutes ago) by Асель Жумабаева/);
    expect(text((await get('/events?lang=en')).body)).to.match(/Revoked Старая интеграция \S+ Асель Жумабаева via the platform/);
    // Revoked: no more actions, and the confirmation says why.
    expect(text((await get(`/keys/${key.id}/roll?lang=en`)).body)).to.include('This key is revoked or expired');
  });

  it('says so when a key is not this company’s', async () => {
    const elsewhere = { companyId: await service.createCompany('Другая компания'), actor: 'user:other' };
    const theirs = await service.client.issueKey(elsewhere, { name: 'Чужой', scopes: ['vacancies:read'], expiresAt: null });
    const answer = await get(`/keys/${theirs.id}/revoke`);
    expect(answer.status).to.equal(404);
    expect(text(answer.body)).to.include('Такого ключа нет, или он принадлежит другой компании.');
    expect(text((await get('/')).body)).not.to.include('Чужой');
  });
});
