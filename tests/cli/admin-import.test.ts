import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { presentCandidate } from '../../adapters/presenters/candidate.presenter.js';
import { presentVacancy } from '../../adapters/presenters/vacancy.presenter.js';
import { useAdminDatabase } from './support/admin-database.js';
import { EXPECTED_CANDIDATES, EXPECTED_VACANCIES, HH_RESUMES_FILE, HH_VACANCIES_FILE, hhSample, withoutIdentity } from './support/hh-samples.js';
import { errorOf, jsonOf } from './support/run-admin.js';

interface ImportOutput {
  created: number;
  updated: number;
  unchanged: number;
  rejected: { index: number; boardId: string | null; message: string; errors: { pointer: string; message: string }[] }[];
  records: { index: number; boardId: string; id: string; outcome: string }[];
}

describe('admin CLI: import hh (processes on PostgreSQL)', function () {
  this.timeout(120_000);
  const admin = useAdminDatabase();
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'admin-import-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, content: unknown) => {
    const full = path.join(dir, name);
    writeFileSync(full, JSON.stringify(content));
    return full;
  };
  const company = async (name: string) => jsonOf<{ id: string }>(await admin().runInProcess(['company', 'create', '--name', name])).id;

  it('imports every sample vacancy with the mapping of issue 4, and a second import changes nothing', async () => {
    const companyId = await company('ТОО «Импорт»');
    const first = jsonOf<ImportOutput>(await admin().run(['import', 'hh', '--company', companyId, '--vacancies', HH_VACANCIES_FILE]));
    expect(Object.keys(first)).to.deep.equal(['created', 'updated', 'unchanged', 'rejected', 'records']);
    expect(first).to.deep.include({ created: 3, updated: 0, unchanged: 0, rejected: [] });
    const stored = await admin().vacancies(companyId);
    expect(stored).to.have.length(3);
    for (const record of first.records) {
      const vacancy = stored.find((v) => v.id === record.id);
      expect(vacancy && withoutIdentity(presentVacancy(vacancy)), record.boardId).to.deep.equal(EXPECTED_VACANCIES[record.boardId]);
    }

    // The second import in process: the same code path, without another process start.
    const second = jsonOf<ImportOutput>(await admin().runInProcess(['import', 'hh', '--company', companyId, '--vacancies', HH_VACANCIES_FILE]));
    expect(second).to.deep.include({ created: 0, updated: 0, unchanged: 3, rejected: [] });
    expect(second.records.map((r) => r.id)).to.deep.equal(first.records.map((r) => r.id));
    expect(await admin().vacancies(companyId)).to.deep.equal(stored);
  });

  it('imports every sample resume as a candidate of the vacancy, field by field, and a second import changes nothing', async () => {
    const companyId = await company('ТОО «Резюме»');
    const [vacancy] = jsonOf<{ id: string }[]>(await admin().runInProcess(['vacancy', 'upsert', '--company', companyId, '--file', '-'], { input: '{"title":"Frontend","status":"open"}' }));
    const vacancyId = (vacancy as { id: string }).id;
    jsonOf(await admin().runInProcess(['board', 'set-columns', '--company', companyId, '--vacancy', vacancyId, '--columns', 'Отклик,Интервью']));
    const first = jsonOf<ImportOutput>(await admin().run(['import', 'hh', '--company', companyId, '--resumes', HH_RESUMES_FILE, '--vacancy', vacancyId]));
    expect(first).to.deep.include({ created: 2, updated: 0, unchanged: 0, rejected: [] });
    const stored = await admin().candidates(companyId);
    for (const record of first.records) {
      const card = stored.find((c) => c.id === record.id);
      if (card === undefined) throw new Error(`card ${record.id} is not listed`);
      const { vacancyId: v, vacancyTitle: t, stage, ...rest } = withoutIdentity(presentCandidate(card));
      expect({ v, t, stage }).to.deep.equal({ v: vacancyId, t: 'Frontend', stage: 'Отклик' });
      expect(rest, record.boardId).to.deep.equal(EXPECTED_CANDIDATES[record.boardId]);
    }

    const second = jsonOf<ImportOutput>(await admin().runInProcess(['import', 'hh', '--company', companyId, '--resumes', HH_RESUMES_FILE, '--vacancy', vacancyId]));
    expect(second).to.deep.include({ created: 0, updated: 0, unchanged: 2, rejected: [] });
    expect(await admin().candidates(companyId)).to.deep.equal(stored);
  });

  it('labels imported cards with JOB_BOARD_LABEL when it is set', async () => {
    const companyId = await company('ТОО «Метка»');
    const [vacancy] = jsonOf<{ id: string }[]>(await admin().runInProcess(['vacancy', 'upsert', '--company', companyId, '--file', '-'], { input: '{"title":"Продажи","status":"open"}' }));
    const result = jsonOf<ImportOutput>(await admin().run(
      ['import', 'hh', '--company', companyId, '--resumes', '-', '--vacancy', (vacancy as { id: string }).id],
      { env: { JOB_BOARD_LABEL: 'hh-uz' }, input: JSON.stringify(hhSample(HH_RESUMES_FILE).items[1]) },
    ));
    expect(result.created).to.equal(1);
    expect((await admin().candidates(companyId)).map((c) => c.source)).to.deep.equal(['hh-uz']);
  });

  it('stores the good records of a file with malformed ones, names each rejected one, and fails only when all are rejected', async () => {
    const companyId = await company('ТОО «Брак»');
    const items = hhSample(HH_VACANCIES_FILE).items;
    const mixed = file('mixed.json', {
      items: [
        items[0],
        { ...items[1], published_at: 'вчера' },
        'not a vacancy',
        { ...items[2], salary_range: { from: 5, to: 1, currency: 'KZT', gross: null } },
      ],
    });
    const run = await admin().run(['import', 'hh', '--company', companyId, '--vacancies', mixed]);
    expect(run.status).to.equal(0);
    const output = JSON.parse(run.stdout) as ImportOutput;
    expect(output).to.deep.include({ created: 1, updated: 0, unchanged: 0 });
    expect(output.records.map((r) => [r.index, r.boardId])).to.deep.equal([[0, '118204771']]);
    expect(output.rejected.map((r) => [r.index, r.boardId, r.errors.map((e) => e.pointer)])).to.deep.equal([
      [1, '118377002', ['/published_at']],
      [2, null, ['/']],
      [3, '117900315', ['/salaryFrom']],
    ]);
    expect(run.stderr.trimEnd().split('\n')).to.deep.equal([
      'warning: record 1 (board id 118377002) rejected: The vacancy is malformed. /published_at: must be an ISO 8601 date-time with an offset, such as 2026-10-03T09:41:12+0500; got "вчера"',
      'warning: record 2 rejected: The vacancy is not an object. /: must be an object',
      'warning: record 3 (board id 117900315) rejected: The vacancy is invalid. /salaryFrom: must not be greater than salaryTo',
    ]);
    expect((await admin().vacancies(companyId)).map((v) => v.title)).to.deep.equal(['Backend-разработчик (Node.js)']);

    const allBad = await admin().runInProcess(['import', 'hh', '--company', companyId, '--vacancies', file('bad.json', [{ id: 'x1' }, 7])]);
    expect(allBad.status).to.equal(1);
    expect((JSON.parse(allBad.stdout) as ImportOutput).rejected.map((r) => [r.index, r.boardId])).to.deep.equal([[0, 'x1'], [1, null]]);
    expect(allBad.stderr.trimEnd().split('\n').at(-1)).to.equal('error: Every record was rejected; nothing was imported.');
  });

  it('refuses a call without exactly one source, resumes without a vacancy, an unknown vacancy and a file without records', async () => {
    const companyId = await company('ТОО «Ошибки»');
    const lines = [
      errorOf(await admin().runInProcess(['import', 'hh', '--company', companyId])),
      errorOf(await admin().runInProcess(['import', 'hh', '--company', companyId, '--resumes', HH_RESUMES_FILE])),
      errorOf(await admin().runInProcess(['import', 'hh', '--company', companyId, '--resumes', HH_RESUMES_FILE, '--vacancy', 'no-such-vacancy'])),
      errorOf(await admin().runInProcess(['import', 'hh', '--company', companyId, '--vacancies', file('empty.json', { found: 0 })])),
      errorOf(await admin().runInProcess(['import', 'hh', '--company', 'no-such-company', '--vacancies', HH_VACANCIES_FILE])),
    ];
    expect(lines).to.deep.equal([
      'error: Give either --vacancies PATH, or --resumes PATH with --vacancy VACANCY_ID.',
      'error: --resumes needs --vacancy VACANCY_ID.',
      'error: Vacancy no-such-vacancy not found.',
      `error: ${path.join(dir, 'empty.json')} holds no job-board records: expected {"items":[...]}, an array of records, or one record with an "id".`,
      'error: Company no-such-company not found.',
    ]);
    expect(await admin().vacancies(companyId)).to.deep.equal([]);
  });
});
