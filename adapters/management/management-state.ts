import type { Middleware, ParameterizedContext } from 'koa';
import type { HttpState } from '../http/http-state.js';

/**
 * The platform service calling, as its token names it: the id is no secret, the name is the operator's label;
 * with what the token may do (operation-scopes.ts checks it).
 */
export type { PlatformCaller } from '../../application/use-cases/authenticate-platform-token.use-case.js';
import type { PlatformCaller } from '../../application/use-cases/authenticate-platform-token.use-case.js';

/**
 * What the middlewares of one management request tell each other. It extends the public listener's state, so
 * that the transport middlewares of adapters/http (request id, no-store, access log, errors) serve it as they
 * are; `principal` (a service key) is never set here.
 */
export interface ManagementState extends HttpState {
  /** Set by the gatekeeper once a platform token was accepted. */
  caller?: PlatformCaller;
  /** Set by the gatekeeper: whether the request sent a token at all (`Authorization: Bearer <something>`). */
  tokenPresented?: boolean;
}

export type ManagementContext = ParameterizedContext<ManagementState>;
export type ManagementMiddleware = Middleware<ManagementState>;

export const MANAGEMENT_ROOT = '/internal/v1';
export const MANAGEMENT_OPENAPI_PATH = `${MANAGEMENT_ROOT}/openapi.json`;
/** The challenge of a 401 to a request that sent no token (RFC 6750 3.1: no error code then). */
export const PLATFORM_TOKEN_CHALLENGE = 'Bearer realm="management"';
/** The challenge of a 401 to a request whose token is malformed, unknown, wrong or revoked (RFC 6750 3.1). */
export const INVALID_PLATFORM_TOKEN_CHALLENGE = `${PLATFORM_TOKEN_CHALLENGE}, error="invalid_token"`;

/** How to authenticate, and whether the token sent failed; never which way it failed. */
export function platformTokenChallenge(state: ManagementState): string {
  return state.tokenPresented === true ? INVALID_PLATFORM_TOKEN_CHALLENGE : PLATFORM_TOKEN_CHALLENGE;
}
