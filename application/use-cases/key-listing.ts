import type { KeyStatus, ServiceKey, ServiceKeySnapshot } from '../../domain/service-key/service-key.js';

/** A key as the company may see it: its state and history, never its hash (nor its company, which the caller knows). */
export type KeyListing = Omit<ServiceKeySnapshot, 'secretHash' | 'companyId'> & { readonly status: KeyStatus };

export function toKeyListing(key: ServiceKey, now: Date): KeyListing {
  const { secretHash: _hash, companyId: _company, ...listing } = key.toSnapshot();
  return { ...listing, status: key.statusAt(now) };
}
