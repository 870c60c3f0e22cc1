import { fetchResponse, type ApiResponse } from './api-client.js';

export interface ManagementRequestOptions {
  /** The platform token; `undefined` sends no Authorization header. */
  readonly token?: string | undefined;
  /** X-Actor as sent (percent-encode it first when it is not ASCII); `undefined` sends none. */
  readonly actor?: string | undefined;
  readonly headers?: Record<string, string>;
}

/** A thin client of the management API over Node's fetch: a bearer token and an X-Actor by default. */
export class ManagementClient {
  constructor(
    readonly baseUrl: string,
    private readonly token: string | undefined,
    private readonly actor: string | undefined = 'tester@platform.example',
  ) {}

  as(options: { token?: string | undefined; actor?: string | undefined }): ManagementClient {
    return new ManagementClient(this.baseUrl, 'token' in options ? options.token : this.token, 'actor' in options ? options.actor : this.actor);
  }

  get<T = any>(path: string, options: ManagementRequestOptions = {}): Promise<ApiResponse<T>> {
    return this.send<T>('GET', path, undefined, options);
  }

  /** Sends `body` as JSON unless it is a string already; `undefined` sends no body and no Content-Type. */
  post<T = any>(path: string, body?: unknown, options: ManagementRequestOptions = {}): Promise<ApiResponse<T>> {
    if (body === undefined) return this.send<T>('POST', path, undefined, options);
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    return this.send<T>('POST', path, raw, { ...options, headers: { 'Content-Type': 'application/json', ...options.headers } });
  }

  async send<T = any>(method: string, path: string, body: string | undefined, options: ManagementRequestOptions = {}): Promise<ApiResponse<T>> {
    const token = 'token' in options ? options.token : this.token;
    const actor = 'actor' in options ? options.actor : this.actor;
    const headers: Record<string, string> = {
      ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
      ...(actor === undefined ? {} : { 'X-Actor': actor }),
      ...options.headers,
    };
    return fetchResponse<T>(`${this.baseUrl}${path}`, method, headers, body);
  }
}
