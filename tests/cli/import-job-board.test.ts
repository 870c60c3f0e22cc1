import { expect } from 'chai';
import type { JobBoardRecord } from '../../application/use-cases/import-job-board-result.js';
import type { JobBoardResume } from '../../application/use-cases/import-job-board-resumes.use-case.js';
import type { JobBoardVacancy } from '../../application/use-cases/import-job-board-vacancies.use-case.js';
import { mapHhResume } from '../../adapters/job-board/hh-resume.mapper.js';
import { mapHhVacancy } from '../../adapters/job-board/hh-vacancy.mapper.js';
import { presentCandidate } from '../../adapters/presenters/candidate.presenter.js';
import { presentVacancy } from '../../adapters/presenters/vacancy.presenter.js';
import { rowKey } from '../../adapters/persistence/in-memory/in-memory-database.js';
import { DEFAULT_BOARD_COLUMNS } from '../../domain/board/board.js';
import { NotFoundError } from '../../domain/shared/domain-error.js';
import { rejectionOf } from '../support/catching.js';
import { withWorld } from '../support/use-case-world.js';
import { EXPECTED_CANDIDATES, EXPECTED_VACANCIES, HH_RESUMES_FILE, HH_VACANCIES_FILE, hhSample, withoutIdentity } from './support/hh-samples.js';

function mapped<T>(results: ReturnType<typeof mapHhVacancy | typeof mapHhResume>[]): JobBoardRecord<T>[] {
  return results.map((r) => {
    if (!r.ok) throw new Error(`a sample was rejected: ${JSON.stringify(r.rejection)}`);
    return r.record as JobBoardRecord<T>;
  });
}

const vacancyRecords = (items = hhSample(HH_VACANCIES_FILE).items) => mapped<JobBoardVacancy>(items.map(mapHhVacancy));
const resumeRecords = (items = hhSample(HH_RESUMES_FILE).items) => mapped<JobBoardResume>(items.map(mapHhResume));

