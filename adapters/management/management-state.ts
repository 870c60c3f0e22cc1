import type { Middleware, ParameterizedContext } from 'koa';
import type { HttpState } from '../http/http-state.js';

/** The platform service calling, as its token names it: the id is no secret, the name is the operator's label. */
export interface PlatformCaller {
  readonly tokenId: string;
  readonly name: string;
}

/**
 * What the middlewares of one management request tell each other. It extends the public listener's state, so
 * that the transport middlewares of adapters/http (request id, no-store, access log, errors) serve it as they
 * are; `principal` (a service key) is never set here.
 */
export interface ManagementState extends HttpState {
  /** Set by the gatekeeper once a platform token was accepted. */
  caller?: PlatformCaller;
}

export type ManagementContext = ParameterizedContext<ManagementState>;
export type ManagementMiddleware = Middleware<ManagementState>;

export const MANAGEMENT_ROOT = '/internal/v1';
export const MANAGEMENT_OPENAPI_PATH = `${MANAGEMENT_ROOT}/openapi.json`;
/** The challenge of every 401 (RFC 6750): how to authenticate, the same whatever was wrong with the token. */
export const PLATFORM_TOKEN_CHALLENGE = 'Bearer realm="management"';
