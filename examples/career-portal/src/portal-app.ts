import { Router } from '@koa/router';
import Koa, { type Context } from 'koa';
import { ApiError, NetworkError, type IntegrationClient } from '../../../clients/typescript/src/index.js';
import { applicationRequestOf, emptyForm, fieldErrorsOf, newExternalId, parseForm, type ApplicationForm } from './application-form.js';
import { crossSiteReason } from './cross-site.js';
import { FormTooLargeError, readFormBody } from './read-form-body.js';
import type { SubmitLimiter } from './submit-limiter.js';
import type { VacancyCatalog } from './vacancy-catalog.js';
import type { FormState } from './views/application-form.view.js';
import { layout, STYLE_HASH, type Page } from './views/layout.js';
import {
  crossSitePage,
  FORM_TOO_LARGE,
  LIST_UNAVAILABLE,
  PAGE_NOT_FOUND,
  SOMETHING_WENT_WRONG,
  successPage,
  tooManyApplications,
  VACANCY_GONE,
} from './views/message.view.js';
import { vacancyListPage } from './views/vacancy-list.view.js';
import { applicationOnlyPage, vacancyPage } from './views/vacancy.view.js';

export type PortalLog = (event: string, details: Record<string, unknown>) => void;

export interface PortalDependencies {
  readonly client: Pick<IntegrationClient, 'submitApplication'>;
  readonly catalog: VacancyCatalog;
  /** Shown in the header and the page titles. */
  readonly siteTitle: string;
  /** Sent as `source` of every application: the recruiter sees where the candidate came from. */
  readonly source: string;
  readonly log: PortalLog;
  /** The origin browsers use for the portal (PORTAL_PUBLIC_URL): a POST from a page of any other is refused. */
  readonly publicOrigin: string;
  /** Applications per client address, counted before the API is called. */
  readonly submitLimiter: SubmitLimiter;
  /** Proxies in front whose X-Forwarded-For entries name the client (PORTAL_TRUST_PROXY); 0: the socket's address. */
  readonly trustProxy: number;
}

const FORM_LIMIT_BYTES = 256 * 1024;
const TRY_LATER = 'Сейчас мы не можем принять отклик: сервис перегружен или ненадолго недоступен. Всё, что вы ввели, сохранено — нажмите «Отправить отклик» ещё раз через минуту.';
const NOT_SENT = 'Не получилось отправить отклик из-за ошибки на нашей стороне. Всё, что вы ввели, сохранено — попробуйте, пожалуйста, ещё раз чуть позже.';
const FORM_PROBLEM = 'Не получилось отправить форму. Проверьте, пожалуйста, поля и попробуйте ещё раз.';
const EDITED_AFTER_SENDING =
  'Этот отклик вы уже отправили раньше, и мы сохранили первую версию. Если хотите отправить исправленный отклик как новый, нажмите «Отправить отклик» ещё раз.';

/**
 * The career portal: server-rendered pages over the integration API. The key lives in `client` only; the
 * browser sees HTML and never the API, its JSON or its errors.
 */
