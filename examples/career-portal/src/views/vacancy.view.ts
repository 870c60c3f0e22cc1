import type { Vacancy } from '../../../../clients/typescript/src/index.js';
import { formatDate, formatSalary, formatWorkFormat } from '../format.js';
import { html, type Html } from '../html.js';
import { applicationForm, type FormState } from './application-form.view.js';
import type { Page } from './layout.js';

export function vacancyPage(vacancy: Vacancy, form: FormState): Page {
  const facts: [string, string | null][] = [
    ['Зарплата', formatSalary(vacancy)],
    ['Город', vacancy.city],
    ['Адрес', vacancy.officeAddress],
    ['Формат работы', formatWorkFormat(vacancy)],
    ['Опыт', vacancy.experience],
    ['Занятость', vacancy.employmentForm],
    ['График', vacancy.workSchedule.length > 0 ? vacancy.workSchedule.join(', ') : null],
    ['Опубликована', formatDate(vacancy.publishedAt)],
  ];
  return {
    title: vacancy.title,
    body: html`<p><a href="/">← Все вакансии</a></p>
<article class="card">
  <h1>${vacancy.title}</h1>
  <dl class="facts">${facts.filter(([, value]) => value !== null && value !== '').map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`)}</dl>
  ${vacancy.skills.length > 0 ? html`<ul class="tags" aria-label="Навыки">${vacancy.skills.map((skill) => html`<li>${skill}</li>`)}</ul>` : ''}
  ${description(vacancy)}
</article>
<section class="card" aria-labelledby="apply-title">
  <h2 id="apply-title">Откликнуться на вакансию</h2>
  ${applicationForm(vacancy.id, form)}
</section>`,
  };
}

/** The form alone, for when the vacancy cannot be read but what the visitor typed must not be lost. */
export function applicationOnlyPage(vacancyId: string, form: FormState): Page {
  return {
    title: 'Отклик на вакансию',
    body: html`<p><a href="/">← Все вакансии</a></p>
<section class="card" aria-labelledby="apply-title">
  <h1 id="apply-title">Отклик на вакансию</h1>
  ${applicationForm(vacancyId, form)}
</section>`,
  };
}

/**
 * The description as text. `description` is the employer's HTML passed through from the job board: shown
 * as markup it could carry scripts, forms or tracking images onto our page, and sanitising it well needs a
 * real HTML parser. `responsibilities` is the same text without markup (spec 2.1), so we show that, a
 * paragraph per line, escaped like everything else.
 */
function description(vacancy: Vacancy): Html | string {
  const text = vacancy.responsibilities ?? '';
  const paragraphs = text.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  if (paragraphs.length === 0) return '';
  return html`<div class="description">${paragraphs.map((line) => html`<p>${line}</p>`)}</div>`;
}
