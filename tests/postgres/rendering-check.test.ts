import { expect } from 'chai';
import { tmpdir } from 'node:os';
import type { Container } from 'inversify';
import { pino } from 'pino';
import type { PortToken } from '../../application/ports/port-token.js';
import { PgRenderingCheck } from '../../adapters/persistence/postgres/pg-rendering-check.js';
import type { RenderedKind, StaleRendering } from '../../application/ports/rendering-check.port.js';
import type { CheckRenderingsResult } from '../../application/use-cases/check-renderings.use-case.js';
import { buildContainer, disposeContainer } from '../../infrastructure/container/build-container.js';
import { resolve } from '../../infrastructure/container/typed-binding.js';
import { USE_CASES } from '../../infrastructure/container/use-case.tokens.js';
import { aPerson, aReferral, aResume, aVacancyInput, anApplication } from '../support/builders.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { sqlOn } from '../support/sql.js';

/** Text that JSON escapes, or that a careless encoding would change. */
const AWKWARD = 'Ёлкина "Ё" \\ путь 😀 line\nbreak\ttab';
/** More cards than one batch of the check (1,000), so that it has to go on after the first. */
const BULK_CARDS = 1_100;

/**
 * ADR 18: every listed record's API JSON is rendered when the record is written. The check compares every
 * stored rendering with what the presenters render from the row now; it must find nothing after writes of
 * every kind through the use cases, find what SQL changed behind their back, and repair it.
 */
