import type { Vacancy } from '../../../../clients/typescript/src/index.js';
import { formatSalary, formatWorkFormat } from '../format.js';
import { html } from '../html.js';
import type { Page } from './layout.js';

export function vacancyPath(id: string): string {
  return `/vacancies/${encodeURIComponent(id)}`;
}

export function vacancyListPage(vacancies: readonly Vacancy[]): Page {
  if (vacancies.length === 0) {
    return {
      title: 'Вакансии',
      body: html`<h1>Открытые вакансии</h1><div class="card"><p>Сейчас открытых вакансий нет. Загляните к нам позже!</p></div>`,
    };
  }
  const items = vacancies.map((vacancy) => {
    const where = [vacancy.city, formatWorkFormat(vacancy)].filter((part) => part !== null).join(' · ');
    return html`<li class="card vacancy">
  <h2><a href="${vacancyPath(vacancy.id)}">${vacancy.title}</a></h2>
  ${where === '' ? '' : html`<p class="meta">${where}</p>`}
  <p class="salary">${formatSalary(vacancy)}</p>
</li>`;
  });
  return {
    title: 'Вакансии',
    body: html`<h1>Открытые вакансии</h1>
<p class="meta">${vacanciesCount(vacancies.length)}</p>
<ul class="vacancies">${items}</ul>`,
  };
}

function vacanciesCount(count: number): string {
  const forms = { one: 'вакансия', few: 'вакансии', many: 'вакансий', other: 'вакансии' } as const;
  const rule = new Intl.PluralRules('ru-RU').select(count) as keyof typeof forms;
  return `${count} ${forms[rule] ?? forms.other}`;
}
