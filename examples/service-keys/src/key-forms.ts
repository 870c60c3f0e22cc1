import { KEY_NAME_MAX_LENGTH } from '../../../domain/service-key/service-key.js';
import { isScope, type Scope } from '../../../domain/service-key/scope.js';
import { EXPIRY_CHOICES, ROLL_OVERLAPS, type Dictionary, type ExpiryChoice, type RollOverlap } from './i18n/dictionary.js';

export { KEY_NAME_MAX_LENGTH };

/** The issue form as typed, so that it can be shown again with messages. */
export interface IssueFormValues {
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly expiry: ExpiryChoice;
}

export interface IssueFormErrors {
  readonly name?: string;
  readonly scopes?: string;
}

export const EMPTY_ISSUE_FORM: IssueFormValues = { name: '', scopes: [], expiry: 'never' };

const DAY_MS = 24 * 60 * 60 * 1000;
const EXPIRY_MS: Readonly<Record<Exclude<ExpiryChoice, 'never'>, number>> = { '7d': 7 * DAY_MS, '30d': 30 * DAY_MS, '90d': 90 * DAY_MS, '365d': 365 * DAY_MS };
const MINUTE_MS = 60 * 1000;
/**
 * The API takes an old key's end at most 7 days after its own clock's now, and this page's clock may run
 * ahead of it: "7 days" is sent as 7 days less 5 minutes, so that a page a few minutes ahead still rolls.
 */
const OVERLAP_MS: Readonly<Record<RollOverlap, number>> = { '1h': 60 * MINUTE_MS, '24h': DAY_MS, '3d': 3 * DAY_MS, '7d': 7 * DAY_MS - 5 * MINUTE_MS };
export const DEFAULT_OVERLAP: RollOverlap = '24h';

/** Unknown scopes and choices (a hand-made post) are dropped or replaced by the default. */
export function parseIssueForm(body: URLSearchParams): IssueFormValues {
  return {
    name: (body.get('name') ?? '').trim(),
    scopes: [...new Set(body.getAll('scopes').filter(isScope))],
    expiry: parseExpiry(body.get('expiry')),
  };
}

/** What the page can tell before asking the API: a name, not too long, and a scope. The API checks the rest. */
export function checkIssueForm(dictionary: Dictionary, values: IssueFormValues): IssueFormErrors {
  const length = [...values.name].length;
  return {
    ...(length === 0 ? { name: dictionary.issue.nameMissing } : {}),
    ...(length > KEY_NAME_MAX_LENGTH ? { name: dictionary.issue.nameTooLong(KEY_NAME_MAX_LENGTH) } : {}),
    ...(values.scopes.length === 0 ? { scopes: dictionary.issue.scopesMissing } : {}),
  };
}

export function expiresAtOf(choice: ExpiryChoice, now: Date): string | null {
  return choice === 'never' ? null : new Date(now.getTime() + EXPIRY_MS[choice]).toISOString();
}

export function parseExpiry(value: string | null): ExpiryChoice {
  return (EXPIRY_CHOICES as readonly (string | null)[]).includes(value) ? (value as ExpiryChoice) : 'never';
}

/** The choice closest to a key's lifetime, offered for its successor: a roll should not quietly make a key last for ever. */
export function expiryChoiceLike(key: { readonly createdAt: string; readonly expiresAt: string | null }): ExpiryChoice {
  if (key.expiresAt === null) return 'never';
  const lifetime = Date.parse(key.expiresAt) - Date.parse(key.createdAt);
  const choices = Object.entries(EXPIRY_MS) as [Exclude<ExpiryChoice, 'never'>, number][];
  return choices.reduce((best, choice) => (Math.abs(choice[1] - lifetime) < Math.abs(best[1] - lifetime) ? choice : best))[0];
}

export function parseOverlap(value: string | null): RollOverlap {
  return (ROLL_OVERLAPS as readonly (string | null)[]).includes(value) ? (value as RollOverlap) : DEFAULT_OVERLAP;
}

/** When the old key of a roll stops working: the API takes a moment in the future, at most 7 days away. */
export function oldKeyExpiresAtOf(overlap: RollOverlap, now: Date): string {
  return new Date(now.getTime() + OVERLAP_MS[overlap]).toISOString();
}
