import { expect } from 'chai';
import { parseHhDateTime, periodText } from '../../adapters/job-board/hh-date.js';
import { hhRecordsOf } from '../../adapters/job-board/hh-mapped-record.js';
import { mapHhResume } from '../../adapters/job-board/hh-resume.mapper.js';
import { mapHhVacancy } from '../../adapters/job-board/hh-vacancy.mapper.js';
import { presentPerson, presentResume } from '../../adapters/presenters/candidate.presenter.js';
import { EXPECTED_CANDIDATES, EXPECTED_VACANCIES, HH_RESUMES_FILE, HH_VACANCIES_FILE, hhSample } from './support/hh-samples.js';

describe('job-board mapping (hh format)', () => {
  describe('vacancies', () => {
    const items = hhSample(HH_VACANCIES_FILE).items;

    it('maps every sample field by field, keeping the board wording and giving the text of the description', () => {
      items.forEach((raw, index) => {
        const mapped = mapHhVacancy(raw, index);
        if (!mapped.ok) throw new Error(`sample ${index} was rejected: ${JSON.stringify(mapped.rejection)}`);
        const expected = EXPECTED_VACANCIES[mapped.record.boardId];
        expect(expected, `an expectation for board id ${mapped.record.boardId}`).to.not.equal(undefined);
        const { publishedAt, ...content } = mapped.record.content;
        // Before the domain: an upper bound alone stays as given; the domain then sets salaryFrom = salaryTo.
        const salaryFrom = mapped.record.boardId === '118377002' ? null : expected?.salaryFrom;
        expect({ ...content, publishedAt: publishedAt?.toISOString() ?? null }).to.deep.equal({ ...expected, salaryFrom });
        expect(mapped.record.index).to.equal(index);
      });
    });

    it('reads offsets without a colon and stores the moment in UTC', () => {
      expect(parseHhDateTime('2026-10-03T09:41:12+0500')?.toISOString()).to.equal('2026-10-03T04:41:12.000Z');
      expect(parseHhDateTime('2026-09-20T08:00:00+06:00')?.toISOString()).to.equal('2026-09-20T02:00:00.000Z');
      expect(parseHhDateTime('2026-01-01T01:30:00-0330')?.toISOString()).to.equal('2026-01-01T05:00:00.000Z');
      expect(parseHhDateTime('2026-10-03T09:41:12.5Z')?.toISOString()).to.equal('2026-10-03T09:41:12.500Z');
      for (const bad of ['2026-10-03', '2026-02-30T10:00:00+0500', '2026-10-03T24:00:00Z', '2026-10-03T09:41:12', 'вчера']) {
        expect(parseHhDateTime(bad), bad).to.equal(null);
      }
    });

    it('normalises work-format ids: ON_SITE alone office, REMOTE alone remote, both or HYBRID hybrid, others other, none null', () => {
      const formatOf = (ids: string[]) => {
        const mapped = mapHhVacancy({ ...items[0], work_format: ids.map((id) => ({ id, name: id })) }, 0);
        return mapped.ok ? mapped.record.content.workFormat : 'rejected';
      };
      expect(formatOf(['ON_SITE'])).to.equal('office');
      expect(formatOf(['REMOTE'])).to.equal('remote');
      expect(formatOf(['ON_SITE', 'REMOTE'])).to.equal('hybrid');
      expect(formatOf(['HYBRID'])).to.equal('hybrid');
      expect(formatOf(['FIELD_WORK'])).to.equal('other');
      expect(formatOf([])).to.equal(null);
    });

    it('takes the legacy salary when salary_range is absent, and composes an address whose raw text is missing', () => {
      const mapped = mapHhVacancy({
        ...items[0],
        salary_range: undefined,
        salary: { from: 100, to: null, currency: 'KZT', gross: true },
        address: { city: 'Астана', street: 'Мангилик Ел', building: '55', raw: null },
      }, 0);
      expect(mapped.ok && mapped.record.content).to.deep.include({
        salaryFrom: 100, salaryTo: null, salaryCurrency: 'KZT', salaryGross: true, officeAddress: 'Астана, Мангилик Ел, 55',
      });
    });

    it('rejects a malformed record naming its index, its board id and every field at fault', () => {
      const mapped = mapHhVacancy({ ...items[1], name: 42, key_skills: 'Node.js', published_at: '11.10.2026' }, 7);
      expect(mapped.ok).to.equal(false);
      if (mapped.ok) return;
      expect(mapped.rejection).to.include({ index: 7, boardId: '118377002' });
      expect(mapped.rejection.problems.map((p) => p.pointer)).to.deep.equal(['/name', '/key_skills', '/published_at']);
      expect(mapped.rejection.problems[2]?.message).to.contain('11.10.2026');
    });

    it('rejects a record without an id, and one that is not an object', () => {
      const noId = mapHhVacancy({ ...items[0], id: null }, 3);
      expect(!noId.ok && noId.rejection).to.deep.include({ index: 3, boardId: null });
      expect(!noId.ok && noId.rejection.problems.map((p) => p.pointer)).to.deep.equal(['/id']);
      const notObject = mapHhVacancy('118204771', 4);
      expect(!notObject.ok && notObject.rejection).to.deep.include({ index: 4, boardId: null, message: 'The vacancy is not an object.' });
    });
  });

  describe('resumes', () => {
    const items = hhSample(HH_RESUMES_FILE).items;

    it('maps every sample field by field into the person and the resume the API shows', () => {
      items.forEach((raw, index) => {
        const mapped = mapHhResume(raw, index);
        if (!mapped.ok) throw new Error(`sample ${index} was rejected: ${JSON.stringify(mapped.rejection)}`);
        const expected = EXPECTED_CANDIDATES[mapped.record.boardId];
        expect(expected, `an expectation for board id ${mapped.record.boardId}`).to.not.equal(undefined);
        expect(presentPerson(mapped.record.content.person)).to.deep.equal(expected?.candidate);
        expect(presentResume(mapped.record.content.resume)).to.deep.equal(expected?.resume);
      });
    });

    it('writes names as "Last First Middle", skipping the parts the board leaves empty', () => {
      const nameOf = (parts: Record<string, unknown>) => {
        const mapped = mapHhResume({ ...items[0], ...parts }, 0);
        return mapped.ok ? mapped.record.content.person.name : 'rejected';
      };
      expect(nameOf({ first_name: 'Тимур', last_name: 'Рашидов', middle_name: 'Алишерович' })).to.equal('Рашидов Тимур Алишерович');
      expect(nameOf({ first_name: ' Тимур ', last_name: null, middle_name: '' })).to.equal('Тимур');
    });

    it('writes periods as people do: start month, a dash, end month or "now"; whole years of experience', () => {
      expect(periodText('2022-02-01', null)).to.equal('2022-02 — now');
      expect(periodText('2020-07-01', '2022-01-01')).to.equal('2020-07 — 2022-01');
      expect(periodText(null, '2022-01-01')).to.equal('');
      const years = (months: number) => {
        const mapped = mapHhResume({ ...items[0], total_experience: { months } }, 0);
        return mapped.ok ? mapped.record.content.resume.experienceYears : 'rejected';
      };
      expect([years(11), years(12), years(52), years(0)]).to.deep.equal([0, 1, 4, 0]);
    });

    it('takes the preferred phone, else the first, and an e-mail given as an object', () => {
      const mapped = mapHhResume({
        ...items[0],
        contact: [
          { type: { id: 'home' }, value: { formatted: '+7 727 000-00-00' }, preferred: false },
          { type: { id: 'cell' }, value: { country: '7', city: '701', number: '1112233' }, preferred: true },
          { type: { id: 'email' }, value: { email: 'a@example.kz' } },
        ],
      }, 0);
      expect(mapped.ok && mapped.record.content.person).to.deep.include({ phone: '+77011112233', email: 'a@example.kz' });
    });

    it('rejects a malformed resume naming its index, board id and fields', () => {
      const mapped = mapHhResume({ ...items[0], skill_set: [1, 'React'], contact: {} }, 5);
      expect(!mapped.ok && mapped.rejection).to.deep.include({ index: 5, boardId: 'f3a1c9e2000b4d7f0039ed1f1f6d4a6b4c7a2e' });
      expect(!mapped.ok && mapped.rejection.problems.map((p) => p.pointer)).to.deep.equal(['/contact', '/skill_set/0']);
    });
  });

  it('reads the list page, a bare array or a single record, and nothing else', () => {
    expect(hhRecordsOf({ items: [1, 2] })).to.deep.equal([1, 2]);
    expect(hhRecordsOf([3])).to.deep.equal([3]);
    expect(hhRecordsOf({ id: '1', name: 'x' })).to.deep.equal([{ id: '1', name: 'x' }]);
    expect(hhRecordsOf({ found: 0 })).to.equal(null);
    expect(hhRecordsOf('items')).to.equal(null);
  });
});
