import { ApiError, NetworkError, RedirectError, problemOf } from './api-error.js';
import { backoffDelay, retryAfterDelay, type RetryPolicy } from './retry.js';

export interface TransportSettings {
  /** The API root, `{base_url}/integration/v1`. */
  readonly apiRoot: string;
  readonly apiKey: string;
  readonly fetch: typeof fetch;
  readonly retry: RetryPolicy;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly random: () => number;
  /** Time limit of one attempt. */
  readonly timeoutMs: number;
  readonly userAgent: string | undefined;
}

export interface RequestSpec {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly body?: unknown;
  /** Statuses that are an answer, not an error. */
  readonly expect: readonly number[];
  readonly signal?: AbortSignal | undefined;
  /** Sent as X-Request-Id; retries add `.2`, `.3`, ... so that each attempt can be found in the service's log. */
  readonly requestId?: string | undefined;
  /** Sent as If-None-Match: the ETag of a page held, so that an unchanged one is a 304 (list `expect` 304 then). */
  readonly ifNoneMatch?: string | undefined;
}

export interface TransportResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
  readonly attempts: number;
}

/**
 * One logical request: attempts it until it gets an answer, retrying a retryable status (honouring
 * Retry-After) and a network failure with exponential backoff and jitter, at most `maxAttempts` times.
 * Every operation of the API may be repeated safely: reads change nothing, applications are
 * idempotent on externalId. An error answer is thrown as ApiError, an unreachable API as NetworkError, a
 * redirect (never followed) as RedirectError.
 */
export async function send(settings: TransportSettings, spec: RequestSpec): Promise<TransportResponse> {
  const url = urlOf(settings.apiRoot, spec.path, spec.query);
  const requestId = spec.requestId ?? globalThis.crypto.randomUUID();
  const { retry } = settings;
  for (let attempt = 1; ; attempt++) {
    const last = attempt >= retry.maxAttempts;
    let response: Response;
    let text: string;
    try {
      const signals = [AbortSignal.timeout(settings.timeoutMs), ...(spec.signal ? [spec.signal] : [])];
      response = await settings.fetch(url, {
        method: spec.method,
        headers: headersOf(settings, spec, attempt === 1 ? requestId : `${requestId}.${attempt}`),
        ...(spec.body === undefined ? {} : { body: JSON.stringify(spec.body) }),
        signal: AbortSignal.any(signals),
        // Redirects are refused below, not followed: following one sends X-API-Key to its target.
        redirect: 'manual',
      });
      text = await response.text();
    } catch (error) {
      if (spec.signal?.aborted) throw spec.signal.reason;
      if (last) throw new NetworkError(`${spec.method} ${url} failed after ${attempt} attempt(s): ${describe(error)}`, attempt, { cause: error });
      await settings.sleep(backoffDelay(retry, attempt, settings.random), spec.signal);
      continue;
    }

    // Before the redirect check: a 304 asked for (If-None-Match) is an answer, without a body.
    if (response.status === 304 && spec.expect.includes(304)) return { status: 304, headers: response.headers, body: null, attempts: attempt };
    if (isRedirect(response)) throw redirectError(spec, url, response);
    if (spec.expect.includes(response.status)) return { status: response.status, headers: response.headers, body: parseJson(text, url), attempts: attempt };

    const retryAfter = retryAfterDelay(response.headers.get('retry-after'), Date.now(), settings.random);
    const waitable = retryAfter === null || retryAfter <= retry.maxRetryAfterMs;
    if (!last && retry.retryStatuses.has(response.status) && waitable) {
      await settings.sleep(retryAfter ?? backoffDelay(retry, attempt, settings.random), spec.signal);
      continue;
    }
    const problem = problemOf(response.headers.get('content-type'), text);
    const asked = retryAfterDelay(response.headers.get('retry-after'), Date.now(), () => 0);
    throw new ApiError(response.status, problem, response.headers.get('x-request-id'), asked, attempt);
  }
}

/** A 3xx as Node's fetch returns it under redirect: 'manual', or the opaque redirect a browser returns instead. */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status <= 399);
}

function redirectError(spec: RequestSpec, url: string, response: Response): RedirectError {
  const location = response.headers.get('location');
  let target = 'a location the browser does not disclose';
  if (location !== null) {
    try {
      target = new URL(location, url).origin;
    } catch {
      target = 'an unreadable Location';
    }
  }
  return new RedirectError(
    `${spec.method} ${url} was answered with a redirect (HTTP ${response.status}) to ${target}; the client follows no ` +
      'redirects, so that the API key is never sent elsewhere. Point baseUrl at the API itself.',
    response.status,
    location,
  );
}

function headersOf(settings: TransportSettings, spec: RequestSpec, requestId: string): Record<string, string> {
  return {
    'X-API-Key': settings.apiKey,
    'X-Request-Id': requestId,
    Accept: 'application/json',
    ...(spec.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    ...(spec.ifNoneMatch === undefined ? {} : { 'If-None-Match': spec.ifNoneMatch }),
    ...(settings.userAgent === undefined ? {} : { 'User-Agent': settings.userAgent }),
  };
}

function urlOf(apiRoot: string, path: string, query: RequestSpec['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(name, String(value));
  const search = params.toString();
  return `${apiRoot}${path}${search === '' ? '' : `?${search}`}`;
}

function parseJson(text: string, url: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`The answer of ${url} is not JSON.`);
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? error.message;
}

/** `{base_url}` (ending in /api) or the API root itself, to the API root without a trailing slash. */
export function apiRootOf(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return trimmed.endsWith('/integration/v1') ? trimmed : `${trimmed}/integration/v1`;
}
