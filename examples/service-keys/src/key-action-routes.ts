import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { crossSiteReason } from '../../career-portal/src/cross-site.js';
import { FormTooLargeError, readFormBody } from '../../career-portal/src/read-form-body.js';
import { failureOf, logFailure } from './api-failure.js';
import type { FormAction } from './form-token.js';
import { checkIssueForm, expiresAtOf, oldKeyExpiresAtOf, parseExpiry, parseIssueForm, parseOverlap, type IssueFormErrors, type IssueFormValues } from './key-forms.js';
import { send, stateOf, type ActionDependencies } from './page-context.js';
import type { ExpiryChoice, RollOverlap, SentForm } from './i18n/dictionary.js';
import { revokeConfirmPage, rollConfirmPage } from './views/confirm.view.js';
import { issueFormPage } from './views/issue-form.view.js';
import { messagePage, type Notice } from './views/message.view.js';
import { secretPage } from './views/secret.view.js';

/** A form of the page is a few hundred bytes; the limit only keeps a large body from being read at all. */
const FORM_LIMIT_BYTES = 16 * 1024;

/** The three POSTs: issue, revoke, roll. Each is checked for where it comes from and for its token first. */
export function registerKeyActions(router: Router, deps: ActionDependencies): void {
  router.post('/keys', async (ctx) => {
    const body = await acceptForm(ctx, deps, 'issue');
    if (body === null) return;
    const { caller, view } = stateOf(ctx);
    const values = parseIssueForm(body);
    const again = (status: number, errors: IssueFormErrors, notice?: Notice) => issueAgain(ctx, deps, status, values, errors, notice);
    const errors = checkIssueForm(view.dictionary, values);
    if (Object.keys(errors).length > 0) return again(400, errors);
    try {
      const issued = await deps.client.issueKey(caller, { name: values.name, scopes: values.scopes, expiresAt: expiresAtOf(values.expiry, deps.now()) });
      deps.log('service-keys.issued', { keyId: issued.id, scopes: issued.scopes });
      send(ctx, 201, secretPage(view, issued, null));
    } catch (error) {
      logFailure(deps.log, 'issue', error);
      const failure = failureOf(view.dictionary, error);
      again(failure.status, {}, failure.notice);
    }
  });

  router.post('/keys/:id/revoke', async (ctx) => {
    const keyId = ctx.params.id as string;
    if ((await acceptForm(ctx, deps, `revoke:${keyId}`)) === null) return;
    const { caller, view } = stateOf(ctx);
    try {
      await deps.client.revokeKey(caller, keyId);
      deps.log('service-keys.revoked', { keyId });
      // Nothing secret to show: back to the list by a GET, so that a reload asks nothing again.
      ctx.status = 303;
      ctx.redirect(view.href('/', { revoked: keyId }));
    } catch (error) {
      await confirmAgain(ctx, deps, 'revoke', keyId, error);
    }
  });

  router.post('/keys/:id/roll', async (ctx) => {
    const keyId = ctx.params.id as string;
    const body = await acceptForm(ctx, deps, `roll:${keyId}`);
    if (body === null) return;
    const { caller, view } = stateOf(ctx);
    const overlap = parseOverlap(body.get('overlap'));
    const expiry = parseExpiry(body.get('expiry'));
    try {
      const now = deps.now();
      const result = await deps.client.rollKey(caller, keyId, { oldKeyExpiresAt: oldKeyExpiresAtOf(overlap, now), expiresAt: expiresAtOf(expiry, now) });
      deps.log('service-keys.rolled', { keyId, successorKeyId: result.issued.id });
      send(ctx, 201, secretPage(view, result.issued, result.rolled));
    } catch (error) {
      await confirmAgain(ctx, deps, 'roll', keyId, error, { overlap, expiry });
    }
  });
}

/**
 * The posted form, or null when the request was answered here: a post from another site's page (before
 * the body is read; the same check as the career portal's), a body too large, or a token that is not good
 * for this user and action, has expired, or was spent by an earlier post of the same form.
 */
async function acceptForm(ctx: Context, deps: ActionDependencies, action: FormAction): Promise<URLSearchParams | null> {
  const { caller, view } = stateOf(ctx);
  const e = view.dictionary.errors;
  const crossSite = crossSiteReason(ctx.headers, deps.publicOrigin);
  if (crossSite !== null) {
    deps.log('service-keys.cross-site-refused', { reason: crossSite.slice(0, 200) });
    send(ctx, 403, messagePage(view, e.crossSiteTitle, { kind: 'error', text: e.crossSite }));
    return null;
  }
  let body: URLSearchParams;
  try {
    body = await readFormBody(ctx.req, FORM_LIMIT_BYTES);
  } catch (error) {
    if (!(error instanceof FormTooLargeError)) throw error;
    send(ctx, 413, messagePage(view, e.formTooLarge, { kind: 'error', text: e.formTooLarge }));
    return null;
  }
  const redemption = deps.formTokens.redeem(caller, action, body.get('token'));
  if (redemption === 'ok') return body;
  deps.log('service-keys.form-refused', { action: action.split(':')[0], redemption });
  if (redemption === 'used') send(ctx, 409, messagePage(view, e.alreadySentTitle, { kind: 'warning', text: e.alreadySent[formOf(action)] }));
  else send(ctx, 403, messagePage(view, e.formExpiredTitle, { kind: 'warning', text: e.formExpired }));
  return null;
}

const formOf = (action: FormAction): SentForm => (action === 'issue' ? 'issue' : action.startsWith('roll:') ? 'roll' : 'revoke');

function issueAgain(ctx: Context, deps: ActionDependencies, status: number, values: IssueFormValues, errors: IssueFormErrors, notice?: Notice): void {
  const { caller, view } = stateOf(ctx);
  const token = deps.formTokens.make(caller, 'issue');
  send(ctx, status, issueFormPage(view, { values, errors, token, ...(notice === undefined ? {} : { notice }) }));
}

/** The confirmation again, with the API's answer above it and a fresh token; a key that is gone is said to be. */
async function confirmAgain(
  ctx: Context,
  deps: ActionDependencies,
  action: 'revoke' | 'roll',
  keyId: string,
  error: unknown,
  chosen: { overlap?: RollOverlap; expiry?: ExpiryChoice } = {},
): Promise<void> {
  const { caller, view } = stateOf(ctx);
  logFailure(deps.log, action, error);
  const failure = failureOf(view.dictionary, error);
  if (failure.notFound) return send(ctx, 404, messagePage(view, view.dictionary.errors.notFoundTitle, { kind: 'error', text: view.dictionary.errors.keyNotFound }));
  const key = await deps.findKey(ctx, keyId).catch(() => undefined);
  if (key === undefined) {
    if (ctx.body === undefined) send(ctx, failure.status, messagePage(view, view.dictionary.title, failure.notice));
    return;
  }
  const state = { key, token: deps.formTokens.make(caller, `${action}:${key.id}`), notice: failure.notice, ...chosen };
  send(ctx, failure.status, action === 'revoke' ? revokeConfirmPage(view, state) : rollConfirmPage(view, state));
}
