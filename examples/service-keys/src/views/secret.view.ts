import { html } from '../../../career-portal/src/html.js';
import type { IssuedKeyView, KeyView } from '../management-client.js';
import { keyCard, keyTitle } from './key-card.view.js';
import type { Page, View } from './layout.js';

/**
 * The new key's secret, in the answer to the POST that made it and nowhere else: no URL names it, the
 * answer is no-store, the form's token is spent (form-token.ts) and the script wipes it when the page is
 * left. A read-only field, so that it can be selected by hand where the copy button cannot help.
 */
export function secretPage(view: View, issued: IssuedKeyView, rolled: KeyView | null): Page {
  const d = view.dictionary;
  const { key: secret, ...listing } = issued;
  const title = rolled === null ? d.secret.issuedTitle : d.secret.rolledTitle;
  return {
    title,
    switchPath: null,
    copyScript: true,
    body: html`<h1>${title}</h1>
<div class="notice warning" id="secret-warning"><p><strong>${d.secret.warning}</strong></p></div>
<div class="card" id="secret-block">
  <div class="field">
    <label for="secret">${d.secret.label}: ${keyTitle(issued)}</label>
    <div class="row">
      <input type="text" id="secret" class="secret" name="secret" value="${secret}" readonly autofocus autocomplete="off" spellcheck="false" size="70" aria-describedby="secret-warning">
      <button type="button" id="copy-secret" hidden data-copied="${d.secret.copied}" data-fallback="${d.secret.copyFallback}">${d.secret.copy}</button>
    </div>
    <p id="copy-status" role="status" aria-live="polite"></p>
  </div>
</div>
${rolled === null || rolled.expiresAt === null ? '' : html`<p class="notice success">${d.secret.rolledNote(keyTitle(rolled), view.absoluteText(rolled.expiresAt))}</p>`}
<ul class="keys">${keyCard(view, listing, { actions: false })}</ul>
<p><a href="${view.href('/')}">${d.secret.back}</a></p>`,
  };
}
