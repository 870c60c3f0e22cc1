import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CandidateJson } from '../../adapters/presenters/candidate.presenter.js';
import type { AdminVacancyJson } from '../../adapters/presenters/vacancy.presenter.js';
import { CANDIDATE_FIELDS, ISO_MS, PERSON_FIELDS, RESUME_FIELDS, VACANCY_FIELDS, useAdminDatabase } from './support/admin-database.js';
import { errorOf, jsonOf } from './support/run-admin.js';

describe('admin CLI: vacancies, candidates and boards (processes on PostgreSQL)', function () {
  this.timeout(120_000);
  const admin = useAdminDatabase();
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'admin-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, content: unknown) => {
    const full = path.join(dir, name);
    writeFileSync(full, typeof content === 'string' ? content : JSON.stringify(content));
    return full;
  };

  it('drives vacancies, cards and boards end to end, printing the API shapes, and refuses what it must', async () => {
    const run = admin().run;
    const companyId = jsonOf<{ id: string }>(await run(['company', 'create', '--name', 'ТОО «Каспиан Софт»'])).id;

    // vacancy upsert: an array from a file, in input order, the API's Vacancy plus recruiter.
    const created = jsonOf<AdminVacancyJson[]>(await run(['vacancy', 'upsert', '--company', companyId, '--file', file('vacancies.json', [
      {
        id: 'vac-kz-1', title: 'Backend-разработчик', status: 'open', city: 'Алматы', workFormats: ['Удалённо', 'В офисе'],
        salaryFrom: null, salaryTo: 900000, salaryCurrency: 'KZT', description: '<p>API &amp; базы</p>', skills: ['Node.js'],
        publishedAt: '2026-10-03T09:41:12+05:00', recruiter: 'Айдана Касымова', createdAt: '2000-01-01T00:00:00Z',
      },
      { title: 'Водитель', status: 'draft', workFormat: 'other' },
    ])]));
    expect(created.map((v) => Object.keys(v))).to.deep.equal([[...VACANCY_FIELDS, 'recruiter'], [...VACANCY_FIELDS, 'recruiter']]);
    const [a, b] = created as [AdminVacancyJson, AdminVacancyJson];
    expect(a).to.deep.include({
      id: 'vac-kz-1', workFormat: 'hybrid', salaryFrom: 900000, salaryTo: 900000, responsibilities: 'API & базы',
      publishedAt: '2026-10-03T04:41:12.000Z', recruiter: 'Айдана Касымова', officeAddress: null, languages: [],
    });
    expect(a.createdAt).to.match(ISO_MS).and.not.equal('2000-01-01T00:00:00.000Z');
    expect(b).to.deep.include({ title: 'Водитель', status: 'draft', workFormat: 'other', recruiter: null, workFormats: [], description: null });

    // vacancy upsert from standard input, replacing the first whole: fields not given become null or empty.
    const replaced = jsonOf<AdminVacancyJson[]>(await run(['vacancy', 'upsert', '--company', companyId, '--file', '-'], {
      input: JSON.stringify({ id: 'vac-kz-1', title: 'Backend-разработчик (Node.js)', status: 'paused' }),
    }));
    expect(replaced).to.have.length(1);
    expect(replaced[0]).to.deep.include({ id: 'vac-kz-1', status: 'paused', city: null, workFormat: null, salaryTo: null, skills: [], recruiter: null, createdAt: a.createdAt });
    expect(Date.parse(replaced[0]?.updatedAt as string)).to.be.greaterThan(Date.parse(a.updatedAt));

    // A batch is checked whole: type problems and domain problems name the record and field; nothing is stored.
    // The two batch failures as processes, for their exit status; the rest in process, where they are cheap.
    const inProcess = admin().runInProcess;
    const failures = [
      ...(await Promise.all([
        run(['vacancy', 'upsert', '--company', companyId, '--file', file('types.json', [
          { id: 'vac-new', title: 'Новая', status: 'open' }, { title: 5, status: 'open', salaryFrom: '100' }, { title: 'x', status: 'soon' },
        ])]),
        run(['vacancy', 'upsert', '--company', companyId, '--file', file('domain.json', [
          { id: 'vac-new', title: 'Новая', status: 'open' }, { title: 'Склад', status: 'open', salaryFrom: 500, salaryTo: 100 },
        ])]),
      ])),
      await inProcess(['vacancy', 'upsert', '--company', companyId, '--file', path.join(dir, 'missing.json')]),
      await inProcess(['vacancy', 'upsert', '--company', companyId, '--file', file('broken.json', '[{"title": ')]),
      await inProcess(['vacancy', 'upsert', '--company', 'no-such-company', '--file', file('one.json', { title: 'a', status: 'open' })]),
      await inProcess(['vacancy', 'delete', '--company', companyId, '--id', 'no-such-vacancy']),
    ];
    const lines = failures.map(errorOf);
    expect(lines[0]).to.equal('error: The file is invalid; nothing was stored. /1/title: must be a string; /1/salaryFrom: must be a number or null; /2/status: must be one of open, paused, closed, archived, draft');
    expect(lines[1]).to.equal('error: The batch is invalid; nothing was stored. /1/salaryFrom: must not be greater than salaryTo');
    expect(lines[2]).to.equal(`error: Cannot read ${path.join(dir, 'missing.json')}: no such file.`);
    expect(lines[3]).to.match(/^error: .*broken\.json is not valid JSON: /);
    expect(lines[4]).to.equal('error: Company no-such-company not found.');
    expect(lines[5]).to.equal('error: Vacancy no-such-vacancy not found.');
    expect(failures.every((f) => f.status === 1 && f.stdout === '')).to.equal(true);
    expect((await admin().vacancies(companyId)).map((v) => v.id).sort()).to.deep.equal([b.id, 'vac-kz-1'].sort());

    // candidate add: manual cards, the API's Candidate shape, first column unless a stage is given.
    const cards = jsonOf<CandidateJson[]>(await run(['candidate', 'add', '--company', companyId, '--file', file('cards.json', [
      {
        vacancyId: 'vac-kz-1', stage: 'INTERVIEW',
        candidate: { name: 'Айгерим Сейткали', email: 'aigerim@example.kz', citizenship: ['Казахстан'] },
        resume: { role: 'Frontend', experience: [{ company: 'ТОО «Номад»', role: 'Dev' }], education: [{ institution: 'КазНУ' }] },
        referral: { name: 'Ержан Сапаров', relationship: 'бывший коллега' },
      },
      { vacancyId: b.id, candidate: { name: 'Тимур Рашидов' } },
    ])]));
    expect(cards.map((c) => Object.keys(c))).to.deep.equal([CANDIDATE_FIELDS, CANDIDATE_FIELDS]);
    expect(Object.keys(cards[0]?.candidate ?? {})).to.deep.equal(PERSON_FIELDS);
    expect(Object.keys(cards[0]?.resume ?? {})).to.deep.equal(RESUME_FIELDS);
    const [first, second] = cards as [CandidateJson, CandidateJson];
    expect(first).to.deep.include({ vacancyId: 'vac-kz-1', vacancyTitle: 'Backend-разработчик (Node.js)', stage: 'INTERVIEW', source: 'manual', externalId: null, coverLetter: null });
    expect(first.resume.experience).to.deep.equal([{ company: 'ТОО «Номад»', role: 'Dev', period: '', description: '' }]);
    expect(first.resume.education).to.deep.equal([{ institution: 'КазНУ', degree: '', period: '' }]);
    expect(first.referral).to.deep.equal({ name: 'Ержан Сапаров', email: null, phone: null, company: null, relationship: 'бывший коллега' });
    expect(second).to.deep.include({ vacancyId: b.id, stage: 'NEW', referral: null });
    expect([first.createdAt, first.updatedAt]).to.satisfy((ts: string[]) => ts.every((t) => ISO_MS.test(t)));

    const refused = [
      await inProcess(['candidate', 'add', '--company', companyId, '--file', '-'], {
        input: JSON.stringify([{ vacancyId: b.id, candidate: { name: 'Ок' } }, { vacancyId: b.id, candidate: { name: 'Б', email: 42 } }]),
      }),
      await inProcess(['candidate', 'add', '--company', companyId, '--file', file('no-vacancy.json', [{ vacancyId: b.id, candidate: { name: 'Ок' } }, { vacancyId: 'gone', candidate: { name: 'Б', email: 'not-an-email' } }])]),
      await inProcess(['candidate', 'update-resume', '--company', companyId, '--id', 'no-such-card', '--file', file('resume.json', { role: 'x' })]),
      await inProcess(['candidate', 'move', '--company', companyId, '--id', second.id, '--stage', 'HIRED']),
      await inProcess(['candidate', 'transfer', '--company', companyId, '--id', second.id, '--vacancy', 'no-such-vacancy']),
      await inProcess(['board', 'set-columns', '--company', companyId, '--vacancy', b.id, '--columns', 'Новые,Звонок']),
      await inProcess(['candidate', 'delete', '--company', 'no-such-company', '--id', second.id]),
    ];
    const reasons = refused.map(errorOf);
    expect(reasons[0]).to.equal('error: The file is invalid; nothing was stored. /1/candidate/email: must be a string or null');
    expect(reasons[1]).to.equal('error: The batch is invalid; nothing was stored. /1/vacancyId: no vacancy gone in this company');
    expect(reasons[2]).to.equal('error: Candidate no-such-card not found.');
    expect(reasons[3]).to.equal('error: The board has no column "HIRED"; its columns are NEW, AI_DIALOG, INTERVIEW, OFFER, ONBOARDING, REJECTION.');
    expect(reasons[4]).to.equal('error: Vacancy no-such-vacancy not found.');
    expect(reasons[5]).to.equal('error: Columns NEW still hold cards; move them before removing the columns.');
    expect(reasons[6]).to.equal('error: Company no-such-company not found.');
    expect(refused.map((r) => [r.status, r.stdout])).to.deep.equal(Array.from({ length: 7 }, () => [1, '']));
    expect((await admin().candidates(companyId)).map((c) => c.id).sort()).to.deep.equal([first.id, second.id].sort());

    // update-resume from standard input: only the resume changes.
    const updated = jsonOf<CandidateJson>(await run(['candidate', 'update-resume', '--company', companyId, '--id', first.id, '--file', '-'], {
      input: JSON.stringify({ role: 'Senior Frontend', skills: ['React'], languages: [{ name: 'Казахский', level: 'Родной' }] }),
    }));
    expect(updated).to.deep.include({ id: first.id, stage: 'INTERVIEW', referral: first.referral, candidate: first.candidate });
    expect(updated.resume).to.deep.include({ role: 'Senior Frontend', skills: ['React'], experience: [], languages: [{ name: 'Казахский', level: 'Родной' }] });

    // board set-columns, then a move onto a new column.
    const board = jsonOf(await run(['board', 'set-columns', '--company', companyId, '--vacancy', b.id, '--columns', 'NEW, Звонок,Собеседование']));
    expect(board).to.deep.equal({ vacancyId: b.id, columns: ['NEW', 'Звонок', 'Собеседование'] });
    const moved = jsonOf<CandidateJson>(await run(['candidate', 'move', '--company', companyId, '--id', second.id, '--stage', 'Звонок']));
    expect(moved).to.deep.include({ id: second.id, stage: 'Звонок', vacancyTitle: 'Водитель' });

    // transfer: a technical card on the other board, never listed.
    const transfer = jsonOf<{ technicalCardId: string }>(await run(['candidate', 'transfer', '--company', companyId, '--id', first.id, '--vacancy', b.id]));
    expect(Object.keys(transfer)).to.deep.equal(['technicalCardId']);
    expect((await admin().database.adapters().candidates.findById(companyId, transfer.technicalCardId))?.toSnapshot()).to.deep.include({ technical: true, vacancyId: b.id, stage: 'NEW' });
    expect((await admin().candidates(companyId)).map((c) => c.id).sort()).to.deep.equal([first.id, second.id].sort());
    // A repeated transfer prints the technical card already there; one to the card's own vacancy is refused.
    expect(jsonOf(await inProcess(['candidate', 'transfer', '--company', companyId, '--id', first.id, '--vacancy', b.id]))).to.deep.equal(transfer);
    const ownVacancy = await inProcess(['candidate', 'transfer', '--company', companyId, '--id', first.id, '--vacancy', first.vacancyId as string]);
    expect([ownVacancy.status, errorOf(ownVacancy)]).to.deep.equal([1, `error: Candidate ${first.id} already belongs to vacancy ${first.vacancyId}; a transfer needs another vacancy.`]);

    // vacancy delete: its cards stay, without a vacancy, and can no longer be moved.
    expect(jsonOf(await run(['vacancy', 'delete', '--company', companyId, '--id', 'vac-kz-1']))).to.deep.equal({ id: 'vac-kz-1', deleted: true });
    const orphan = (await admin().candidates(companyId)).find((c) => c.id === first.id);
    expect(orphan).to.deep.include({ vacancyId: null, vacancyTitle: null, stage: null });
    expect(errorOf(await inProcess(['candidate', 'move', '--company', companyId, '--id', first.id, '--stage', 'NEW']))).to.equal(
      `error: Candidate ${first.id} has no vacancy (it was deleted), so it has no board to move on.`,
    );

    // candidate delete: the card and its technical copy are gone; a second delete is refused.
    expect(jsonOf(await run(['candidate', 'delete', '--company', companyId, '--id', first.id]))).to.deep.equal({ id: first.id, deleted: true });
    expect(await admin().database.adapters().candidates.findById(companyId, transfer.technicalCardId)).to.equal(null);
    expect((await admin().candidates(companyId)).map((c) => c.id)).to.deep.equal([second.id]);
    expect(errorOf(await inProcess(['candidate', 'delete', '--company', companyId, '--id', first.id]))).to.equal(`error: Candidate ${first.id} not found.`);
  });
});
