import { FORM_FIELDS, type ApplicationForm, type FieldErrors, type FieldName } from '../application-form.js';
import { html, type Html } from '../html.js';
import { vacancyPath } from './vacancy-list.view.js';

export interface Notice {
  readonly kind: 'error' | 'warning';
  readonly text: string;
}

export interface FormState {
  readonly form: ApplicationForm;
  readonly errors?: FieldErrors;
  readonly notice?: Notice;
}

interface FieldView {
  readonly label: string;
  readonly type?: 'text' | 'email' | 'tel' | 'textarea';
  readonly autocomplete?: string;
  readonly hint?: string;
}

const VIEWS: Record<FieldName, FieldView> = {
  name: { label: 'Имя и фамилия', autocomplete: 'name' },
  email: { label: 'Электронная почта', type: 'email', autocomplete: 'email' },
  phone: { label: 'Телефон', type: 'tel', autocomplete: 'tel', hint: 'Например, +7 701 555 12 34' },
  coverLetter: { label: 'Сопроводительное письмо', type: 'textarea', hint: 'Пару слов о себе и о том, почему вам интересна эта работа.' },
  referralName: { label: 'Имя рекомендателя' },
  referralEmail: { label: 'Почта рекомендателя', type: 'email' },
  referralPhone: { label: 'Телефон рекомендателя', type: 'tel' },
  referralRelationship: { label: 'Откуда вы знакомы', hint: 'Например: бывший коллега, учились вместе' },
};

/**
 * The form. `novalidate`: the API checks the application and the portal shows its findings in Russian next
 * to each field, so the visitor sees one kind of message rather than the browser's own bubbles.
 */
export function applicationForm(vacancyId: string, state: FormState): Html {
  const errors = state.errors ?? {};
  const invalid = (Object.keys(errors) as FieldName[]).filter((name) => errors[name] !== undefined);
  return html`${notice(state.notice, invalid)}
<form method="post" action="${vacancyPath(vacancyId)}/apply#apply-title" novalidate>
  <input type="hidden" name="externalId" value="${state.form.externalId}">
  <fieldset>
    <legend>О вас</legend>
    ${field('name', state, true)}
    ${field('email', state)}
    ${field('phone', state)}
  </fieldset>
  ${field('coverLetter', state)}
  <fieldset>
    <legend>Вас рекомендует сотрудник?</legend>
    <p class="hint">Необязательно. Заполните, если о вакансии вам рассказал кто-то из нашей команды.</p>
    ${field('referralName', state)}
    ${field('referralEmail', state)}
    ${field('referralPhone', state)}
    ${field('referralRelationship', state)}
  </fieldset>
  <button type="submit">Отправить отклик</button>
  <p class="small">Поля, отмеченные <span class="required">*</span>, обязательны.</p>
</form>`;
}

function notice(given: Notice | undefined, invalid: readonly FieldName[]): Html | string {
  if (given === undefined && invalid.length === 0) return '';
  const text = given?.text ?? 'Пожалуйста, проверьте выделенные поля — мы сохранили всё, что вы ввели.';
  const links = invalid.map((name) => html`<li><a href="#${name}">${VIEWS[name].label}</a></li>`);
  return html`<div class="notice ${given?.kind ?? 'error'}" role="alert" id="form-notice">
  <p>${text}</p>${invalid.length > 0 ? html`<ul>${links}</ul>` : ''}
</div>`;
}

function field(name: FieldName, state: FormState, required = false): Html {
  const view = VIEWS[name];
  const error = state.errors?.[name];
  const value = state.form.values[name];
  const describedBy = [view.hint === undefined ? null : `${name}-hint`, error === undefined ? null : `${name}-error`].filter((id) => id !== null).join(' ');
  const common = html`id="${name}" name="${name}" maxlength="${FORM_FIELDS[name].maxLength}"${required ? html` required aria-required="true"` : ''}${
    error === undefined ? '' : html` aria-invalid="true"`
  }${describedBy === '' ? '' : html` aria-describedby="${describedBy}"`}${view.autocomplete === undefined ? '' : html` autocomplete="${view.autocomplete}"`}`;
  const control =
    view.type === 'textarea'
      ? html`<textarea ${common} rows="6">${value}</textarea>`
      : html`<input type="${view.type ?? 'text'}" ${common} value="${value}">`;
  return html`<div class="field">
      <label for="${name}">${view.label}${required ? html` <span class="required" aria-hidden="true">*</span>` : ''}</label>
      ${view.hint === undefined ? '' : html`<p class="hint" id="${name}-hint">${view.hint}</p>`}
      ${control}
      ${error === undefined ? '' : html`<p class="field-error" id="${name}-error">${error}</p>`}
    </div>`;
}
