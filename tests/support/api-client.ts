/** What a client observes of one response. */
export interface ApiResponse<T = any> {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly body: T;
}

export interface RequestOptions {
  readonly key?: string | undefined;
  readonly headers?: Record<string, string>;
}

/** A thin client over Node's fetch: real HTTP, nothing between the test and the server. */
export class ApiClient {
  constructor(
    private readonly baseUrl: string,
    private readonly key?: string,
  ) {}

  withKey(key: string | undefined): ApiClient {
    return new ApiClient(this.baseUrl, key);
  }

  get<T = any>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.send<T>('GET', path, undefined, options);
  }

  /** Sends `body` as JSON unless it is a string already (for raw and malformed bodies). */
  post<T = any>(path: string, body: unknown, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    return this.send<T>('POST', path, raw, { ...options, headers: { 'Content-Type': 'application/json', ...options.headers } });
  }

  async send<T = any>(method: string, path: string, body: string | Uint8Array | undefined, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const key = 'key' in options ? options.key : this.key;
    const headers: Record<string, string> = { ...(key === undefined ? {} : { 'X-API-Key': key }), ...options.headers };
    return fetchResponse<T>(`${this.baseUrl}${path}`, method, headers, body);
  }
}

/** One request over Node's fetch, and what a client observes of its answer: the body is read whole and parsed if it is JSON. */
export async function fetchResponse<T = any>(url: string, method: string, headers: Record<string, string>, body: string | Uint8Array | undefined): Promise<ApiResponse<T>> {
  const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed as T };
}
