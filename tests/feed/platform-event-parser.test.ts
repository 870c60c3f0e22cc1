import { expect } from 'chai';
import { parsePlatformEvent, type ParsedPlatformEvent } from '../../adapters/feed/platform-event-parser.js';
import { DETAIL_MAX_LENGTH } from '../../adapters/feed/event-problems.js';
import { EVENT_MAX_BYTES } from '../../adapters/feed/feed-limits.js';
import { PLATFORM_CHANGE_TYPES, type PlatformChange, type PlatformEventCommand } from '../../application/use-cases/platform-change.js';
import { BOARD_MAX_COLUMNS } from '../../domain/board/board.js';
import { GENDER_MAX_LENGTH } from '../../domain/candidate/candidate-rules.js';
import { emptyResume } from '../../domain/candidate/resume.js';
import { EXTERNAL_ID_MAX_LENGTH, SKILLS_MAX_ITEMS } from '../../domain/inbound-application/application-limits.js';
import { VACANCY_ID_MAX_LENGTH, VACANCY_TITLE_MAX_LENGTH } from '../../domain/vacancy/vacancy-limits.js';

type Json = Record<string, unknown>;

const VACANCY = 'vac-2026-014';
const CARD = '019a5b2c-7d10-7e44-9c3b-2f81a6d0c955';
const COMPANY = '019a44f1-0000-7c3e-a5b1-3f6d9a2e4b10';

/** The smallest valid data of each type. */
const MINIMAL_DATA: Readonly<Record<string, unknown>> = {
  'vacancy.upserted': { title: 'Бэкенд-разработчик', status: 'open' },
  'vacancy.deleted': undefined,
  'board.columns-set': { columns: ['NEW', 'INTERVIEW', 'OFFER'] },
  'candidate.added': { vacancyId: VACANCY, candidate: { name: 'Ержан Сапаров' }, stage: 'NEW' },
  'candidate.moved': { stage: 'INTERVIEW' },
  'candidate.transferred': { vacancyId: 'vac-2026-015' },
  'candidate.detached': { vacancyId: 'vac-2026-015' },
  'candidate.resume-updated': { role: 'Backend developer' },
  'candidate.deleted': undefined,
  'application.submitted': { externalId: 'portal-77', vacancyId: VACANCY, candidate: { name: 'Алишер Каримов' } },
};

function anEvent(type: string, overrides: Json = {}): Json {
  const subject = type === 'application.submitted' ? 'portal-77' : type.startsWith('candidate.') ? CARD : VACANCY;
  const data = MINIMAL_DATA[type];
  return {
    specversion: '1.0',
    id: 'evt-0001',
    source: '/platform/kz',
    type,
    time: '2026-11-02T09:41:27.318Z',
    subject,
    datacontenttype: 'application/json',
    companyid: COMPANY,
    ...(type === 'application.submitted' ? {} : { entityversion: 3 }),
    ...(data === undefined ? {} : { data }),
    ...overrides,
  };
}

function parse(event: unknown): ParsedPlatformEvent {
  return parsePlatformEvent(Buffer.from(JSON.stringify(event), 'utf8'));
}

function commandOf(event: unknown): PlatformEventCommand {
  const parsed = parse(event);
  if (!parsed.ok) expect.fail(`expected the event to be read, got ${parsed.reason}: ${parsed.detail}`);
  return parsed.command;
}

function changeOf(event: unknown): PlatformChange {
  return commandOf(event).change;
}

function refusal(event: unknown): Extract<ParsedPlatformEvent, { ok: false }> {
  const parsed = typeof event === 'string' || Buffer.isBuffer(event) ? parsePlatformEvent(event) : parse(event);
  if (parsed.ok) expect.fail('expected the event to be refused');
  return parsed;
}

