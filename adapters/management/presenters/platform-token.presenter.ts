import type { PlatformCaller } from '../../../application/use-cases/authenticate-platform-token.use-case.js';
import { isoTimestampOrNull } from '../../presenters/timestamp.js';

/** The calling token as GET /platform-token shows it (platformTokenSchema): never its secret or its hash. */
export function presentPlatformToken(caller: PlatformCaller) {
  return {
    id: caller.tokenId,
    name: caller.name,
    scopes: [...caller.scopes],
    companies: caller.companies === null ? null : [...caller.companies],
    expiresAt: isoTimestampOrNull(caller.expiresAt),
  };
}
