import { Readable } from 'node:stream';
import type { Router } from '@koa/router';
import { requireScope } from '../../../domain/service-key/service-key.js';
import { splicedCandidateParts } from '../../presenters/candidate.presenter.js';
import { idItem } from '../../presenters/id-item.presenter.js';
import { pageText, type PageText } from '../../presenters/page.presenter.js';
import { entityTagOf, matchingTag } from '../entity-tag.js';
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
 * presenters. With `fields=id`, each item is only the record's id and updatedAt (idItem). Every page carries a
 * strong ETag of its bytes; If-None-Match naming it is answered 304 without a body (ADR 27).
 */
export function registerListRoutes(router: Router<HttpState>, deps: Pick<HttpDependencies, 'listVacancies' | 'listCandidates' | 'listVacancyIds' | 'listCandidateIds'>): void {
  router.get('/vacancies', async (ctx) => {
    const principal = principalOf(ctx);
    requireScope(principal, 'vacancies:read');
    const query = new ListQueryReader(ctx.querystring, VACANCY_QUERY);
    const command = { companyId: principal.companyId, since: query.since(), status: query.status(), limit: query.limit(), cursor: query.cursor() };
    const fields = query.fields();
    query.finish();
    if (fields === 'id') {
      const { page, watermark } = await deps.listVacancyIds.executeIds(command);
      return sendPage(ctx, watermark, pageText(page.items.map((v) => idItem(v.id, v.updatedAt)), page.nextCursor));
    }
    const { page, watermark } = await deps.listVacancies.execute(command);
    sendPage(ctx, watermark, pageText(page.items.map((v) => v.rendering), page.nextCursor));
  });

  router.get('/candidates', async (ctx) => {
    const principal = principalOf(ctx);
    requireScope(principal, 'candidates:read');
    const query = new ListQueryReader(ctx.querystring, CANDIDATE_QUERY);
    const command = { companyId: principal.companyId, since: query.since(), vacancyId: query.vacancyId(), limit: query.limit(), cursor: query.cursor() };
    const fields = query.fields();
    query.finish();
    if (fields === 'id') {
      const { page, watermark } = await deps.listCandidateIds.executeIds(command);
      return sendPage(ctx, watermark, pageText(page.items.map((c) => idItem(c.id, c.updatedAt)), page.nextCursor));
    }
    const { page, watermark } = await deps.listCandidates.execute(command);
    const items = page.items.map((c) => splicedCandidateParts(c.id, c.vacancyId, c.vacancyTitle, c.rendering));
    sendPage(ctx, watermark, pageText(items, page.nextCursor));
  });
}

/**
 * The most bytes of a page sent as one string rather than its pieces in a stream: an identifier page of 500 (about
 * 42 KB), whose stream cost more than its items. Even as two-byte characters, such a string stays below V8's
 * large-object size (128 KB), which ADR 18 keeps pages out of.
 */
const ONE_STRING_MAX_BYTES = 48 * 1024;

function sendPage(ctx: HttpContext, watermark: Date, page: PageText): void {
  // A safe `since` for the client's next run (DESIGN 3, No lost changes), on a 304 too: the page it stands for is
  // the one just read.
  ctx.set('X-Sync-Watermark', watermark.toISOString());
  const tag = entityTagOf(page.pieces);
  const held = matchingTag(ctx.get('If-None-Match'), tag);
  if (held !== null) {
    // The client holds this very page (ADR 27): no body, and the tag of the representation it holds.
    ctx.set('ETag', held);
    ctx.status = 304;
    return;
  }
  ctx.set('ETag', tag);
  // The page's texts, as the read model keeps them (pageText), written to the socket one after the other with
  // the page's length (no chunked encoding): a page of large records is held once, as its texts, not also as a
  // buffer of the whole (ADR 24). An object body would be stringified by Koa's Content-Length getter and again.
  ctx.type = 'application/json';
  ctx.body = page.bytes <= ONE_STRING_MAX_BYTES ? page.pieces.join('') : Readable.from(page.pieces);
  ctx.length = page.bytes;
}
