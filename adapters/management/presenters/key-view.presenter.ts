import type { IssuedKey } from '../../../application/use-cases/issue-key.use-case.js';
import type { KeyEventListing } from '../../../application/use-cases/list-key-events.use-case.js';
import type { KeyListing } from '../../../application/use-cases/key-listing.js';
import type { CompanySnapshot } from '../../../domain/company/company.js';
import { isoTimestamp, isoTimestampOrNull } from '../../presenters/timestamp.js';

/**
 * The wire forms of the management API (schemas/management-response.schema.ts). Each lists its fields one by
 * one: nothing a use case adds later (a hash, a company id) reaches a response unless it is named here.
 */
export function presentCompany(company: CompanySnapshot) {
  return { id: company.id, name: company.name, createdAt: isoTimestamp(company.createdAt) };
}

export function presentKey(key: KeyListing) {
  return {
    id: key.id,
    name: key.name,
    scopes: [...key.scopes],
    status: key.status,
    createdAt: isoTimestamp(key.createdAt),
    createdBy: key.createdBy,
    expiresAt: isoTimestampOrNull(key.expiresAt),
    revokedAt: isoTimestampOrNull(key.revokedAt),
    revokedBy: key.revokedBy,
    lastUsedAt: isoTimestampOrNull(key.lastUsedAt),
    rolledFrom: key.rolledFrom,
    rolledTo: key.rolledTo,
  };
}

/**
 * A key just issued, with its secret. Such a key is active, unused, not revoked and not rolled yet: its
 * expiry, if any, is in the future (the domain refuses any other), and nothing else has happened to it.
 */
export function presentIssuedKey(issued: IssuedKey) {
  return {
    ...presentKey({
      id: issued.id,
      name: issued.name,
      scopes: issued.scopes,
      status: 'active',
      createdAt: issued.createdAt,
      createdBy: issued.createdBy,
      expiresAt: issued.expiresAt,
      revokedAt: null,
      revokedBy: null,
      lastUsedAt: null,
      rolledFrom: issued.rolledFrom,
      rolledTo: null,
    }),
    key: issued.key,
  };
}

export function presentKeyEvent(event: KeyEventListing) {
  return {
    id: event.id,
    type: event.type,
    keyId: event.keyId,
    at: isoTimestamp(event.at),
    actor: event.actor,
    via: event.via,
    successorKeyId: event.successorKeyId,
    expiresAt: isoTimestampOrNull(event.expiresAt),
  };
}
