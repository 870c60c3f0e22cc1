import type { Dictionary } from './i18n/dictionary.js';
import { ManagementApiError, ManagementUnreachableError } from './management-client.js';
import type { Notice } from './views/message.view.js';

export type PageLog = (event: string, details: Record<string, unknown>) => void;

/** A failed call as the person sees it: the page's status, and a notice in their language. */
export interface Failure {
  readonly status: number;
  readonly notice: Notice;
  /** The API said there is no such key (or company): the page says so instead of offering the form again. */
  readonly notFound: boolean;
}

/**
 * What the person is told when the management API refuses or fails. A refusal (400, 404, 409, 422) is
 * shown in the API's own words: its `detail` and the message of each of its `errors`, each named by the
 * field it is about where the page has one. Anything else gets a sentence of the page's and the request id,
 * never a code, a body or a stack. Unexpected errors (a bug of the page) are not failures: rethrown.
 */
export function failureOf(dictionary: Dictionary, error: unknown): Failure {
  const e = dictionary.errors;
  if (error instanceof ManagementUnreachableError) return { status: 503, notice: { kind: 'warning', text: e.unreachable }, notFound: false };
  if (!(error instanceof ManagementApiError)) throw error;
  const requestId = error.problem?.requestId ?? error.requestId;
  const problem = error.problem;
  if (problem === null) return { status: 502, notice: { kind: 'error', text: e.badResponse, requestId }, notFound: false };
  if (error.status === 401) return { status: 502, notice: { kind: 'error', text: e.unauthorized, requestId }, notFound: false };
  if (error.status === 429 || error.status === 503) return { status: 503, notice: { kind: 'warning', text: e.busy, requestId }, notFound: false };
  if (error.status >= 500) return { status: 502, notice: { kind: 'error', text: e.somethingWentWrong, requestId }, notFound: false };
  const items = [problem.detail ?? problem.title ?? problem.code, ...(problem.errors ?? []).map((item) => `${fieldName(dictionary, item.pointer)}: ${item.message}`)];
  return { status: error.status, notice: { kind: 'error', text: e.refused, items, requestId }, notFound: error.status === 404 };
}

/** The field a pointer of the API's is about, as the page labels it; the pointer itself otherwise. */
function fieldName(dictionary: Dictionary, pointer: string): string {
  if (pointer === '/name') return dictionary.issue.name;
  if (pointer === '/scopes' || pointer.startsWith('/scopes/')) return dictionary.issue.scopesLegend;
  if (pointer === '/expiresAt') return dictionary.issue.expiry;
  if (pointer === '/oldKeyExpiresAt') return dictionary.confirm.overlapLabel;
  return pointer;
}

/** What finds the call in the API's log: status, code, request id. Never the token, never a secret. */
export function logFailure(log: PageLog, operation: string, error: unknown): void {
  if (error instanceof ManagementApiError) log('service-keys.api-error', { operation, status: error.status, code: error.problem?.code ?? null, requestId: error.problem?.requestId ?? error.requestId });
  else if (error instanceof ManagementUnreachableError) log('service-keys.api-unreachable', { operation, message: error.message });
}
