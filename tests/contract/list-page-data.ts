import { ADMIN_CLI_ACTOR } from '../../application/use-cases/actor.js';
import { mapHhResume } from '../../adapters/job-board/hh-resume.mapper.js';
import type { JobBoardRecord } from '../../application/use-cases/import-job-board-result.js';
import type { JobBoardResume } from '../../application/use-cases/import-job-board-resumes.use-case.js';
import type { VacancyUpsert } from '../../application/use-cases/upsert-vacancies.use-case.js';
import { resumeOf } from '../../domain/candidate/resume.js';
import { at } from '../support/builders.js';
import { ALL_SCOPES } from '../support/http-fixtures.js';
import type { ManualClock } from '../support/manual-clock.js';
import type { ServiceOnAdapters } from '../support/service-on-adapters.js';
import {
  bareReferral, barePerson, bareVacancy, EMOJI, emptyStringsVacancy, ESCAPED_TEXT, fullPerson, fullReferral, fullResume, fullVacancy,
  lowResume, vacanciesOfEveryStatus,
} from './list-page-records.js';

/** Ids of the vacancy alphabet that one instant holds, so that only the id orders them: case, digits, punctuation, 64 characters. */
const TIED_VACANCY_IDS = ['a', 'A', 'z', 'Z', '0', '9', '-', '.', ':', '_', 'a-b', 'a.b', 'a:b', 'a_b', 'x'.repeat(64)];
/**
 * Card ids as the platform feed gives them (any text), at one instant: ASCII, Cyrillic, Latin beyond ASCII,
 * and characters beyond the BMP. Left out while they fail (domain/paging/cursor.ts): ids with characters from
 * U+E000 to U+FFFF beside ids beyond the BMP ("ｚ" and "😀"), which comparePositions, and so the in-memory
 * adapter, orders by UTF-16 code unit and PostgreSQL's "C" collation by UTF-8 byte, the other way round; and
 * ids longer than 64 UTF-16 code units (33 emoji, which the feed admits), whose cursor decodeCursor refuses.
 */
const TIED_CARD_IDS = ['card-a', 'Card-B', 'карточка', 'ǅ-card', 'ж'.repeat(64), '😀-card', '𝒳-card'];
const CUSTOM_COLUMNS = ['Новые 🆕', 'Suhbat', 'Offer ✅'];

function hhRecord(raw: Record<string, unknown>): JobBoardRecord<JobBoardResume> {
  const mapped = mapHhResume(raw, 1);
  if (!mapped.ok) throw new Error(`the board record is refused: ${mapped.rejection.message}`);
  return mapped.record;
}

export interface ListPageData {
  readonly companyId: string;
  /** A key of the company with every scope. */
  readonly key: string;
  /** Vacancy ids to filter candidates by: with cards, with only a technical card, deleted, never there. */
  readonly candidateFilters: readonly string[];
  /** Instants to list from: before, at and after writes, and after the last. */
  readonly sinces: readonly Date[];
  /** Cards listed at the end: every card but the technical one and the deleted one. */
  readonly listedCards: number;
  /** Vacancies at the end. */
  readonly vacancies: number;
}

/**
 * Writes one company's records through the use cases, each at an instant the test sets, so that two stores
 * given the same clock readings and the same id sequence end up holding the same data. Covers the ways a
 * record comes and changes: a batch of every status, a custom board, cards of every origin (manual, given
 * ids, applications with and without a referral, job-board imports, a bulk load), a transfer's technical card,
 * moves, resume updates (one stamped before the card's move), a rename, an unchanged replace, a re-import,
 * a deleted vacancy whose cards stay detached and a deleted card.
 */
