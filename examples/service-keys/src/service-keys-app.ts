import { Router } from '@koa/router';
import Koa, { type Context } from 'koa';
import { failureOf, logFailure, type PageLog } from './api-failure.js';
import type { FormTokens } from './form-token.js';
import type { Language } from './i18n/dictionary.js';
import { callerOf, type IdentitySource } from './identity.js';
import { EMPTY_ISSUE_FORM } from './key-forms.js';
import { registerKeyActions } from './key-action-routes.js';
import { chooseLanguage, dictionaryFor } from './language.js';
import type { KeyView, ManagementClient } from './management-client.js';
import { send, stateOf } from './page-context.js';
import { COPY_SCRIPT_HASH, STYLE_HASH, SUBMIT_SCRIPT_HASH } from './views/assets.js';
import { revokeConfirmPage, rollConfirmPage } from './views/confirm.view.js';
import { eventsPage, keyNamesOf } from './views/events.view.js';
import { keyTitle } from './views/key-card.view.js';
import { keysPage } from './views/keys.view.js';
import { View } from './views/layout.js';
import { messagePage } from './views/message.view.js';

export interface ServiceKeysDependencies {
  readonly client: Pick<ManagementClient, 'listKeys' | 'issueKey' | 'revokeKey' | 'rollKey' | 'listEvents' | 'getPlatformToken'>;
  readonly identity: IdentitySource;
  readonly formTokens: FormTokens;
  /** The origin browsers use for the page (SERVICE_KEYS_PUBLIC_URL): a POST from a page of any other is refused. */
  readonly publicOrigin: string;
  readonly defaultLanguage: Language;
  readonly timeZone: string;
  /** Origins allowed to show the page in a frame (the platform's), or none. */
  readonly frameAncestors: readonly string[];
  readonly log: PageLog;
  readonly now?: () => Date;
}

export const RECENT_EVENTS = 10;
export const EVENTS_PER_PAGE = 25;

/**
 * The "Service keys" page: server-rendered HTML over the management API. The platform token lives in
 * `client` only; the browser gets HTML, never the token, the API's JSON or a stack.
 */
export function createServiceKeysApp(deps: ServiceKeysDependencies): Koa {
  const app = new Koa();
  app.silent = true;
  app.on('error', (error: unknown) => deps.log('service-keys.error-outside-request', { error: String(error) }));
  const now = deps.now ?? (() => new Date());
  const router = new Router();
  const csp = [
    "default-src 'none'",
    `style-src ${STYLE_HASH}`,
    `script-src ${SUBMIT_SCRIPT_HASH} ${COPY_SCRIPT_HASH}`,
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${deps.frameAncestors.length === 0 ? "'none'" : deps.frameAncestors.join(' ')}`,
  ].join('; ');

  router.get('/', async (ctx) => {
    const { caller, view } = stateOf(ctx);
    const [keys, events, access] = await Promise.allSettled([
      deps.client.listKeys(caller),
      deps.client.listEvents(caller, { limit: RECENT_EVENTS, cursor: null }),
      deps.client.getPlatformToken(caller),
    ]);
    if (keys.status === 'rejected') return failed(ctx, 'list-keys', keys.reason);
    if (events.status === 'rejected') logFailure(deps.log, 'list-events', events.reason);
    // Without it the page works as before; the section is left out and the failure logged.
    if (access.status === 'rejected') logFailure(deps.log, 'get-platform-token', access.reason);
    const revoked = keys.value.find((key) => key.id === ctx.query.revoked);
    const notice =
      events.status === 'rejected'
        ? failureOf(view.dictionary, events.reason).notice
        : revoked === undefined
          ? undefined
          : { kind: 'success' as const, text: view.dictionary.notices.revoked(keyTitle(revoked)) };
    send(ctx, 200, keysPage(view, {
      keys: keys.value,
      events: events.status === 'fulfilled' ? events.value.items : null,
      form: { values: EMPTY_ISSUE_FORM, errors: {}, token: deps.formTokens.make(caller, 'issue') },
      access: access.status === 'fulfilled' ? access.value : null,
      ...(notice === undefined ? {} : { notice }),
    }));
  });

  router.get('/events', async (ctx) => {
    const { caller, view } = stateOf(ctx);
    const cursor = typeof ctx.query.cursor === 'string' && ctx.query.cursor !== '' ? ctx.query.cursor : null;
    const [events, keys] = await Promise.allSettled([deps.client.listEvents(caller, { limit: EVENTS_PER_PAGE, cursor }), deps.client.listKeys(caller)]);
    if (events.status === 'rejected') return failed(ctx, 'list-events', events.reason);
    const names = keyNamesOf(keys.status === 'fulfilled' ? keys.value : []);
    send(ctx, 200, eventsPage(view, { events: events.value.items, names, nextCursor: events.value.nextCursor, cursor }));
  });

  for (const action of ['revoke', 'roll'] as const) {
    router.get(`/keys/:id/${action}`, async (ctx) => {
      const { caller, view } = stateOf(ctx);
      const key = await findKey(ctx, ctx.params.id as string);
      if (key === undefined) return;
      const state = { key, token: deps.formTokens.make(caller, `${action}:${key.id}`) };
      send(ctx, 200, action === 'revoke' ? revokeConfirmPage(view, state) : rollConfirmPage(view, state));
    });
  }

  /** The key of this company with that id; when there is none, or the list fails, the page is answered here. */
  async function findKey(ctx: Context, id: string): Promise<KeyView | undefined> {
    const { caller, view } = stateOf(ctx);
    try {
      const key = (await deps.client.listKeys(caller)).find((candidate) => candidate.id === id);
      if (key === undefined) send(ctx, 404, messagePage(view, view.dictionary.errors.notFoundTitle, { kind: 'error', text: view.dictionary.errors.keyNotFound }));
      return key;
    } catch (error) {
      failed(ctx, 'list-keys', error);
      return undefined;
    }
  }

  function failed(ctx: Context, operation: string, error: unknown): void {
    logFailure(deps.log, operation, error);
    const { view } = stateOf(ctx);
    const failure = failureOf(view.dictionary, error);
    send(ctx, failure.status, messagePage(view, view.dictionary.title, failure.notice));
  }

  registerKeyActions(router, { ...deps, now, findKey, failed });

  app.use(async (ctx, next) => {
    ctx.set('Content-Security-Policy', csp);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'same-origin');
    const dictionary = dictionaryFor(chooseLanguage(ctx.query.lang, ctx.get('accept-language'), deps.defaultLanguage));
    ctx.vary('Accept-Language');
    const caller = callerOf(deps.identity, ctx.req.headersDistinct);
    ctx.state.view = new View(dictionary, deps.timeZone, now(), caller?.companyId ?? null);
    if (caller === null) {
      deps.log('service-keys.no-identity', { path: ctx.path });
      return send(ctx, 401, messagePage(ctx.state.view as View, dictionary.errors.noIdentityTitle, { kind: 'error', text: dictionary.errors.noIdentity }));
    }
    ctx.state.caller = caller;
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) send(ctx, 404, messagePage(ctx.state.view as View, dictionary.errors.notFoundTitle, { kind: 'error', text: dictionary.errors.notFound }));
    } catch (error) {
      deps.log('service-keys.failure', { method: ctx.method, path: ctx.path, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      send(ctx, 500, messagePage(ctx.state.view as View, dictionary.title, { kind: 'error', text: dictionary.errors.somethingWentWrong }));
    }
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