describe('Stored renderings against the presenters (PostgreSQL)', function () {
  this.timeout(120_000);
  const database = usePostgresTestDatabase();
  let container: Container;
  let companyId: string;

  const check = (repair = false) => resolve(container, USE_CASES.checkRenderings).execute({ repair });
  const sql = <T extends object[]>(text: string, params: unknown[] = []) => sqlOn(database().databases.business)<T>(text, params);
  const clean = (result: CheckRenderingsResult) => result.vacancies.differing === 0 && result.candidates.differing === 0;

  before(async () => {
    const url = database().businessUrl;
    container = await buildContainer({ profile: 'postgres', logger: pino({ level: 'silent' }), config: { databaseUrl: url, keysDatabaseUrl: url, dataDir: tmpdir() } });
    companyId = (await resolve(container, USE_CASES.createCompany).execute({ name: 'ТОО «Рендеринг»' })).id;
    await writeEveryKind();
  });
  after(async () => {
    if (container !== undefined) await disposeContainer(container);
  });

  /** Writes of every kind a record's rendering must follow, each through its use case. */
  async function writeEveryKind(): Promise<void> {
    const use = <T>(token: PortToken<T>) => resolve(container, token);
    const upsert = use(USE_CASES.upsertVacancies);
    // Vacancy inserts, and an update of every field the upsert replaces.
    const [main, other, doomed] = await upsert.execute({
      companyId,
      vacancies: [aVacancyInput({ title: 'Бухгалтер', city: AWKWARD }), aVacancyInput({ title: 'Юрист' }), aVacancyInput({ title: 'Удаляемая' })],
    });
    const mainId = main?.id as string;
    await upsert.execute({ companyId, vacancies: [{ ...aVacancyInput({ title: 'Главный бухгалтер', status: 'paused', skills: [AWKWARD], salaryFrom: 1.5 }), id: mainId }] });

    // A card alone (insert), many at once (insertMany), an application (insertApplications), a job-board resume.
    const [manual] = await use(USE_CASES.addCandidates).execute({
      companyId,
      candidates: [{ vacancyId: mainId, candidate: aPerson({ name: AWKWARD, citizenship: ['KZ', 'UZ'] }), resume: aResume({ summary: AWKWARD }), referral: aReferral() }],
    });
    const { ids: bulk } = await use(USE_CASES.importCandidateBatch).execute({
      companyId,
      candidates: Array.from({ length: BULK_CARDS }, (_, i) => ({
        vacancyId: i % 2 === 0 ? mainId : (other?.id as string),
        origin: i % 3 === 0 ? { kind: 'application' as const, externalId: `bulk-${i}`, source: 'career-portal', coverLetter: `Письмо №${i}` } : { kind: 'manual' as const },
        person: aPerson({ name: `Кандидат ${i}` }),
        resume: aResume({ experienceYears: i % 7 }),
        referral: i % 5 === 0 ? aReferral() : null,
      })),
    });
    const applied = await use(USE_CASES.submitApplication).execute({
      companyId,
      application: anApplication({ vacancyId: mainId, coverLetter: AWKWARD, referral: aReferral({ relationship: AWKWARD }) }),
    });
    const importResumes = use(USE_CASES.importJobBoardResumes);
    const record = (summary: string) => ({ index: 0, boardId: 'resume-1', content: { person: aPerson({ name: 'Из базы резюме' }), resume: aResume({ summary }) } });
    await importResumes.execute({ companyId, source: 'hh', vacancyId: mainId, records: [record('Первая версия')] });
    // Imported again with another resume: an update of the stored card.
    await importResumes.execute({ companyId, source: 'hh', vacancyId: mainId, records: [record('Вторая версия')] });

    // Updates: a move, a resume replaced, a transfer (a technical card, which keeps no rendering).
    await use(USE_CASES.moveCandidate).execute({ companyId, id: manual?.id as string, stage: 'INTERVIEW' });
    await use(USE_CASES.updateResume).execute({ companyId, id: applied.id, resume: aResume({ summary: 'Новое резюме', skills: [AWKWARD] }) });
    await use(USE_CASES.transferCandidate).execute({ companyId, id: bulk[1] as string, vacancyId: doomed?.id as string });

    // A vacancy deleted with cards on it: they stay, detached, modified now.
    await use(USE_CASES.addCandidates).execute({ companyId, candidates: [{ vacancyId: doomed?.id as string, candidate: aPerson(), resume: aResume(), referral: null }] });
    await use(USE_CASES.deleteVacancy).execute({ companyId, id: doomed?.id as string });
  }

  it('finds every rendering as the presenters render it after writes of every kind through the use cases', async () => {
    const [counts] = await sql<{ vacancies: number; listed: number; technical: number; detached: number }[]>(
      `select (select count(*)::int from vacancies) as vacancies, (select count(*)::int from candidates where not technical) as listed,
              (select count(*)::int from candidates where technical) as technical, (select count(*)::int from candidates where vacancy_id is null and not technical) as detached`,
    );
    expect(counts?.technical, 'the transfer left a technical card').to.equal(1);
    expect(counts?.detached, 'the deletion detached a card').to.equal(1);
    expect(await check()).to.deep.equal({
      vacancies: { checked: counts?.vacancies, differing: 0 },
      candidates: { checked: counts?.listed, differing: 0 },
      repaired: 0,
      stillDiffering: 0,
      differing: [],
    });
  });

  it('finds a rendering changed by SQL and a row changed without its rendering, past the first batch, and repair rewrites them', async () => {
    const [vacancy] = await sql<{ id: string }[]>('select id from vacancies where company_id = ? order by id limit 1', [companyId]);
    // The last card in the check's order: in its second batch.
    const [card] = await sql<{ id: string }[]>('select id from candidates where company_id = ? and not technical order by company_id desc, id desc limit 1', [companyId]);
    await sql("update vacancies set rendering = replace(rendering, '\"status\":', '\"status\": ') where company_id = ? and id = ?", [companyId, vacancy?.id]);
    // A hand edit of a column: the stored rendering still shows the old stage.
    await sql("update candidates set stage = 'OFFER' where company_id = ? and id = ?", [companyId, card?.id]);

    const found = await check();
    expect(found.vacancies.differing).to.equal(1);
    expect(found.candidates.differing).to.equal(1);
    expect(found.candidates.checked).to.be.greaterThan(BULK_CARDS);
    expect(found.repaired).to.equal(0);
    expect(found.differing).to.deep.equal([
      { kind: 'vacancy', companyId, id: vacancy?.id },
      { kind: 'candidate', companyId, id: card?.id },
    ]);
    expect(clean(await check()), 'a check without repair changes nothing').to.equal(false);

    const repaired = await check(true);
    expect(repaired).to.deep.include({ repaired: 2, stillDiffering: 0, differing: found.differing });
    expect(await check()).to.deep.include({ repaired: 0, differing: [] });

    const [rendering] = await sql<{ rendering: string }[]>('select rendering from candidates where company_id = ? and id = ?', [companyId, card?.id]);
    expect(JSON.parse(`{${rendering?.rendering}`)).to.include({ stage: 'OFFER' });
  });

  it('counts every differing record, names the first 20 in order, vacancies first, and reports progress kind by kind', async () => {
    await sql("update candidates set rendering = rendering || ' ' where company_id = ? and not technical and id in (select id from candidates where company_id = ? and not technical order by id limit 25)", [companyId, companyId]);
    await sql("update vacancies set rendering = '{}' where company_id = ?", [companyId]);
    const [{ vacancies } = { vacancies: 0 }] = await sql<{ vacancies: number }[]>('select count(*)::int as vacancies from vacancies where company_id = ?', [companyId]);
    const firstCards = await sql<{ id: string }[]>('select id from candidates where company_id = ? and not technical order by company_id, id limit ?', [companyId, 20 - vacancies]);
    const vacancyIds = await sql<{ id: string }[]>('select id from vacancies where company_id = ? order by company_id, id', [companyId]);

    const events: string[] = [];
    const progress = {
      begin: (kind: RenderedKind, total: number) => events.push(`begin ${kind} ${total}`),
      advance: (count: number) => events.push(`advance ${count}`),
      end: () => events.push('end'),
    };
    const found = await resolve(container, USE_CASES.checkRenderings).execute({ repair: false, progress });
    expect(found.vacancies.differing).to.equal(vacancies);
    expect(found.candidates.differing).to.equal(25);
    expect(found.differing).to.deep.equal([
      ...vacancyIds.map(({ id }) => ({ kind: 'vacancy', companyId, id })),
      ...firstCards.map(({ id }) => ({ kind: 'candidate', companyId, id })),
    ]);
    expect(events).to.deep.equal([
      `begin vacancy ${found.vacancies.checked}`,
      `advance ${found.vacancies.checked}`,
      'end',
      `begin candidate ${found.candidates.checked}`,
      'advance 1000',
      `advance ${found.candidates.checked - 1000}`,
      'end',
    ]);

    expect((await check(true)).repaired).to.equal(vacancies + 25);
    expect(clean(await check())).to.equal(true);
  });

  it('finds rows without renderings (the previous version\'s, before the backfill) past the first batch, and repair fills every one', async () => {
    await sql('update vacancies set rendering = null where company_id = ?', [companyId]);
    await sql('update candidates set rendering = null where company_id = ?', [companyId]);
    const [{ vacancies, listed } = { vacancies: 0, listed: 0 }] = await sql<{ vacancies: number; listed: number }[]>(
      'select (select count(*)::int from vacancies) as vacancies, (select count(*)::int from candidates where not technical) as listed',
    );

    const found = await check();
    expect(found).to.deep.include({ vacancies: { checked: vacancies, differing: vacancies }, candidates: { checked: listed, differing: listed }, repaired: 0 });
    const repaired = await check(true);
    expect(repaired).to.deep.include({ repaired: vacancies + listed, stillDiffering: 0 });
    const [left] = await sql<{ vacancies: number; listed: number; technical: number }[]>(
      `select (select count(*)::int from vacancies where rendering is null) as vacancies,
              (select count(*)::int from candidates where not technical and rendering is null) as listed,
              (select count(*)::int from candidates where technical and rendering is not null) as technical`,
    );
    expect(left).to.deep.equal({ vacancies: 0, listed: 0, technical: 0 });
    expect(clean(await check())).to.equal(true);
  });

  it('reads the repaired records again and counts those a writer without renderings changed meanwhile as still differing', async () => {
    const [card] = await sql<{ id: string }[]>('select id from candidates where company_id = ? and not technical order by id limit 1', [companyId]);
    await sql('update candidates set rendering = null where company_id = ? and id = ?', [companyId, card?.id]);
    // An instance of the previous version writing the card as the repair does: the rendering it rewrites is lost.
    await sql(`create function forget_rendering() returns trigger language plpgsql as $$ begin new.rendering := null; return new; end $$`);
    await sql(`create trigger previous_version before update on candidates for each row when (new.id = '${card?.id}') execute function forget_rendering()`);
    try {
      const repaired = await check(true);
      expect(repaired).to.deep.include({ repaired: 1, stillDiffering: 1, differing: [{ kind: 'candidate', companyId, id: card?.id }] });
    } finally {
      await sql('drop trigger previous_version on candidates');
      await sql('drop function forget_rendering()');
    }
    expect(await check(true)).to.deep.include({ repaired: 1, stillDiffering: 0 });
    expect(clean(await check())).to.equal(true);
  });

  it('does not store a text rendered from columns that another writer changed between the read and the rewrite, and counts it still differing', async () => {
    const [card] = await sql<{ id: string }[]>('select id from candidates where company_id = ? and not technical order by id limit 1', [companyId]);
    const [vacancy] = await sql<{ id: string }[]>('select id from vacancies where company_id = ? order by id limit 1', [companyId]);
    await sql("update candidates set rendering = rendering || ' ' where company_id = ? and id = ?", [companyId, card?.id]);
    await sql("update vacancies set rendering = rendering || ' ' where company_id = ? and id = ?", [companyId, vacancy?.id]);
    const renderingOf = async (table: string, id: string | undefined) =>
      (await sql<{ rendering: string }[]>(`select rendering from ${table} where company_id = ? and id = ?`, [companyId, id]))[0]?.rendering;
    const storedCard = await renderingOf('candidates', card?.id);
    const storedVacancy = await renderingOf('vacancies', vacancy?.id);

    // An instance of the previous version, between the check's read and its rewrite: the columns and the
    // position change, the rendering stays.
    const written: string[] = [];
    const previousVersionWrites = async () => {
      if (written.length === 0) {
        await sql("update candidates set stage = 'OFFER', card_updated_at = card_updated_at + interval '1 second' where company_id = ? and id = ?", [companyId, card?.id]);
        written.push('candidate');
      } else if (written.length === 1) {
        await sql("update vacancies set title = 'Переименована по-старому', updated_at = updated_at + interval '1 second' where company_id = ? and id = ?", [companyId, vacancy?.id]);
        written.push('vacancy');
      }
    };
    const checker = new PgRenderingCheck(database().databases.business, previousVersionWrites);
    const scanned = { repaired: 0, stillDiffering: [] as StaleRendering[] };
    for (const kind of ['candidate', 'vacancy'] as const) {
      for await (const batch of checker.scan(kind, { repair: true })) {
        scanned.repaired += batch.repaired;
        scanned.stillDiffering.push(...batch.stillDiffering);
      }
    }
    expect(written).to.deep.equal(['candidate', 'vacancy']);
    expect(scanned).to.deep.equal({
      repaired: 0,
      stillDiffering: [
        { kind: 'candidate', companyId, id: card?.id },
        { kind: 'vacancy', companyId, id: vacancy?.id },
      ],
    });
    expect(await renderingOf('candidates', card?.id), 'the text rendered before the write is not stored').to.equal(storedCard);
    expect(await renderingOf('vacancies', vacancy?.id)).to.equal(storedVacancy);

    // Run again, it renders them from the columns as they are now.
    expect(await check(true)).to.deep.include({ repaired: 2, stillDiffering: 0 });
    expect(JSON.parse(`{${await renderingOf('candidates', card?.id)}`)).to.include({ stage: 'OFFER' });
    expect(JSON.parse((await renderingOf('vacancies', vacancy?.id)) as string)).to.include({ title: 'Переименована по-старому' });
    expect(clean(await check())).to.equal(true);
  });
});
