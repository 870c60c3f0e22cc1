import { html, type Html } from '../../../career-portal/src/html.js';
import { isScope } from '../../../../domain/service-key/scope.js';
import type { KeyView } from '../management-client.js';
import { PERSONAL_DATA } from './issue-form.view.js';
import type { View } from './layout.js';

export const keyAnchor = (id: string) => `key-${id}`;

/** A key's name as shown; a key named by nobody (the CLI allows it) is shown by its id. */
export const keyTitle = (key: Pick<KeyView, 'id' | 'name'>) => (key.name.trim() === '' ? key.id : key.name);

/** One key: what it may do, whether it works, when it was last used, who made and who revoked it. */
export function keyCard(view: View, key: KeyView, options: { actions?: boolean } = {}): Html {
  const d = view.dictionary;
  const title = keyTitle(key);
  const replaced = replacedWords(view, key);
  return html`<li class="card key" id="${keyAnchor(key.id)}">
  <h3>${title}${replaced === null ? '' : html` <span class="replaced">— ${replaced}</span>`}</h3>
  <dl class="facts">
    <dt>${d.keys.status}</dt><dd>${status(view, key)}</dd>
    <dt>${d.keys.scopes}</dt><dd><ul class="scope-list">${key.scopes.map((scope) => scopeItem(view, scope))}</ul></dd>
    <dt>${d.keys.lastUse}</dt><dd class="last-use">${key.lastUsedAt === null ? d.keys.neverUsed : view.relative(key.lastUsedAt, d.keys.usedAgo)}</dd>
    <dt>${d.keys.expires}</dt><dd class="expiry">${expiry(view, key)}</dd>
    <dt>${d.keys.created}</dt><dd>${key.createdBy === null ? view.absolute(key.createdAt) : d.keys.createdBy(view.absoluteText(key.createdAt), key.createdBy)}</dd>
    <dt>${d.keys.id}</dt><dd><code>${key.id}</code></dd>
  </dl>
  ${options.actions === false ? '' : actions(view, key, d.keys.keyLabel(title, key.id, replaced))}
</li>`;
}

function status(view: View, key: KeyView): Html {
  const d = view.dictionary;
  const revoked =
    key.revokedAt === null ? '' : html` <br>${key.revokedBy === null ? d.keys.revokedAt(view.relativeText(key.revokedAt)) : d.keys.revokedBy(view.relativeText(key.revokedAt), key.revokedBy)}`;
  const rolledTo = key.rolledTo === null ? '' : html` <br><a href="#${keyAnchor(key.rolledTo)}">${d.keys.rolledTo(key.rolledTo)}</a>`;
  const rolledFrom = key.rolledFrom === null ? '' : html` <br><a href="#${keyAnchor(key.rolledFrom)}">${d.keys.rolledFrom(key.rolledFrom)}</a>`;
  return html`<span class="status ${key.status}">${d.keys.statuses[key.status] ?? key.status}</span>${revoked}${rolledTo}${rolledFrom}`;
}

function scopeItem(view: View, scope: string): Html {
  const d = view.dictionary;
  if (!isScope(scope)) return html`<li><code>${scope}</code></li>`;
  return html`<li>${d.scopes[scope].title} <code>${scope}</code>${PERSONAL_DATA.has(scope) ? html`<span class="badge">${d.personalData}</span>` : ''}</li>`;
}

function expiry(view: View, key: KeyView): Html | string {
  const d = view.dictionary;
  if (key.expiresAt === null) return d.keys.neverExpires;
  const past = new Date(key.expiresAt).getTime() <= view.now.getTime();
  return html`${view.relative(key.expiresAt, past ? d.keys.expiredAgo : d.keys.expiresIn)} <span class="muted">(${view.absolute(key.expiresAt)})</span>`;
}

/**
 * What tells a rolled key from its successor, which has its name: the successor's id and, while the old
 * key still works, until when. Null for a key that was not rolled.
 */
function replacedWords(view: View, key: KeyView): string | null {
  const d = view.dictionary;
  if (key.rolledTo === null) return null;
  if (key.status !== 'active' || key.expiresAt === null) return d.keys.replaced(key.rolledTo);
  return d.keys.replacedUntil(key.rolledTo, view.absoluteText(key.expiresAt));
}

/** Roll and revoke lead to a confirmation page first; only what can still be done is offered. */
function actions(view: View, key: KeyView, label: string): Html | string {
  const d = view.dictionary;
  if (key.status !== 'active') return '';
  const roll = key.rolledTo === null ? html`<a href="${view.href(`/keys/${encodeURIComponent(key.id)}/roll`)}" aria-label="${d.keys.rollLabel(label)}">${d.keys.roll}</a>` : '';
  return html`<p class="actions">${roll}<a href="${view.href(`/keys/${encodeURIComponent(key.id)}/revoke`)}" aria-label="${d.keys.revokeLabel(label)}">${d.keys.revoke}</a></p>`;
}
