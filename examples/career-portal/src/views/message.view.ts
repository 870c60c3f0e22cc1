import { html } from '../html.js';
import { vacancyPath } from './vacancy-list.view.js';
import type { Page } from './layout.js';

export function successPage(params: { name: string; vacancyTitle: string | null; applicationId: string; repeated: boolean }): Page {
  const what = params.vacancyTitle === null ? 'ваш отклик' : html`ваш отклик на вакансию «${params.vacancyTitle}»`;
  return {
    title: 'Отклик отправлен',
    body: html`<div class="card success" role="status">
  <p class="mark" aria-hidden="true">✓</p>
  <h1>Спасибо, ${params.name}!</h1>
  <p>${params.repeated ? html`Мы уже получили ${what} — отправлять его ещё раз не нужно.` : html`Мы получили ${what}.`}
  Рекрутер прочитает его и свяжется с вами по почте или телефону.</p>
  <p class="small">Номер отклика: ${params.applicationId}</p>
  <p><a href="/">Посмотреть другие вакансии</a></p>
</div>`,
  };
}

export function messagePage(title: string, text: string): Page {
  return {
    title,
    body: html`<div class="card" role="alert">
  <h1>${title}</h1>
  <p>${text}</p>
  <p><a href="/">Ко всем вакансиям</a></p>
</div>`,
  };
}

export const VACANCY_GONE = messagePage(
  'Вакансия закрыта',
  'Эта вакансия уже закрыта или снята с публикации, поэтому откликнуться на неё нельзя. Посмотрите другие открытые вакансии — возможно, вам подойдёт одна из них.',
);
export const PAGE_NOT_FOUND = messagePage('Страница не найдена', 'Такой страницы у нас нет. Возможно, ссылка устарела.');
export const LIST_UNAVAILABLE = messagePage(
  'Вакансии временно недоступны',
  'Нам не удалось загрузить список вакансий. Пожалуйста, обновите страницу через минуту.',
);
export const SOMETHING_WENT_WRONG = messagePage('Что-то пошло не так', 'Мы уже разбираемся. Пожалуйста, попробуйте ещё раз чуть позже.');
export const FORM_TOO_LARGE = messagePage('Слишком большой отклик', 'Отклик не поместился в форму. Сократите сопроводительное письмо и попробуйте ещё раз.');

/** A POST from another site's page (see cross-site.ts): nothing was sent; the way to the real form. */
export function crossSitePage(vacancyId: string): Page {
  return {
    title: 'Отклик не принят',
    body: html`<div class="card" role="alert">
  <h1>Отклик не принят</h1>
  <p>Мы принимаем отклики только из формы на нашем сайте, а этот пришёл с другой страницы, поэтому мы его не отправили.
  Если вы хотели откликнуться, откройте вакансию у нас и заполните форму там.</p>
  <p><a href="${vacancyPath(vacancyId)}">Открыть вакансию</a> · <a href="/">Ко всем вакансиям</a></p>
</div>`,
  };
}

/** The notice above the form, kept as typed, when this address has sent too many applications for now. */
export function tooManyApplications(retryAfterS: number): string {
  const wait = retryAfterS < 60 ? `${retryAfterS} с` : `${Math.ceil(retryAfterS / 60)} мин`;
  return `С вашего адреса недавно отправили слишком много откликов, поэтому этот мы пока не отправили. Всё, что вы ввели, сохранено — нажмите «Отправить отклик» ещё раз через ${wait}.`;
}
