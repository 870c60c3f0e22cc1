import type { ParameterizedContext, Middleware } from 'koa';
import type { Principal } from '../../domain/service-key/service-key.js';

/** What the middlewares of one request tell each other. */
export interface HttpState {
  requestId: string;
  /** The authenticated caller; absent until the gatekeeper let the request through with a valid key. */
  principal?: Principal;
  /** The problem code of an error response, for the access log. */
  problemCode?: string;
}

export type HttpContext = ParameterizedContext<HttpState>;
export type HttpMiddleware = Middleware<HttpState>;

export const API_ROOT = '/api/integration/v1';
export const OPENAPI_PATH = `${API_ROOT}/openapi.json`;
