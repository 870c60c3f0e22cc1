import type { Vacancy } from '../../../clients/typescript/src/index.js';

const WORK_FORMATS: Record<NonNullable<Vacancy['workFormat']>, string> = {
  remote: 'Удалённо',
  office: 'В офисе',
  hybrid: 'Гибрид: офис и удалённо',
  other: 'Другой формат',
};

/** Names Intl has no Russian sign for; codes the job board still uses for old currencies. */
const CURRENCY_SIGNS: Record<string, string> = { UZS: 'сум' };
const CURRENCY_ALIASES: Record<string, string> = { RUR: 'RUB' };

const plain = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });

/** 900 000 ₸, 15 000 000 сум; a code Intl does not take is written after the number as it came. */
export function formatMoney(amount: number, currency: string | null): string {
  if (currency === null) return plain.format(amount);
  const code = CURRENCY_ALIASES[currency.toUpperCase()] ?? currency.toUpperCase();
  const sign = CURRENCY_SIGNS[code];
  if (sign !== undefined) return `${plain.format(amount)} ${sign}`;
  try {
    return new Intl.NumberFormat('ru-RU', { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol', maximumFractionDigits: 0 }).format(amount);
  } catch {
    return `${plain.format(amount)} ${currency}`;
  }
}

/** «от 500 000 до 900 000 ₸ на руки»; the spec sends salaryFrom = salaryTo when only an upper bound was given. */
export function formatSalary(vacancy: Pick<Vacancy, 'salaryFrom' | 'salaryTo' | 'salaryCurrency' | 'salaryGross'>): string {
  const { salaryFrom: from, salaryTo: to, salaryCurrency: currency } = vacancy;
  let range: string;
  if (from === null && to === null) return 'Зарплата не указана';
  else if (from !== null && to !== null && from !== to) range = `от ${plain.format(from)} до ${formatMoney(to, currency)}`;
  else if (from !== null && to === null) range = `от ${formatMoney(from, currency)}`;
  else if (from === null && to !== null) range = `до ${formatMoney(to, currency)}`;
  else range = formatMoney(from as number, currency);
  if (vacancy.salaryGross === true) return `${range} до вычета налогов`;
  if (vacancy.salaryGross === false) return `${range} на руки`;
  return range;
}

export function formatWorkFormat(vacancy: Pick<Vacancy, 'workFormat' | 'workFormats'>): string | null {
  if (vacancy.workFormat === null) return vacancy.workFormats.length > 0 ? vacancy.workFormats.join(', ') : null;
  return WORK_FORMATS[vacancy.workFormat];
}

const dates = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

export function formatDate(iso: string | null): string | null {
  if (iso === null) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : dates.format(date);
}
