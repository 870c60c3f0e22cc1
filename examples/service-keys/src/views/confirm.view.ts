import { html, type Html } from '../../../career-portal/src/html.js';
import { EXPIRY_CHOICES, ROLL_OVERLAPS, type ExpiryChoice, type RollOverlap } from '../i18n/dictionary.js';
import { expiryChoiceLike } from '../key-forms.js';
import type { KeyView } from '../management-client.js';
import { keyCard, keyTitle } from './key-card.view.js';
import type { Page, View } from './layout.js';
import { notice, type Notice } from './message.view.js';

export interface ConfirmState {
  readonly key: KeyView;
  readonly token: string;
  readonly overlap?: RollOverlap;
  readonly expiry?: ExpiryChoice;
  readonly notice?: Notice;
}

const path = (key: KeyView, action: 'roll' | 'revoke') => `/keys/${encodeURIComponent(key.id)}/${action}`;

/** GET /keys/:id/revoke: what is about to stop working, and the one button that does it. */
export function revokeConfirmPage(view: View, state: ConfirmState): Page {
  const d = view.dictionary;
  const title = d.confirm.revokeTitle(keyTitle(state.key));
  return confirmPage(view, state, 'revoke', title, html`<p>${d.confirm.revokeText}</p>`, html`<button type="submit" class="danger">${d.confirm.revokeButton}</button>`);
}

/** GET /keys/:id/roll: how long the old key keeps working, then the button. */
export function rollConfirmPage(view: View, state: ConfirmState): Page {
  const d = view.dictionary;
  const chosen = state.overlap ?? '24h';
  const expiry = state.expiry ?? expiryChoiceLike(state.key);
  const fields = html`<p>${d.confirm.rollText}</p>
  <div class="field">
    <label for="overlap">${d.confirm.overlapLabel}</label>
    <select id="overlap" name="overlap">${ROLL_OVERLAPS.map(
      (overlap) => html`<option value="${overlap}"${overlap === chosen ? html` selected` : ''}>${d.confirm.overlaps[overlap]}</option>`,
    )}</select>
  </div>
  <div class="field">
    <label for="expiry">${d.confirm.newKeyExpiry}</label>
    <select id="expiry" name="expiry">${EXPIRY_CHOICES.map(
      (choice) => html`<option value="${choice}"${choice === expiry ? html` selected` : ''}>${d.issue.expiryChoices[choice]}</option>`,
    )}</select>
  </div>`;
  return confirmPage(view, state, 'roll', d.confirm.rollTitle(keyTitle(state.key)), fields, html`<button type="submit">${d.confirm.rollButton}</button>`);
}

function confirmPage(view: View, state: ConfirmState, action: 'roll' | 'revoke', title: string, fields: Html, button: Html): Page {
  const d = view.dictionary;
  const possible = state.key.status === 'active' && (action === 'revoke' || state.key.rolledTo === null);
  const why = state.key.status !== 'active' ? d.confirm.notActive : d.confirm.alreadyRolled;
  return {
    title,
    switchPath: path(state.key, action),
    body: html`<h1>${title}</h1>
${notice(view, state.notice ?? (possible ? undefined : { kind: 'warning', text: why }))}
<ul class="keys">${keyCard(view, state.key, { actions: false })}</ul>
${possible
  ? html`<form method="post" action="${view.href(path(state.key, action))}" class="card">
  <input type="hidden" name="token" value="${state.token}">
  ${fields}
  <div class="row">${button} <a href="${view.href('/')}">${d.confirm.cancel}</a></div>
</form>`
  : html`<p><a href="${view.href('/')}">${d.errors.backToKeys}</a></p>`}`,
  };
}
