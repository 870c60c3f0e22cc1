import { expect } from 'chai';
import { FormTokens } from '../../examples/service-keys/src/form-token.js';
import { EN } from '../../examples/service-keys/src/i18n/en.js';
import { RU } from '../../examples/service-keys/src/i18n/ru.js';
import { oldKeyExpiresAtOf } from '../../examples/service-keys/src/key-forms.js';
import { chooseLanguage } from '../../examples/service-keys/src/language.js';
import { absoluteTime, relativeTime } from '../../examples/service-keys/src/time-words.js';

const NOW = new Date('2026-11-27T12:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const ahead = (ms: number) => new Date(NOW.getTime() + ms);

describe('the service keys page: times in words', () => {
  it('says how long ago a key was used in English, singular and plural', () => {
    const used = (ms: number) => EN.keys.usedAgo(relativeTime(EN, ago(ms), NOW));
    expect(used(3 * MINUTE + 10_000)).to.equal('used 3 minutes ago');
    expect(used(MINUTE)).to.equal('used 1 minute ago');
    expect(used(10_000)).to.equal('used just now');
    expect(used(HOUR)).to.equal('used 1 hour ago');
    expect(used(5 * HOUR)).to.equal('used 5 hours ago');
    expect(used(2 * DAY)).to.equal('used 2 days ago');
    expect(used(61 * DAY)).to.equal('used 2 months ago');
    expect(used(400 * DAY)).to.equal('used 1 year ago');
    expect(EN.keys.neverUsed).to.equal('never used');
  });

  it('uses the Russian plural forms, in the accusative that «назад» takes', () => {
    const used = (ms: number) => RU.keys.usedAgo(relativeTime(RU, ago(ms), NOW));
    const minutes: [number, string][] = [
      [1, '1 минуту'], [2, '2 минуты'], [3, '3 минуты'], [4, '4 минуты'], [5, '5 минут'], [11, '11 минут'],
      [12, '12 минут'], [14, '14 минут'], [21, '21 минуту'], [22, '22 минуты'], [25, '25 минут'], [31, '31 минуту'],
    ];
    for (const [count, words] of minutes) expect(used(count * MINUTE)).to.equal(`использован ${words} назад`);
    expect(used(HOUR)).to.equal('использован 1 час назад');
    expect(used(3 * HOUR)).to.equal('использован 3 часа назад');
    expect(used(5 * HOUR)).to.equal('использован 5 часов назад');
    expect(used(21 * HOUR)).to.equal('использован 21 час назад');
    expect(used(DAY)).to.equal('использован 1 день назад');
    expect(used(2 * DAY)).to.equal('использован 2 дня назад');
    expect(used(11 * DAY)).to.equal('использован 11 дней назад');
    expect(used(365 * DAY)).to.equal('использован 1 год назад');
    expect(used(2 * 365 * DAY)).to.equal('использован 2 года назад');
    expect(used(5 * 365 * DAY)).to.equal('использован 5 лет назад');
    expect(used(20_000)).to.equal('использован только что');
    expect(RU.keys.neverUsed).to.equal('не использовался');
  });

  it('words moments ahead, such as an expiry, in both languages', () => {
    expect(EN.keys.expiresIn(relativeTime(EN, ahead(3 * DAY), NOW))).to.equal('expires in 3 days');
    expect(RU.keys.expiresIn(relativeTime(RU, ahead(3 * DAY), NOW))).to.equal('истекает через 3 дня');
    expect(RU.keys.expiresIn(relativeTime(RU, ahead(DAY), NOW))).to.equal('истекает через 1 день');
    expect(RU.keys.expiresIn(relativeTime(RU, ahead(MINUTE), NOW))).to.equal('истекает через 1 минуту');
    expect(RU.keys.expiredAgo(relativeTime(RU, ago(5 * DAY), NOW))).to.equal('истёк 5 дней назад');
    expect(relativeTime(EN, ahead(10_000), NOW)).to.equal('in less than a minute');
  });

  it('rounds to the nearest unit and moves up a unit when it reaches one', () => {
    expect(relativeTime(EN, ago(59 * MINUTE + 40_000), NOW)).to.equal('1 hour ago');
    expect(relativeTime(EN, ago(23 * HOUR + 40 * MINUTE), NOW)).to.equal('1 day ago');
    expect(relativeTime(EN, ahead(24 * HOUR - 30_000), NOW)).to.equal('in 1 day');
  });

  it('writes exact moments in the configured zone, named', () => {
    expect(absoluteTime(EN, NOW, 'UTC')).to.equal('27 Nov 2026, 12:00 UTC');
    expect(absoluteTime(RU, NOW, 'Asia/Almaty')).to.match(/^27 нояб\. 2026 г\., 17:00 GMT\+5$/);
  });
});

describe('the service keys page: language', () => {
  it('takes ?lang= first, then the first language of Accept-Language it speaks, then the default', () => {
    expect(chooseLanguage('en', 'ru-RU,ru;q=0.9', 'ru')).to.equal('en');
    expect(chooseLanguage('de', 'en-GB,en;q=0.9', 'ru')).to.equal('en');
    expect(chooseLanguage(undefined, 'kk-KZ, ru;q=0.8, en;q=0.9', 'ru')).to.equal('en');
    expect(chooseLanguage(undefined, 'uz, ru;q=0.5', 'en')).to.equal('ru');
    expect(chooseLanguage(undefined, 'en;q=0, de', 'ru')).to.equal('ru');
    expect(chooseLanguage(undefined, undefined, 'en')).to.equal('en');
    expect(chooseLanguage(['en', 'ru'], 'ru', 'en')).to.equal('ru');
  });
});

describe('the service keys page: form tokens', () => {
  const asel = { companyId: 'company-1', actor: 'user:asel' };
  let clock = 0;
  const tokens = () => new FormTokens({ secret: Buffer.alloc(32, 7), ttlMs: HOUR, now: () => clock });

  beforeEach(() => {
    clock = Date.parse('2026-11-27T12:00:00.000Z');
  });

  it('takes a token once: the second post of the same form is told apart', () => {
    const forms = tokens();
    const token = forms.make(asel, 'issue');
    expect(forms.redeem(asel, 'issue', token)).to.equal('ok');
    expect(forms.redeem(asel, 'issue', token)).to.equal('used');
  });

  it('refuses a token made for another user, company or action, or altered', () => {
    const forms = tokens();
    const token = forms.make(asel, 'revoke:key-1');
    expect(forms.redeem({ ...asel, actor: 'user:other' }, 'revoke:key-1', token)).to.equal('invalid');
    expect(forms.redeem({ ...asel, companyId: 'company-2' }, 'revoke:key-1', token)).to.equal('invalid');
    expect(forms.redeem(asel, 'revoke:key-2', token)).to.equal('invalid');
    expect(forms.redeem(asel, 'roll:key-1', token)).to.equal('invalid');
    expect(forms.redeem(asel, 'revoke:key-1', `${token}x`)).to.equal('invalid');
    expect(forms.redeem(asel, 'revoke:key-1', null)).to.equal('invalid');
    expect(new FormTokens({ secret: Buffer.alloc(32, 8), now: () => clock }).redeem(asel, 'revoke:key-1', token)).to.equal('invalid');
    expect(forms.redeem(asel, 'revoke:key-1', token)).to.equal('ok');
  });

  it('refuses a token older than its lifetime', () => {
    const forms = tokens();
    const token = forms.make(asel, 'issue');
    clock += HOUR;
    expect(forms.redeem(asel, 'issue', token)).to.equal('expired');
  });
});

describe('the service keys page: the roll form', () => {
  it('sends "7 days" as 7 days less 5 minutes, within the API limit from a page clock a few minutes ahead', () => {
    const end = (overlap: Parameters<typeof oldKeyExpiresAtOf>[0]) => Date.parse(oldKeyExpiresAtOf(overlap, NOW)) - NOW.getTime();
    expect(end('7d')).to.equal(7 * DAY - 5 * MINUTE);
    expect([end('1h'), end('24h'), end('3d')]).to.deep.equal([HOUR, DAY, 3 * DAY]);
  });
});