export function createPortalApp(deps: PortalDependencies): Koa {
  const app = new Koa();
  app.silent = true;
  // Behind N proxies the client is the entry of X-Forwarded-For N hops from the right; anything further left
  // was written by the client itself, who could otherwise name a fresh address, and budget, every time.
  app.proxy = deps.trustProxy > 0;
  app.maxIpsCount = deps.trustProxy;
  app.on('error', (error: unknown) => deps.log('portal.error-outside-request', { error: String(error) }));
  const router = new Router();
  const send = (ctx: Context, status: number, page: Page) => {
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = layout(deps.siteTitle, page);
  };

  router.get('/', async (ctx) => {
    const vacancies = await deps.catalog.openVacancies().catch((error: unknown) => apiFailure(deps, 'list', error));
    if (vacancies === undefined) return send(ctx, 503, LIST_UNAVAILABLE);
    send(ctx, 200, vacancyListPage(vacancies));
  });

  router.get('/vacancies/:id', async (ctx) => {
    const vacancy = await deps.catalog.find(ctx.params.id as string).catch((error: unknown) => apiFailure(deps, 'find', error));
    if (vacancy === undefined) return send(ctx, 503, LIST_UNAVAILABLE);
    if (vacancy === null) return send(ctx, 404, VACANCY_GONE);
    // A fresh externalId per rendering: kept out of caches, so going back to the form starts a new application.
    ctx.set('Cache-Control', 'no-store');
    send(ctx, 200, vacancyPage(vacancy, { form: emptyForm() }));
  });

  router.post('/vacancies/:id/apply', async (ctx) => {
    const vacancyId = ctx.params.id as string;
    ctx.set('Cache-Control', 'no-store');
    // Before anything is read or counted: a page elsewhere posting in a visitor's browser spends neither the
    // key's budget nor that visitor's own allowance.
    const crossSite = crossSiteReason(ctx.headers, deps.publicOrigin);
    if (crossSite !== null) {
      deps.log('portal.cross-site-refused', { reason: crossSite.slice(0, 200) });
      return send(ctx, 403, crossSitePage(vacancyId));
    }
    let form: ApplicationForm;
    try {
      form = parseForm(await readFormBody(ctx.req, FORM_LIMIT_BYTES));
    } catch (error) {
      if (error instanceof FormTooLargeError) return send(ctx, 413, FORM_TOO_LARGE);
      throw error;
    }
    const vacancy = () => deps.catalog.find(vacancyId).catch(() => undefined);
    // The form again, as typed. When the list cannot be read either (the API is down), without the vacancy.
    const again = async (status: number, state: FormState) => {
      const shown = await vacancy();
      if (shown === null) return send(ctx, 404, VACANCY_GONE);
      send(ctx, status, shown === undefined ? applicationOnlyPage(vacancyId, state) : vacancyPage(shown, state));
    };

    const allowance = await deps.submitLimiter.take(ctx.ip);
    if (!allowance.allowed) {
      // The form as typed, without the vacancy: a limited client gets no call to the API at all.
      ctx.set('Retry-After', String(allowance.retryAfterS));
      deps.log('portal.submit-limited', { retryAfterS: allowance.retryAfterS });
      return send(ctx, 429, applicationOnlyPage(vacancyId, { form, notice: { kind: 'warning', text: tooManyApplications(allowance.retryAfterS) } }));
    }

    // Only to a vacancy the portal shows: the id of a draft or a closed one, typed into the URL, is answered as
    // its page is. When the list cannot be read, nothing is sent: the visitor is asked to try again.
    const shown = await deps.catalog.find(vacancyId).catch((error: unknown) => apiFailure(deps, 'find', error));
    if (shown === null) return send(ctx, 404, VACANCY_GONE);
    if (shown === undefined) return send(ctx, 503, applicationOnlyPage(vacancyId, { form, notice: { kind: 'warning', text: TRY_LATER } }));

    try {
      const result = await deps.client.submitApplication(applicationRequestOf(form, vacancyId, deps.source));
      deps.log('portal.application', { id: result.id, status: result.status, attempts: result.attempts, requestId: result.requestId });
      if (result.bodyDiffers) {
        // The visitor went back and changed a form already sent: the API kept the first version.
        return again(409, { form: { ...form, externalId: newExternalId() }, notice: { kind: 'warning', text: EDITED_AFTER_SENDING } });
      }
      send(ctx, result.status === 'created' ? 201 : 200, successPage({ name: form.values.name, vacancyTitle: shown.title, applicationId: result.id, repeated: result.status === 'duplicate' }));
    } catch (error) {
      if (error instanceof ApiError && error.problem?.code === 'validation_failed') {
        // A vacancy id the API does not take (from a hand-edited URL) names no vacancy of ours.
        if (error.problem.errors.some((problem) => problem.pointer === '/vacancyId')) return send(ctx, 404, VACANCY_GONE);
        const { fields, form: whole } = fieldErrorsOf(error.problem.errors, form.values);
        const notice = whole || Object.keys(fields).length === 0 ? { kind: 'error' as const, text: FORM_PROBLEM } : undefined;
        return again(400, { form, errors: fields, ...(notice === undefined ? {} : { notice }) });
      }
      if (error instanceof ApiError && error.status === 404) return send(ctx, 404, VACANCY_GONE);
      logFailure(deps, 'submit', error);
      const busy = error instanceof NetworkError || (error instanceof ApiError && [429, 502, 503, 504].includes(error.status));
      return again(503, { form, notice: { kind: busy ? 'warning' : 'error', text: busy ? TRY_LATER : NOT_SENT } });
    }
  });

  app.use(async (ctx, next) => {
    ctx.set('Content-Security-Policy', `default-src 'none'; style-src '${STYLE_HASH}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'same-origin');
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) send(ctx, 404, PAGE_NOT_FOUND);
    } catch (error) {
      deps.log('portal.failure', { method: ctx.method, path: ctx.path, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      send(ctx, 500, SOMETHING_WENT_WRONG);
    }
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/** A failed read of the API, logged; undefined tells the route to show its friendly page. Other errors go on to the 500 page. */
function apiFailure(deps: PortalDependencies, operation: string, error: unknown): undefined {
  if (!(error instanceof ApiError || error instanceof NetworkError)) throw error;
  logFailure(deps, operation, error);
  return undefined;
}

/** What lets an operator find the call in the service's log: status, code, request id. Never the key, never the visitor's data. */
function logFailure(deps: PortalDependencies, operation: string, error: unknown): void {
  if (error instanceof ApiError) deps.log('portal.api-error', { operation, status: error.status, code: error.code, requestId: error.requestId, attempts: error.attempts });
  else if (error instanceof NetworkError) deps.log('portal.api-unreachable', { operation, message: error.message, attempts: error.attempts });
  else deps.log('portal.failure', { operation, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
}