describe('parsePlatformEvent', () => {
  describe('a valid event', () => {
    it('gives the command of each of the ten types, with the envelope in it', () => {
      for (const type of PLATFORM_CHANGE_TYPES) {
        const command = commandOf(anEvent(type));
        expect(command.change.type, type).to.equal(type);
        expect({ source: command.source, eventId: command.eventId, companyId: command.companyId }, type).to.deep.equal({
          source: '/platform/kz',
          eventId: 'evt-0001',
          companyId: COMPANY,
        });
      }
    });

    it('gives the subject and entityversion as the command says, and the identifiers and time as meta', () => {
      const parsed = parse(anEvent('candidate.moved', { entityversion: 41, time: '2026-11-02T14:41:27.3+05:00' }));
      expect(parsed).to.deep.include({ ok: true, meta: { id: 'evt-0001', type: 'candidate.moved', companyId: COMPANY, source: '/platform/kz' } });
      if (!parsed.ok) return;
      expect(parsed.command).to.deep.include({ subject: CARD, version: 41, change: { type: 'candidate.moved', stage: 'INTERVIEW' } });
      expect(parsed.time?.toISOString()).to.equal('2026-11-02T09:41:27.300Z');
      expect(parsed.command, 'the command carries no time: versions alone decide (ADR 16)').not.to.have.property('time');
    });

    it('has no time when the event gives none, and reads a string body as well as bytes', () => {
      const { time: _time, ...event } = anEvent('vacancy.deleted');
      const parsed = parsePlatformEvent(JSON.stringify(event));
      expect(parsed.ok && parsed.time).to.equal(null);
    });

    it('takes a time outside years 0001..9999 in UTC as none (the schema admits it; PostgreSQL would refuse to store it)', () => {
      for (const time of ['0000-06-01T00:00:00Z', '9999-12-31T23:30:00-01:00', '0001-01-01T00:30:00+01:00']) {
        const parsed = parse(anEvent('vacancy.deleted', { time }));
        expect(parsed.ok, time).to.equal(true);
        expect(parsed.ok && parsed.time, time).to.equal(null);
      }
      for (const time of ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '9999-12-31T23:30:00+01:00']) {
        const parsed = parse(anEvent('vacancy.deleted', { time }));
        expect(parsed.ok && parsed.time?.getTime(), time).to.equal(Date.parse(time));
      }
    });

    it('reads a vacancy as the admin CLI reads its file: not given is null or empty, the derivations kept for later', () => {
      const change = changeOf(anEvent('vacancy.upserted', { data: { title: 'Аналитик', status: 'draft', skills: null, city: null, publishedAt: '2026-10-28T11:15:00+05:00' } }));
      expect(change).to.deep.equal({
        type: 'vacancy.upserted',
        vacancy: {
          title: 'Аналитик', status: 'draft', city: null, officeAddress: null, experience: null,
          workFormats: [], salaryFrom: null, salaryTo: null, salaryCurrency: null, salaryGross: null, employmentForm: null,
          workSchedule: [], skills: [], languages: [], professionalRoles: [], description: null, positionsCount: null,
          sourceUrl: null, publishedAt: new Date('2026-10-28T06:15:00.000Z'), recruiter: null, sourceRef: null,
        },
      });
    });

    it('keeps a workFormat and responsibilities given as null (taken as they are) apart from absent ones (derived)', () => {
      const change = changeOf(anEvent('vacancy.upserted', { data: { title: 'QA', status: 'open', workFormat: null, responsibilities: null } }));
      expect(change.type === 'vacancy.upserted' && change.vacancy).to.deep.include({ workFormat: null, responsibilities: null });
      const derived = changeOf(anEvent('vacancy.upserted'));
      expect(derived.type === 'vacancy.upserted' && Object.keys(derived.vacancy)).to.not.include.members(['workFormat', 'responsibilities']);
    });

    it('reads a card with an empty resume and no referral when the data gives none, in the column it names', () => {
      expect(changeOf(anEvent('candidate.added'))).to.deep.equal({
        type: 'candidate.added',
        card: {
          vacancyId: VACANCY,
          candidate: { name: 'Ержан Сапаров', email: null, phone: null, location: null, birthDate: null, gender: null, citizenship: [] },
          resume: emptyResume(),
          referral: null,
          stage: 'NEW',
        },
      });
    });

    it('reads a full card: its stage, referral and resume items, a text of an item not given being ""', () => {
      const data = {
        vacancyId: VACANCY,
        candidate: { name: 'Дилноза Юсупова', email: 'dilnoza@example.uz', birthDate: '1996-02-29', citizenship: ['UZ'] },
        resume: { role: 'Аналитик', experience: [{ company: 'Uzcard', role: null }], languages: [{ name: 'English' }] },
        referral: { name: 'Ержан Сапаров', relationship: 'бывший коллега' },
        stage: 'INTERVIEW',
      };
      const change = changeOf(anEvent('candidate.added', { data }));
      if (change.type !== 'candidate.added') expect.fail(change.type);
      expect(change.card.stage).to.equal('INTERVIEW');
      expect(change.card.candidate).to.deep.include({ email: 'dilnoza@example.uz', birthDate: '1996-02-29', citizenship: ['UZ'] });
      expect(change.card.referral).to.deep.equal({ name: 'Ержан Сапаров', email: null, phone: null, company: null, relationship: 'бывший коллега' });
      expect(change.card.resume.experience).to.deep.equal([{ company: 'Uzcard', role: '', period: '', description: '' }]);
      expect(change.card.resume.languages).to.deep.equal([{ name: 'English', level: '' }]);
    });

    it('reads an application as POST /applications reads its body, and needs no entityversion for it', () => {
      const command = commandOf(anEvent('application.submitted'));
      expect(command.version).to.equal(0);
      expect(command.change).to.deep.equal({
        type: 'application.submitted',
        application: {
          externalId: 'portal-77', vacancyId: VACANCY, source: null,
          candidate: { name: 'Алишер Каримов', email: null, phone: null, location: null, birthDate: null },
          coverLetter: null, resume: emptyResume(), referral: null,
        },
      });
    });

    it('takes a deletion with no data, null data or an object of data', () => {
      for (const data of [undefined, null, {}, { reason: 'duplicate' }]) {
        expect(changeOf(anEvent('candidate.deleted', data === undefined ? {} : { data })), String(data)).to.deep.equal({ type: 'candidate.deleted' });
      }
    });

    it('ignores attributes and fields it does not know, a __proto__ key among them', () => {
      const text = JSON.stringify(anEvent('candidate.moved', { traceparent: '00-abc', data: { stage: 'OFFER', note: 'x' } })).replace('"stage"', '"__proto__":{"polluted":true},"stage"');
      const parsed = parsePlatformEvent(text);
      expect(parsed.ok && parsed.command.change).to.deep.equal({ type: 'candidate.moved', stage: 'OFFER' });
      expect(({} as Json).polluted).to.equal(undefined);
    });

    it('takes bounds from the domain, counting code points', () => {
      const title = '😀'.repeat(VACANCY_TITLE_MAX_LENGTH);
      expect(changeOf(anEvent('vacancy.upserted', { data: { title, status: 'open' } }))).to.have.nested.property('vacancy.title', title);
      expect(refusal(anEvent('vacancy.upserted', { data: { title: `${title}x`, status: 'open' } })).detail).to.equal(
        `/data/title: must be at most ${VACANCY_TITLE_MAX_LENGTH} characters`,
      );
      const columns = Array.from({ length: BOARD_MAX_COLUMNS + 1 }, (_, i) => `C${i}`);
      expect(refusal(anEvent('board.columns-set', { data: { columns } })).detail).to.equal(`/data/columns: must have at most ${BOARD_MAX_COLUMNS} items`);
      const gender = 'x'.repeat(GENDER_MAX_LENGTH + 1);
      expect(refusal(anEvent('candidate.added', { data: { vacancyId: VACANCY, candidate: { name: 'A', gender }, stage: 'NEW' } })).detail).to.equal(
        `/data/candidate/gender: must be at most ${GENDER_MAX_LENGTH} characters`,
      );
      expect(refusal(anEvent('vacancy.deleted', { subject: 'v'.repeat(VACANCY_ID_MAX_LENGTH + 1) })).detail).to.equal(
        `/subject: must be at most ${VACANCY_ID_MAX_LENGTH} characters`,
      );
    });
  });

  describe('an event that cannot be read', () => {
    it('is invalid_json when it is not JSON, not UTF-8 or empty', () => {
      expect(refusal('{"specversion": "1.0",')).to.deep.equal({ ok: false, reason: 'invalid_json', detail: '(event): must be valid JSON', meta: {} });
      expect(refusal(Buffer.from([0x7b, 0xff, 0x7d]))).to.include({ reason: 'invalid_json', detail: '(event): must be UTF-8' });
      expect(refusal('')).to.include({ reason: 'invalid_json' });
    });

    it('is invalid_event when it is JSON but no event: not an object, too deep, too large', () => {
      expect(refusal([anEvent('vacancy.deleted')])).to.include({ reason: 'invalid_event', detail: '(event): must be a JSON object' });
      expect(refusal(`${'['.repeat(65)}${']'.repeat(65)}`)).to.include({ reason: 'invalid_event', detail: '(event): must not nest deeper than 64 levels' });
      const huge = JSON.stringify(anEvent('vacancy.upserted', { data: { title: 'x', status: 'open', padding: 'a'.repeat(EVENT_MAX_BYTES) } }));
      expect(refusal(huge)).to.include({ reason: 'invalid_event', detail: `(event): must be at most ${EVENT_MAX_BYTES} bytes` });
    });

    it('is invalid_event when a CloudEvents attribute is missing or wrong, naming each', () => {
      const { specversion: _s, ...noVersion } = anEvent('vacancy.deleted');
      expect(refusal(noVersion)).to.include({ reason: 'invalid_event', detail: '/specversion: is required' });
      expect(refusal(anEvent('vacancy.deleted', { specversion: '0.3', id: '', source: 'not a uri' })).detail).to.equal(
        '/specversion: must be "1.0"; /id: must not be empty; /source: must be a URI reference',
      );
      expect(refusal(anEvent('vacancy.deleted', { type: 7 }))).to.include({ reason: 'invalid_event', detail: '/type: must be a string' });
    });

    it('is invalid_event when an extension attribute or the subject is missing or wrong', () => {
      const cases: [Json, string][] = [
        [{ companyid: undefined }, '/companyid: is required'],
        [{ entityversion: undefined }, '/entityversion: is required'],
        [{ entityversion: 0 }, '/entityversion: must be at least 1'],
        [{ entityversion: 2.5 }, '/entityversion: must be an integer'],
        [{ entityversion: '3' }, '/entityversion: must be an integer'],
        [{ entityversion: Number.MAX_SAFE_INTEGER + 1 }, `/entityversion: must be at most ${Number.MAX_SAFE_INTEGER}`],
        [{ subject: undefined }, '/subject: is required'],
        [{ time: '2026-11-02T09:41:27' }, '/time: must be an RFC 3339 date-time with a time zone'],
        [{ datacontenttype: 'text/xml' }, '/datacontenttype: must be application/json'],
      ];
      for (const [overrides, detail] of cases) {
        expect(refusal(anEvent('candidate.deleted', overrides)), detail).to.include({ reason: 'invalid_event', detail });
      }
      expect(commandOf(anEvent('candidate.deleted', { entityversion: Number.MAX_SAFE_INTEGER })).version).to.equal(Number.MAX_SAFE_INTEGER);
      expect(commandOf(anEvent('candidate.deleted', { datacontenttype: 'application/json; charset=utf-8' })).eventId).to.equal('evt-0001');
    });

    it('is invalid_event when an application names another externalId as subject', () => {
      expect(refusal(anEvent('application.submitted', { subject: 'portal-78' }))).to.include({ reason: 'invalid_event', detail: '/subject: must equal /data/externalId' });
      expect(refusal(anEvent('application.submitted', { subject: 'x'.repeat(EXTERNAL_ID_MAX_LENGTH + 1) })).reason).to.equal('invalid_event');
    });

    it('is unknown_type for a type of no schema, and keeps the identifiers for the dead letter', () => {
      expect(refusal(anEvent('vacancy.archived'))).to.deep.equal({
        ok: false,
        reason: 'unknown_type',
        detail: `/type: must be one of ${PLATFORM_CHANGE_TYPES.join(', ')}`,
        meta: { id: 'evt-0001', type: 'vacancy.archived', companyId: COMPANY, source: '/platform/kz' },
      });
    });

    it('is invalid_data when only the data is wrong, naming every problem of it', () => {
      const data = { title: '   ', status: 'hiring', salaryFrom: -1, skills: ['Go', 5], publishedAt: 'yesterday' };
      expect(refusal(anEvent('vacancy.upserted', { data }))).to.include({
        reason: 'invalid_data',
        detail:
          '/data/title: must not be blank; /data/status: must be one of open, paused, closed, archived, draft; /data/salaryFrom: must be at least 0; ' +
          '/data/skills/1: must be a string; /data/publishedAt: must be an RFC 3339 date-time with a time zone',
      });
      const { data: _data, ...noData } = anEvent('candidate.moved');
      expect(refusal(noData)).to.include({ reason: 'invalid_data', detail: '/data: is required' });
      expect(refusal(anEvent('board.columns-set', { data: { columns: ['NEW', 'NEW'] } }))).to.include({
        reason: 'invalid_data',
        detail: '/data/columns: must not repeat an item (items 0 and 1 are equal)',
      });
    });

    it('is invalid_data for each type whose data lacks what it needs', () => {
      const expected: Record<string, string> = {
        'vacancy.upserted': '/data/title: is required; /data/status: is required',
        'board.columns-set': '/data/columns: is required',
        'candidate.added': '/data/vacancyId: is required; /data/candidate: is required; /data/stage: is required',
        'candidate.moved': '/data/stage: is required',
        'candidate.transferred': '/data/vacancyId: is required',
        'candidate.detached': '/data/vacancyId: is required',
        'candidate.resume-updated': '/data/skills: must be an array or null',
        'application.submitted': '/data/externalId: is required; /data/vacancyId: is required; /data/candidate: is required',
      };
      for (const [type, detail] of Object.entries(expected)) {
        const data = type === 'candidate.resume-updated' ? { skills: 'Go' } : {};
        expect(refusal(anEvent(type, { data })), type).to.include({ reason: 'invalid_data', detail });
      }
    });

    it('is invalid_data for a card added without the column the platform placed it in, or with a null or empty one', () => {
      // "The first column" would be read when the event applies: after a reordering of the board delivered first, another.
      const { stage: _stage, ...noStage } = MINIMAL_DATA['candidate.added'] as Json;
      expect(refusal(anEvent('candidate.added', { data: noStage }))).to.include({ reason: 'invalid_data', detail: '/data/stage: is required' });
      expect(refusal(anEvent('candidate.added', { data: { ...noStage, stage: null } }))).to.include({ reason: 'invalid_data', detail: '/data/stage: must be a string' });
      expect(refusal(anEvent('candidate.added', { data: { ...noStage, stage: '' } }))).to.include({ reason: 'invalid_data', detail: '/data/stage: must not be empty' });
    });

    it('is invalid_event, naming the data too, when both the envelope and the data are wrong', () => {
      expect(refusal(anEvent('candidate.moved', { entityversion: -1, data: { stage: '' } }))).to.include({
        reason: 'invalid_event',
        detail: '/entityversion: must be at least 1; /data/stage: must not be empty',
      });
    });

    it('refuses NUL and unpaired surrogates in any string, and takes a well-formed pair', () => {
      expect(refusal(anEvent('candidate.moved', { data: { stage: 'A\u0000' } })).detail).to.equal('/data/stage: must not contain NUL (U+0000) or unpaired surrogate characters');
      expect(refusal(anEvent('candidate.moved', { data: { stage: 'A\uD800' } })).detail).to.equal('/data/stage: must not contain NUL (U+0000) or unpaired surrogate characters');
      expect(refusal(anEvent('candidate.moved', { id: 'evt\uDC00' })).detail).to.equal('/id: must not contain NUL (U+0000) or unpaired surrogate characters');
      expect(changeOf(anEvent('candidate.moved', { data: { stage: 'Собеседование 🗓' } }))).to.deep.equal({ type: 'candidate.moved', stage: 'Собеседование 🗓' });
    });
  });

  describe('what a refusal tells', () => {
    const PERSONAL = ['Иван Петров', 'ivan.petrov', '+7 701 555 12 34', 'Алматы, ул. Абая 1'];

    it('names pointers and rules, never a value, and keeps out identifiers unfit for a header', () => {
      const data = {
        vacancyId: VACANCY,
        candidate: { name: `${PERSONAL[0]}\u0000`, email: `${PERSONAL[1]} at example`, phone: PERSONAL[2]!.repeat(10), location: 7 },
        resume: { summary: PERSONAL[3], experienceYears: 'ten' },
        stage: 'NEW',
      };
      const refused = refusal(anEvent('candidate.added', { id: `${PERSONAL[0]}\u0000`, companyid: 'c'.repeat(65), data }));
      expect(refused.reason).to.equal('invalid_event');
      expect(refused.detail).to.equal(
        '/id: must not contain NUL (U+0000) or unpaired surrogate characters; /companyid: must be at most 64 characters; ' +
          '/data/candidate/name: must not contain NUL (U+0000) or unpaired surrogate characters; /data/candidate/email: must be an e-mail address; ' +
          '/data/candidate/phone: must be at most 60 characters; /data/candidate/location: must be a string or null; ' +
          '/data/resume/experienceYears: must be an integer or null',
      );
      for (const value of PERSONAL) expect(refused.detail).to.not.include(value);
      expect(refused.meta).to.deep.equal({ type: 'candidate.added', source: '/platform/kz' });
    });

    it('stays under the detail bound however many problems there are, and counts those left out', () => {
      const skills = Array.from({ length: SKILLS_MAX_ITEMS }, () => 1);
      const refused = refusal(anEvent('candidate.resume-updated', { data: { skills } }));
      expect(refused.detail.length).to.be.at.most(DETAIL_MAX_LENGTH);
      expect(refused.detail).to.match(/^\/data\/skills\/0: must be a string; \/data\/skills\/1: must be a string; .*; and \d+ more$/);
      const shown = refused.detail.split('; ').length - 1;
      expect(Number(/and (\d+) more$/.exec(refused.detail)?.[1])).to.equal(SKILLS_MAX_ITEMS - shown);
    });
  });
});
