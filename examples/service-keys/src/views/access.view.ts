import { html, type Html } from '../../../career-portal/src/html.js';
import { isPlatformScope } from '../../../../domain/platform-token/platform-scope.js';
import type { PlatformTokenView } from '../management-client.js';
import type { View } from './layout.js';

/**
 * What the page itself may do: its platform token's scopes, companies and expiry, as the management API tells
 * it. An operator who gave the page too little (or too much) sees it here, not only in refusals.
 */
export function accessSection(view: View, token: PlatformTokenView): Html {
  const d = view.dictionary.access;
  const scope = (name: string) => html`<li>${isPlatformScope(name) ? `${d.platformScopes[name]} ` : ''}<code>${name}</code></li>`;
  const companies = token.companies === null ? d.everyCompany : html`<ul class="scope-list">${token.companies.map((id) => html`<li><code>${id}</code></li>`)}</ul>`;
  return html`<section aria-labelledby="access-heading" class="access">
<h2 id="access-heading">${d.heading}</h2>
<p>${d.token(token.name, token.id)}</p>
<dl class="facts">
  <dt>${d.scopes}</dt><dd><ul class="scope-list">${token.scopes.map(scope)}</ul></dd>
  <dt>${d.companies}</dt><dd>${companies}</dd>
  <dt>${d.expires}</dt><dd>${token.expiresAt === null ? view.dictionary.keys.neverExpires : view.absolute(token.expiresAt)}</dd>
</dl>
</section>`;
}
