import { Readable } from 'node:stream';
import type { Router } from '@koa/router';
import { requireScope } from '../../../domain/service-key/service-key.js';
import { splicedCandidateParts } from '../../presenters/candidate.presenter.js';
import { pageText, type PageText } from '../../presenters/page.presenter.js';
import { principalOf } from '../gatekeeper.middleware.js';
import type { HttpDependencies } from '../http-dependencies.js';
import type { HttpContext, HttpState } from '../http-state.js';
import { ListQueryReader } from '../list-query.js';
import { CANDIDATE_LIST_PARAMETERS, namesOf, VACANCY_LIST_PARAMETERS } from '../schemas/query-parameters.schema.js';

const VACANCY_QUERY = namesOf(VACANCY_LIST_PARAMETERS);
const CANDIDATE_QUERY = namesOf(CANDIDATE_LIST_PARAMETERS);

/**
 * GET /vacancies and GET /candidates (spec 4.1, 4.2): keyset pages in (modification time, id) order. A page is
 * assembled from the records' JSON as the presenters rendered it when they were written (ADR 18), a card's
 * vacancy title spliced in as read now; the admin CLI prints the same Vacancy and Candidate from the same
 * presenters.
 */
export function registerListRoutes(router: Router<HttpState>, deps: Pick<HttpDependencies, 'listVacancies' | 'listCandidates'>): void {
  router.get('/vacancies', async (ctx) => {
    const principal = principalOf(ctx);
    requireScope(principal, 'vacancies:read');
    const query = new ListQueryReader(ctx.querystring, VACANCY_QUERY);
    const command = { companyId: principal.companyId, since: query.since(), status: query.status(), limit: query.limit(), cursor: query.cursor() };
    query.finish();
    const { page, watermark } = await deps.listVacancies.execute(command);
    sendPage(ctx, watermark, pageText(page.items.map((v) => v.rendering), page.nextCursor));
  });

  router.get('/candidates', async (ctx) => {
    const principal = principalOf(ctx);
    requireScope(principal, 'candidates:read');
    const query = new ListQueryReader(ctx.querystring, CANDIDATE_QUERY);
    const command = { companyId: principal.companyId, since: query.since(), vacancyId: query.vacancyId(), limit: query.limit(), cursor: query.cursor() };
    query.finish();
    const { page, watermark } = await deps.listCandidates.execute(command);
    const items = page.items.map((c) => splicedCandidateParts(c.id, c.vacancyId, c.vacancyTitle, c.rendering));
    sendPage(ctx, watermark, pageText(items, page.nextCursor));
  });
}

function sendPage(ctx: HttpContext, watermark: Date, page: PageText): void {
  // A safe `since` for the client's next run (DESIGN 3, No lost changes).
  ctx.set('X-Sync-Watermark', watermark.toISOString());
  // The page's texts, as the read model keeps them (pageText), written to the socket one after the other with
  // the page's length (no chunked encoding): a page of large records is held once, as its texts, not also as a
  // buffer of the whole (ADR 24). An object body would be stringified by Koa's Content-Length getter and again.
  ctx.type = 'application/json';
  ctx.body = Readable.from(page.pieces);
  ctx.length = page.bytes;
}
