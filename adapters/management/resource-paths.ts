import { MANAGEMENT_ROOT } from './management-state.js';

/** Where a company is read (GET), as the Location of its 201: an absolute path on this listener. */
export function companyPath(companyId: string): string {
  return `${MANAGEMENT_ROOT}/companies/${encodeURIComponent(companyId)}`;
}

/** Where a key is read (GET), as the Location of the 201 that issued it. */
export function keyPath(companyId: string, keyId: string): string {
  return `${companyPath(companyId)}/keys/${encodeURIComponent(keyId)}`;
}
