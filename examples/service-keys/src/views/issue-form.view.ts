import { html, type Html } from '../../../career-portal/src/html.js';
import { SCOPES } from '../../../../domain/service-key/scope.js';
import { EXPIRY_CHOICES } from '../i18n/dictionary.js';
import { KEY_NAME_MAX_LENGTH, type IssueFormErrors, type IssueFormValues } from '../key-forms.js';
import type { Page, View } from './layout.js';
import { notice, type Notice } from './message.view.js';

export interface IssueFormState {
  readonly values: IssueFormValues;
  readonly errors: IssueFormErrors;
  /** The form token (form-token.ts). */
  readonly token: string;
  readonly notice?: Notice;
}

/** Scopes that open personal data, marked as such next to their checkbox. */
export const PERSONAL_DATA = new Set<string>(['candidates:read']);

/**
 * The issue form. `novalidate`: the page's own messages, in the page's language and next to the field,
 * rather than the browser's bubbles; `maxlength` still stops an over-long name as it is typed.
 */
export function issueForm(view: View, state: IssueFormState): Html {
  const d = view.dictionary;
  const { errors, values } = state;
  const hasErrors = errors.name !== undefined || errors.scopes !== undefined;
  const shown = state.notice ?? (hasErrors ? { kind: 'error' as const, text: d.issue.checkFields } : undefined);
  return html`<section class="card" aria-labelledby="issue-heading">
<h2 id="issue-heading">${d.issue.heading}</h2>
${notice(view, shown)}
<form method="post" action="${view.href('/keys')}" novalidate>
  <input type="hidden" name="token" value="${state.token}">
  <div class="field">
    <label for="key-name">${d.issue.name}</label>
    <p class="hint" id="key-name-hint">${d.issue.nameHint}</p>
    <input type="text" id="key-name" name="name" value="${values.name}" maxlength="${KEY_NAME_MAX_LENGTH}" required aria-required="true" autocomplete="off"
      aria-describedby="key-name-hint${errors.name === undefined ? '' : ' key-name-error'}"${errors.name === undefined ? '' : html` aria-invalid="true"`}>
    ${errors.name === undefined ? '' : html`<p class="field-error" id="key-name-error">${errors.name}</p>`}
  </div>
  <fieldset${errors.scopes === undefined ? '' : html` aria-describedby="scopes-error"`}>
    <legend>${d.issue.scopesLegend}</legend>
    ${SCOPES.map((scope) => {
      const id = `scope-${scope.replace(':', '-')}`;
      return html`<div class="choice">
      <input type="checkbox" id="${id}" name="scopes" value="${scope}"${values.scopes.includes(scope) ? html` checked` : ''} aria-describedby="${id}-hint">
      <label for="${id}">${d.scopes[scope].title} <code>${scope}</code>${PERSONAL_DATA.has(scope) ? html`<span class="badge">${d.personalData}</span>` : ''}</label>
      <p class="hint" id="${id}-hint">${d.scopes[scope].explanation}</p>
    </div>`;
    })}
    ${errors.scopes === undefined ? '' : html`<p class="field-error" id="scopes-error">${errors.scopes}</p>`}
  </fieldset>
  <div class="field">
    <label for="key-expiry">${d.issue.expiry}</label>
    <select id="key-expiry" name="expiry">${EXPIRY_CHOICES.map(
      (choice) => html`<option value="${choice}"${values.expiry === choice ? html` selected` : ''}>${d.issue.expiryChoices[choice]}</option>`,
    )}</select>
  </div>
  <button type="submit">${d.issue.submit}</button>
</form>
</section>`;
}

/** The form alone, again, after the page or the API refused what was typed (kept, with the messages). */
export function issueFormPage(view: View, state: IssueFormState): Page {
  return {
    title: view.dictionary.issue.heading,
    switchPath: null,
    body: html`<h1>${view.dictionary.title}</h1>
${issueForm(view, state)}
<p><a href="${view.href('/')}">${view.dictionary.errors.backToKeys}</a></p>`,
  };
}