describe('importing from the job board (use cases, in memory)', () => {
  const world = withWorld();
  const importVacancies = (companyId: string, records: JobBoardRecord<JobBoardVacancy>[], source = 'hh') =>
    world().use('importJobBoardVacancies').execute({ companyId, source, records });
  const importResumes = (companyId: string, vacancyId: string, records: JobBoardRecord<JobBoardResume>[], source = 'hh') =>
    world().use('importJobBoardResumes').execute({ companyId, source, vacancyId, records });

  it('creates a vacancy per board record, as a client then reads it, each with a default board', async () => {
    const companyId = await world().company();
    const result = await importVacancies(companyId, vacancyRecords());
    expect(result).to.deep.include({ created: 3, updated: 0, unchanged: 0, rejected: [] });
    expect(result.records.map((r) => [r.index, r.boardId, r.outcome])).to.deep.equal([
      [0, '118204771', 'created'], [1, '118377002', 'created'], [2, '117900315', 'created'],
    ]);
    const listed = await world().allVacancies(companyId, { status: 'all' });
    for (const record of result.records) {
      const vacancy = listed.find((v) => v.id === record.id);
      expect(vacancy && withoutIdentity(presentVacancy(vacancy))).to.deep.equal(EXPECTED_VACANCIES[record.boardId]);
      expect(world().database.boards.get(rowKey(companyId, record.id))?.columns).to.deep.equal([...DEFAULT_BOARD_COLUMNS]);
    }
  });

  it('updates on re-import instead of duplicating, and moves updatedAt only for a record that changed', async () => {
    const companyId = await world().company();
    const first = await importVacancies(companyId, vacancyRecords());
    const before = await world().allVacancies(companyId, { status: 'all' });
    world().clock.advance(60_000);
    const again = await importVacancies(companyId, vacancyRecords());
    expect(again).to.deep.include({ created: 0, updated: 0, unchanged: 3, rejected: [] });
    expect(again.records.map((r) => r.id)).to.deep.equal(first.records.map((r) => r.id));
    expect(await world().allVacancies(companyId, { status: 'all' })).to.deep.equal(before);

    const items = hhSample(HH_VACANCIES_FILE).items;
    items[1] = { ...items[1], archived: true };
    world().clock.advance(60_000);
    const changed = await importVacancies(companyId, vacancyRecords(items));
    expect(changed).to.deep.include({ created: 0, updated: 1, unchanged: 2 });
    const after = await world().allVacancies(companyId, { status: 'all' });
    expect(after).to.have.length(3);
    const moved = after.filter((v) => v.updatedAt.getTime() !== before.find((b) => b.id === v.id)?.updatedAt.getTime());
    expect(moved.map((v) => [v.id, v.status])).to.deep.equal([[first.records[1]?.id, 'archived']]);
  });

  it('stores the valid records and reports a record the domain refuses, by index and board id', async () => {
    const companyId = await world().company();
    const items = hhSample(HH_VACANCIES_FILE).items;
    items[0] = { ...items[0], salary_range: { from: 2_000_000, to: 1_000_000, currency: 'KZT', gross: false } };
    const result = await importVacancies(companyId, vacancyRecords(items));
    expect(result).to.deep.include({ created: 2, updated: 0, unchanged: 0 });
    expect(result.rejected).to.have.length(1);
    expect(result.rejected[0]).to.deep.include({ index: 0, boardId: '118204771' });
    expect(result.rejected[0]?.problems.map((p) => p.pointer)).to.deep.equal(['/salaryFrom']);
    expect((await world().allVacancies(companyId, { status: 'all' })).map((v) => v.title)).to.have.members(['Менеджер по продажам', 'Водитель-экспедитор']);
  });

  it('refuses a second record with the board id of an earlier one in the same file', async () => {
    const companyId = await world().company();
    const [one] = vacancyRecords();
    const result = await importVacancies(companyId, [one as JobBoardRecord<JobBoardVacancy>, { ...(one as JobBoardRecord<JobBoardVacancy>), index: 1 }]);
    expect(result).to.deep.include({ created: 1 });
    expect(result.rejected).to.deep.equal([{ index: 1, boardId: '118204771', message: 'repeats board id 118204771 of record 0', problems: [] }]);
  });

  it('imports resumes as candidates in the first column of the vacancy, source the label, no letter, no externalId', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId, { title: 'Frontend' });
    await world().use('setBoardColumns').execute({ companyId, vacancyId: vacancy.id, columns: ['Отклик', 'Интервью'] });
    const result = await importResumes(companyId, vacancy.id, resumeRecords(), 'hh');
    expect(result).to.deep.include({ created: 2, updated: 0, unchanged: 0, rejected: [] });
    for (const record of result.records) {
      const card = await world().candidate(companyId, record.id);
      expect(card && presentCandidate(card)).to.deep.include({ vacancyId: vacancy.id, vacancyTitle: 'Frontend', stage: 'Отклик' });
      const { vacancyId: _v, vacancyTitle: _t, stage: _s, ...rest } = withoutIdentity(presentCandidate(card as NonNullable<typeof card>));
      expect(rest).to.deep.equal(EXPECTED_CANDIDATES[record.boardId]);
    }
  });

  it('refreshes a re-imported resume wherever its card stands, moving updatedAt only when the board changed it', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    const first = await importResumes(companyId, vacancy.id, resumeRecords(), 'hh-kz');
    const id = first.records[0]?.id as string;
    await world().use('moveCandidate').execute({ companyId, id, stage: 'INTERVIEW' });
    const before = await world().allCandidates(companyId);
    world().clock.advance(60_000);
    const again = await importResumes(companyId, vacancy.id, resumeRecords(), 'hh-kz');
    expect(again).to.deep.include({ created: 0, updated: 0, unchanged: 2 });
    expect(await world().allCandidates(companyId)).to.deep.equal(before);

    const items = hhSample(HH_RESUMES_FILE).items;
    items[0] = { ...items[0], title: 'Senior Frontend-разработчик' };
    const changedAt = world().clock.advance(60_000);
    const changed = await importResumes(companyId, vacancy.id, resumeRecords(items), 'hh-kz');
    expect(changed).to.deep.include({ created: 0, updated: 1, unchanged: 1 });
    const card = await world().candidate(companyId, id);
    expect(card).to.deep.include({ stage: 'INTERVIEW', source: 'hh-kz' });
    expect(card?.resume.role).to.equal('Senior Frontend-разработчик');
    expect(card?.updatedAt.toISOString()).to.equal(changedAt.toISOString());
  });

  it('reports a resume the domain refuses and keeps the others', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    const items = hhSample(HH_RESUMES_FILE).items;
    items[1] = { ...items[1], birth_date: '1999-02-30' };
    const result = await importResumes(companyId, vacancy.id, resumeRecords(items));
    expect(result).to.deep.include({ created: 1 });
    expect(result.rejected.map((r) => [r.index, r.boardId, r.problems.map((p) => p.pointer)])).to.deep.equal([
      [1, '0c4f7a1b9e2d43a8b1f0aa77c3d2e1f0a9b8c7', ['/candidate/birthDate']],
    ]);
  });

  it('refuses resumes for a vacancy the company does not have', async () => {
    const companyId = await world().company();
    expect(await rejectionOf(importResumes(companyId, 'no-such-vacancy', resumeRecords()))).to.be.instanceOf(NotFoundError);
    expect(await world().allCandidates(companyId)).to.deep.equal([]);
  });
});