export async function writeListPageData(service: ServiceOnAdapters, clock: ManualClock): Promise<ListPageData> {
  const step = (ms: number) => clock.set(at(ms));
  step(0);
  const { id: companyId } = await service.use('createCompany').execute({ name: `ТОО «Тест» ${EMOJI}` });
  const { key } = await service.use('issueKey').execute({ companyId, scopes: ALL_SCOPES, name: 'pages', expiresAt: null, actor: ADMIN_CLI_ACTOR });
  const upsert = (vacancies: VacancyUpsert[]) => service.use('upsertVacancies').execute({ companyId, vacancies });

  step(1_000);
  await upsert(vacanciesOfEveryStatus());
  step(1_001);
  await upsert(TIED_VACANCY_IDS.map((id) => bareVacancy('open', id, `Tie ${id}`)));
  step(1_002);
  await upsert([emptyStringsVacancy('empty-strings'), bareVacancy('draft', 'long-title', '😀'.repeat(300)), fullVacancy('archived', 'deleted-later')]);
  step(2_000);
  const { id: _vacancyId, recruiter: _recruiter, sourceRef: _sourceRef, ...boardVacancy } = fullVacancy('open');
  await service.use('importJobBoardVacancies').execute({ companyId, source: 'hh', records: [{ index: 0, boardId: '555', content: boardVacancy }] });
  step(3_000);
  await service.use('setBoardColumns').execute({ companyId, vacancyId: 'full-open', columns: CUSTOM_COLUMNS });

  step(4_000);
  const manual = await service.use('addCandidates').execute({
    companyId,
    candidates: [
      { vacancyId: 'full-open', candidate: fullPerson(), resume: fullResume(), referral: fullReferral() },
      { vacancyId: 'full-open', candidate: barePerson(), resume: lowResume(), referral: null, stage: 'Suhbat' },
      { vacancyId: 'bare-paused', candidate: fullPerson({ email: null, gender: null }), resume: resumeOf({}), referral: bareReferral() },
    ],
  });
  const [first, second, third] = manual.map((card) => card.id) as [string, string, string];
  step(4_001);
  await service.use('addCandidates').execute({
    companyId,
    candidates: TIED_CARD_IDS.map((id) => ({ id, vacancyId: 'bare-open', candidate: barePerson(id), resume: lowResume(), referral: null })),
  });

  step(5_000);
  const submit = service.use('submitApplication');
  await submit.execute({
    companyId,
    application: {
      externalId: `заявка-1 ${EMOJI}`, vacancyId: 'full-open', source: null, coverLetter: `${ESCAPED_TEXT} ${EMOJI}`,
      candidate: { name: 'Алишер Каримов', email: 'alisher@example.uz', phone: '+998 90 000 00 00', location: 'Samarqand', birthDate: '1990-01-31' },
      resume: fullResume(), referral: fullReferral(),
    },
  });
  await submit.execute({
    companyId,
    application: {
      externalId: 'ext-2', vacancyId: 'bare-paused', source: 'career-portal', coverLetter: null,
      candidate: { name: 'Ю', email: null, phone: null, location: null, birthDate: null }, resume: lowResume(), referral: bareReferral(),
    },
  });

  step(6_000);
  const resumes = service.use('importJobBoardResumes');
  await resumes.execute({
    companyId, source: 'hh', vacancyId: 'bare-open',
    records: [
      { index: 0, boardId: 'r1', content: { person: fullPerson(), resume: fullResume() } },
      // A board resume whose items leave every text out, mapped as `admin import` maps it (each text "").
      hhRecord({ id: 'r2', first_name: 'Ь', experience: [{}], education: { primary: [{}], additional: [{}] }, language: [{}], certificate: [{}], portfolio: [{}] }),
    ],
  });
  step(7_000);
  await service.use('importCandidateBatch').execute({
    companyId,
    candidates: [
      { vacancyId: 'full-closed', origin: { kind: 'manual' }, person: barePerson('M'), resume: lowResume(), referral: null },
      {
        vacancyId: 'full-closed', origin: { kind: 'application', externalId: 'batch-1', source: 'batch', coverLetter: EMOJI },
        person: fullPerson(), resume: fullResume(), referral: fullReferral(),
      },
      { vacancyId: 'deleted-later', origin: { kind: 'job-board', source: 'hh', sourceRef: 'hh:r3' }, person: fullPerson(), resume: fullResume(), referral: null },
      { vacancyId: 'deleted-later', stage: 'OFFER', origin: { kind: 'manual' }, person: barePerson('O'), resume: lowResume(), referral: bareReferral() },
    ],
  });

  step(8_000);
  await service.use('transferCandidate').execute({ companyId, id: first, vacancyId: 'full-paused' });
  step(9_000);
  await service.use('moveCandidate').execute({ companyId, id: first, stage: 'Offer ✅' });
  // A resume stamped before the card's move: the card is listed at the later of the two.
  step(8_500);
  await service.use('updateResume').execute({ companyId, id: first, resume: fullResume({ role: 'Lead' }) });
  step(9_500);
  await service.use('updateResume').execute({ companyId, id: second, resume: fullResume() });
  step(10_000);
  await upsert([{ ...fullVacancy('open'), title: 'Переименована ✏️' }]);
  step(10_001);
  await upsert([bareVacancy('paused')]);
  step(10_500);
  await resumes.execute({ companyId, source: 'hh', vacancyId: 'bare-open', records: [{ index: 0, boardId: 'r1', content: { person: fullPerson({ phone: null }), resume: fullResume() } }] });
  step(11_000);
  await service.use('deleteVacancy').execute({ companyId, id: 'deleted-later' });
  step(11_001);
  await service.use('deleteCandidate').execute({ companyId, id: third });
  step(12_000);

  return {
    companyId,
    key,
    candidateFilters: ['full-open', 'bare-open', 'bare-paused', 'full-closed', 'full-paused', 'deleted-later', 'missing'],
    sinces: [at(999), at(1_000), at(1_001), at(4_000), at(4_001), at(8_500), at(9_000), at(10_000), at(12_000)],
    listedCards: 3 + TIED_CARD_IDS.length + 2 + 2 + 4 - 1,
    vacancies: 10 + TIED_VACANCY_IDS.length + 3 + 1 - 1,
  };
}
