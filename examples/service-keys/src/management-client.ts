/** The management API's wire shapes (see the API's GET /internal/v1/openapi.json). */
export type KeyStatus = 'active' | 'expired' | 'revoked';
export type KeyEventType = 'issued' | 'rolled' | 'revoked' | 'expired' | 'first_used';

export interface KeyView {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly string[];
  readonly status: KeyStatus;
  readonly createdAt: string;
  readonly createdBy: string | null;
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
  readonly revokedBy: string | null;
  readonly lastUsedAt: string | null;
  readonly rolledFrom: string | null;
  readonly rolledTo: string | null;
}

/** A key as issued: the only answer that carries its secret. */
export interface IssuedKeyView extends KeyView {
  readonly key: string;
}

export interface KeyEventView {
  readonly id: string;
  readonly type: KeyEventType;
  readonly keyId: string;
  readonly at: string;
  readonly actor: string | null;
  readonly via: string | null;
  readonly successorKeyId: string | null;
  readonly expiresAt: string | null;
}

/** The page's own platform token, as GET /internal/v1/platform-token shows it: what the page may do. */
export interface PlatformTokenView {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly string[];
  /** Null: every company. */
  readonly companies: readonly string[] | null;
  readonly expiresAt: string | null;
}

export interface ProblemView {
  readonly status: number;
  readonly code: string;
  readonly title?: string;
  readonly detail?: string;
  readonly requestId?: string;
  readonly errors?: readonly { readonly pointer: string; readonly message: string }[];
}

/** The API answered with an error; `problem` is its problem+json body, null when the body was something else. */
export class ManagementApiError extends Error {
  override readonly name = 'ManagementApiError';
  constructor(
    readonly status: number,
    readonly problem: ProblemView | null,
    readonly requestId: string | null,
  ) {
    super(problem === null ? `HTTP ${status}` : `${status} ${problem.code}: ${problem.detail ?? ''}`);
  }
}

/** The API could not be reached, or did not answer in time. */
export class ManagementUnreachableError extends Error {
  override readonly name = 'ManagementUnreachableError';
}

/** On whose behalf a call is made: the company whose keys these are, and the platform user acting. */
export interface CallerContext {
  readonly companyId: string;
  readonly actor: string;
}

export interface ManagementClientOptions {
  /** http://127.0.0.1:8081, the management listener (MANAGEMENT_HOST, MANAGEMENT_PORT of the API). */
  readonly baseUrl: string;
  /** A platform token (pt_...), from `npm run admin -- platform-token issue`. */
  readonly token: string;
  readonly timeoutMs?: number;
}

/**
 * The management API over fetch. No retries: issuing and rolling are not idempotent, and a person who
 * sees "try again" decides. The token goes in Authorization only, and a redirect is never followed (it
 * would carry the token elsewhere): the API never redirects, so one means a wrong MANAGEMENT_URL.
 */
export class ManagementClient {
  private readonly base: string;

  constructor(private readonly options: ManagementClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  async listKeys(caller: CallerContext): Promise<KeyView[]> {
    const page = await this.call<{ items: KeyView[] }>(caller, 'GET', '/keys');
    return arrayOf(page.items);
  }

  async issueKey(caller: CallerContext, request: { name: string; scopes: readonly string[]; expiresAt: string | null }): Promise<IssuedKeyView> {
    const body = { name: request.name, scopes: request.scopes, ...(request.expiresAt === null ? {} : { expiresAt: request.expiresAt }) };
    return this.call<IssuedKeyView>(caller, 'POST', '/keys', body);
  }

  async revokeKey(caller: CallerContext, keyId: string): Promise<KeyView> {
    return this.call<KeyView>(caller, 'POST', `/keys/${encodeURIComponent(keyId)}/revoke`);
  }

  async rollKey(caller: CallerContext, keyId: string, request: { oldKeyExpiresAt: string; expiresAt: string | null }): Promise<{ issued: IssuedKeyView; rolled: KeyView }> {
    // `expiresAt: null` says "never" in so many words: left out, the new key would get the old key's lifetime.
    const body = { oldKeyExpiresAt: request.oldKeyExpiresAt, expiresAt: request.expiresAt };
    return this.call(caller, 'POST', `/keys/${encodeURIComponent(keyId)}/roll`, body);
  }

  async listEvents(caller: CallerContext, page: { limit: number; cursor: string | null }): Promise<{ items: KeyEventView[]; nextCursor: string | null }> {
    const query = new URLSearchParams({ limit: String(page.limit) });
    if (page.cursor !== null) query.set('cursor', page.cursor);
    const answer = await this.call<{ items: KeyEventView[]; nextCursor: string | null }>(caller, 'GET', `/key-events?${query}`);
    return { items: arrayOf(answer.items), nextCursor: typeof answer.nextCursor === 'string' ? answer.nextCursor : null };
  }

  /** The token this page holds: its scopes, companies and expiry. */
  async getPlatformToken(caller: CallerContext): Promise<PlatformTokenView> {
    return this.send<PlatformTokenView>(caller, 'GET', '/platform-token');
  }

  private async call<T>(caller: CallerContext, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    return this.send<T>(caller, method, `/companies/${encodeURIComponent(caller.companyId)}${path}`, body);
  }

  private async send<T>(caller: CallerContext, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const url = `${this.base}/internal/v1${path}`;
    // A header carries bytes: the actor goes percent-encoded as UTF-8, which the management API decodes.
    const headers: Record<string, string> = { Authorization: `Bearer ${this.options.token}`, 'X-Actor': encodeURIComponent(caller.actor), Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new ManagementUnreachableError(`${method} ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const requestId = response.headers.get('x-request-id');
    const text = await response.text().catch(() => '');
    const json = parseJson(text);
    if (response.ok && json !== undefined) return json as T;
    throw new ManagementApiError(response.status, response.ok ? null : problemOf(json, response.status), requestId);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function problemOf(json: unknown, status: number): ProblemView | null {
  if (typeof json !== 'object' || json === null || typeof (json as { code?: unknown }).code !== 'string') return null;
  const problem = json as ProblemView;
  const errors = Array.isArray(problem.errors) ? problem.errors.filter((item) => typeof item?.message === 'string') : undefined;
  return { ...problem, status, ...(errors === undefined ? {} : { errors }) };
}

function arrayOf<T>(value: T[] | undefined): T[] {
  if (!Array.isArray(value)) throw new ManagementApiError(200, null, null);
  return value;
}
