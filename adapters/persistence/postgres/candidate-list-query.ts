import type { EntityManager } from '@mikro-orm/postgresql';
import type { CandidateListQuery, CandidateView } from '../../../application/ports/candidate-repository.port.js';
import { readPerson, readReferral, readResume } from './row-mapping/json-documents.js';
import { TIMESTAMP_PARAM, dateFromMs, epochMs, timestampParams } from './sql-values.js';

interface CandidateListRow {
  id: string;
  vacancy_id: string | null;
  vacancy_title: string | null;
  stage: string | null;
  source: string;
  external_id: string | null;
  cover_letter: string | null;
  person: unknown;
  resume: unknown;
  referral: unknown;
  created_at_ms: number;
  modified_at_ms: number;
}

/**
 * One page of the keyset scan of listed (non-technical) cards in the order (modified_at, id), as plain
 * views with the vacancy's title joined at read time. modified_at is the stored, indexed
 * greatest(card_updated_at, resume_updated_at); ids compare in the "C" collation, by code unit.
 */
export async function listCandidateViews(em: EntityManager, query: CandidateListQuery): Promise<CandidateView[]> {
  const where = ['c.company_id = ?', 'not c.technical'];
  const params: unknown[] = [query.companyId];
  if (query.vacancyId !== null) {
    where.push('c.vacancy_id = ?');
    params.push(query.vacancyId);
  }
  if (query.since !== null) {
    where.push(`c.modified_at > ${TIMESTAMP_PARAM}`);
    params.push(...timestampParams(query.since));
  }
  if (query.after !== null) {
    where.push(`(c.modified_at, c.id) > (${TIMESTAMP_PARAM}, ?)`);
    params.push(...timestampParams(query.after.modifiedAt), query.after.id);
  }
  params.push(query.limit);
  // The page is cut first and only its rows are joined: with the join inside, near the end of a long list the
  // planner expects few rows after the cursor and hash-joins and sorts all of them (a page at 99% of a million
  // cards read every card after it); on its own the page is always the short walk of the sync index.
  const rows = await em.execute<CandidateListRow[]>(
    `select c.id, c.vacancy_id, v.title as vacancy_title, c.stage, c.source, c.external_id, c.cover_letter,
            c.person, c.resume, c.referral, ${epochMs('c.created_at')} as created_at_ms, ${epochMs('c.modified_at')} as modified_at_ms
       from (select c.company_id, c.id, c.vacancy_id, c.stage, c.source, c.external_id, c.cover_letter, c.person, c.resume, c.referral,
                    c.created_at, c.modified_at
               from candidates c
              where ${where.join(' and ')}
              order by c.modified_at, c.id
              limit ?) c
       left join vacancies v on v.company_id = c.company_id and v.id = c.vacancy_id
      order by c.modified_at, c.id`,
    params,
  );
  return rows.map(toView);
}

function toView(r: CandidateListRow): CandidateView {
  return {
    id: r.id,
    vacancyId: r.vacancy_id,
    vacancyTitle: r.vacancy_id === null ? null : r.vacancy_title,
    stage: r.stage,
    source: r.source,
    externalId: r.external_id,
    coverLetter: r.cover_letter,
    person: readPerson(r.person),
    resume: readResume(r.resume),
    referral: readReferral(r.referral),
    createdAt: dateFromMs(r.created_at_ms),
    updatedAt: dateFromMs(r.modified_at_ms),
  };
}
