import { html, type Html } from '../../../career-portal/src/html.js';
import type { Page, View } from './layout.js';

/** A message above a form or a list: what went wrong (the API's own words included), or what was done. */
export interface Notice {
  readonly kind: 'error' | 'warning' | 'success';
  readonly text: string;
  /** The API's `detail` and the message of each of its `errors`, as it wrote them. */
  readonly items?: readonly string[];
  readonly requestId?: string | null;
}

export function notice(view: View, given: Notice | undefined): Html | string {
  if (given === undefined) return '';
  const role = given.kind === 'success' ? 'status' : 'alert';
  return html`<div class="notice ${given.kind}" role="${role}" id="notice">
  <p>${given.text}</p>
  ${given.items !== undefined && given.items.length > 0 ? html`<ul>${given.items.map((item) => html`<li>${item}</li>`)}</ul>` : ''}
  ${given.requestId ? html`<p class="muted">${view.dictionary.errors.requestId(given.requestId)}</p>` : ''}
</div>`;
}

/** A page of one message, with the way back to the keys. */
export function messagePage(view: View, title: string, message: Notice): Page {
  return {
    title,
    switchPath: null,
    body: html`<h1>${title}</h1>
${notice(view, message)}
<p><a href="${view.href('/')}">${view.dictionary.errors.backToKeys}</a></p>`,
  };
}
