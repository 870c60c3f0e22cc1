import { html, type Html } from '../../../career-portal/src/html.js';
import type { KeyEventView, KeyView } from '../management-client.js';
import { keyTitle } from './key-card.view.js';
import type { Page, View } from './layout.js';
import { notice, type Notice } from './message.view.js';

/** Key names by id, for the trail (events carry ids only); keys no longer listed are shown by id. */
export type KeyNames = ReadonlyMap<string, string>;

export function keyNamesOf(keys: readonly KeyView[]): KeyNames {
  return new Map(keys.map((key) => [key.id, keyTitle(key)]));
}

/** The events, newest first, as a table: when, what, which key, who. */
export function eventTable(view: View, events: readonly KeyEventView[], names: KeyNames, headingId: string): Html {
  const d = view.dictionary.events;
  if (events.length === 0) return html`<p class="muted">${d.none}</p>`;
  return html`<table class="events" aria-labelledby="${headingId}">
<thead><tr><th scope="col">${d.when}</th><th scope="col">${d.what}</th><th scope="col">${d.key}</th><th scope="col">${d.who}</th></tr></thead>
<tbody>${events.map((event) => eventRow(view, event, names))}</tbody>
</table>`;
}

function eventRow(view: View, event: KeyEventView, names: KeyNames): Html {
  const d = view.dictionary.events;
  return html`<tr class="event ${event.type}">
  <td>${view.absolute(event.at)}</td>
  <td>${d.types[event.type] ?? event.type}${detail(view, event)}</td>
  <td>${keyLabel(event.keyId, names)}</td>
  <td>${who(view, event)}</td>
</tr>`;
}

function detail(view: View, event: KeyEventView): Html | string {
  const d = view.dictionary.events;
  if (event.type === 'rolled' && event.successorKeyId !== null) {
    const until = event.expiresAt === null ? '' : view.absoluteText(event.expiresAt);
    return html` <br><span class="muted">${d.rolledDetail(event.successorKeyId, until)}</span>`;
  }
  if (event.type === 'expired' && event.expiresAt !== null) return html` <br><span class="muted">${d.expiredDetail(view.absoluteText(event.expiresAt))}</span>`;
  return '';
}

function keyLabel(keyId: string, names: KeyNames): Html {
  const name = names.get(keyId);
  return name === undefined || name === keyId ? html`<code>${keyId}</code>` : html`${name} <br><code>${keyId}</code>`;
}

/** The platform user, and through what: the platform (a platform token) or the operator's admin CLI. */
function who(view: View, event: KeyEventView): Html | string {
  const d = view.dictionary.events;
  const via = event.via === null ? null : event.via === 'admin-cli' ? d.viaAdminCli : event.via.startsWith('platform-token:') ? d.viaPlatform : event.via;
  if (event.actor === null) return via === null ? html`<span class="muted">${d.byService}</span>` : via;
  return html`${event.actor}${via === null ? '' : html` <br><span class="muted">${via}</span>`}`;
}

/** GET /events: the whole trail, a page at a time, by the API's cursor. */
export function eventsPage(
  view: View,
  params: { events: readonly KeyEventView[]; names: KeyNames; nextCursor: string | null; cursor: string | null; notice?: Notice },
): Page {
  const d = view.dictionary.events;
  const paging = [
    params.cursor === null ? '' : html`<a href="${view.href('/events')}">${d.newest}</a>`,
    params.nextCursor === null ? '' : html`<a href="${view.href('/events', { cursor: params.nextCursor })}" rel="next">${d.older}</a>`,
  ];
  return {
    title: d.heading,
    switchPath: '/events',
    ...(params.cursor === null ? {} : { switchQuery: { cursor: params.cursor } }),
    body: html`<h1 id="events-heading">${d.heading}</h1>
${notice(view, params.notice)}
${eventTable(view, params.events, params.names, 'events-heading')}
<nav class="paging" aria-label="${d.heading}">${paging}</nav>
<p><a href="${view.href('/')}">${view.dictionary.errors.backToKeys}</a></p>`,
  };
}
