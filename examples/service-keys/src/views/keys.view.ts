import { html } from '../../../career-portal/src/html.js';
import type { KeyEventView, KeyView, PlatformTokenView } from '../management-client.js';
import { accessSection } from './access.view.js';
import { eventTable, keyNamesOf } from './events.view.js';
import { issueForm, type IssueFormState } from './issue-form.view.js';
import { keyCard } from './key-card.view.js';
import type { Page, View } from './layout.js';
import { notice, type Notice } from './message.view.js';

const STATUS_ORDER: Record<string, number> = { active: 0, expired: 1, revoked: 2 };

/** Working keys first, then expired, then revoked; the newest first within each. */
export function sortKeys(keys: readonly KeyView[]): KeyView[] {
  return [...keys].sort((a, b) => (STATUS_ORDER[a.status] ?? 3) - (STATUS_ORDER[b.status] ?? 3) || b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
}

/** GET /: the keys, the issue form, the latest events and what the page's token may do. */
export function keysPage(
  view: View,
  params: { keys: readonly KeyView[]; events: readonly KeyEventView[] | null; form: IssueFormState; notice?: Notice; access?: PlatformTokenView | null },
): Page {
  const d = view.dictionary;
  const keys = sortKeys(params.keys);
  return {
    title: d.title,
    switchPath: '/',
    body: html`<h1>${d.title}</h1>
<p>${d.intro}</p>
${notice(view, params.notice)}
<section aria-labelledby="keys-heading">
<h2 id="keys-heading">${d.keys.heading}</h2>
${keys.length === 0 ? html`<p class="card">${d.keys.none}</p>` : html`<ul class="keys">${keys.map((key) => keyCard(view, key))}</ul>`}
</section>
${issueForm(view, params.form)}
<section aria-labelledby="recent-heading">
<h2 id="recent-heading">${d.events.recentHeading}</h2>
${params.events === null ? '' : eventTable(view, params.events, keyNamesOf(params.keys), 'recent-heading')}
<p><a href="${view.href('/events')}">${d.events.all}</a></p>
</section>
${params.access == null ? '' : accessSection(view, params.access)}`,
  };
}
