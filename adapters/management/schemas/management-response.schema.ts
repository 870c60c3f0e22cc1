import { PLATFORM_TOKEN_ID_LENGTH } from '../../../domain/platform-token/platform-token-format.js';
import { PLATFORM_SCOPES } from '../../../domain/platform-token/platform-scope.js';
import { KEY_EVENT_TYPES } from '../../../domain/service-key/key-event.js';
import { SCOPES } from '../../../domain/service-key/scope.js';
import { KEY_ID_LENGTH, KEY_PREFIX, KEY_SECRET_MIN_LENGTH } from '../../../domain/service-key/service-key-format.js';
import { closedObject, nullableStr, nullableTimestamp, ref, str, timestamp } from '../../http/schemas/schema-helpers.js';

/** The answers of the management API. Every field is always present (null when there is nothing), as on the public API. */
const KEY_STATUSES = ['active', 'expired', 'revoked'];
/** The key id as the domain makes it: also what a path's {keyId} must look like to name a key. */
export const KEY_ID_PATTERN = `^[0-9A-Za-z]{${KEY_ID_LENGTH}}$`;
const keyId = (description: string) => ({ ...str(), pattern: KEY_ID_PATTERN, description });
const nullableKeyId = (description: string) => ({ type: ['string', 'null'], pattern: KEY_ID_PATTERN, description });

export const companySchema = closedObject({
  id: { ...str(), minLength: 1, description: 'The company id, in every path of its keys and events.' },
  name: str(),
  createdAt: timestamp(),
});

const keyViewProperties = {
  id: keyId('The key id: the part after ik_ of the key itself; not secret.'),
  name: str(),
  scopes: { type: 'array', items: { type: 'string', enum: [...SCOPES] }, description: 'In this order: vacancies:read, candidates:read, applications:write.' },
  status: { type: 'string', enum: KEY_STATUSES, description: 'Now: revoked wins over expired.' },
  createdAt: timestamp(),
  createdBy: { ...nullableStr(), description: 'The actor who issued it (X-Actor, or the admin CLI\'s); null for keys older than the audit trail.' },
  expiresAt: { ...nullableTimestamp(), description: 'Null: it never expires. A roll sets it to the old key\'s end of overlap.' },
  revokedAt: nullableTimestamp(),
  revokedBy: { ...nullableStr(), description: 'The actor who revoked it; set with revokedAt.' },
  lastUsedAt: { ...nullableTimestamp(), description: 'Updated at most once a minute; null: never used.' },
  rolledFrom: nullableKeyId('The key this one replaced by a roll.'),
  rolledTo: nullableKeyId('The key that replaced this one by a roll.'),
};

/** A key as the company may see it: never its secret nor its hash. */
export const keyViewSchema = closedObject(keyViewProperties);

/** A key just issued, with its secret: the one answer that carries it, shown this once. */
export const issuedKeySchema = closedObject({
  ...keyViewProperties,
  key: {
    ...str(),
    pattern: `^${KEY_PREFIX}[0-9A-Za-z]{${KEY_ID_LENGTH}}_[0-9A-Za-z]{${KEY_SECRET_MIN_LENGTH},128}$`,
    description: 'The full key, to send as X-API-Key to the public API. Shown this once: it is stored only as a hash and cannot be shown again.',
  },
});

export const rollResultSchema = closedObject({
  issued: { ...ref('IssuedKey'), description: 'The successor, with its secret (shown this once), the old key\'s name and scopes.' },
  rolled: { ...ref('Key'), description: 'The old key after the roll: rolledTo set, expiresAt its end of overlap.' },
});

export const keyListSchema = closedObject({
  items: { type: 'array', items: ref('Key'), description: 'Every key of the company, oldest first, revoked and expired ones included.' },
});

export const keyEventSchema = closedObject({
  id: { ...str(), minLength: 1 },
  type: {
    type: 'string',
    enum: [...KEY_EVENT_TYPES],
    description: 'issued; rolled (the old key; successorKeyId is the new one); revoked; expired (first refused for its expiry); first_used.',
  },
  keyId: keyId('The key it happened to.'),
  at: timestamp(),
  actor: { ...nullableStr(), description: 'Who did it (X-Actor, or the admin CLI\'s actor); null for expired and first_used, which the service records itself.' },
  via: { ...nullableStr(), description: 'How: platform-token:<tokenId>, admin-cli, or null (the service itself).' },
  successorKeyId: nullableKeyId('rolled only: the new key.'),
  expiresAt: { ...nullableTimestamp(), description: 'rolled: when the old key stops working; expired: the expiry that was met.' },
});

export const keyEventPageSchema = closedObject({
  items: { type: 'array', items: ref('KeyEvent'), description: 'Newest first; empty on an empty last page.' },
  nextCursor: { ...nullableStr(), description: 'Null exactly on the last page; otherwise pass it unchanged as cursor.' },
});

/** The token of the request (GET /platform-token): what it may do, never its secret. */
export const platformTokenSchema = closedObject({
  id: { ...str(), pattern: `^[0-9A-Za-z]{${PLATFORM_TOKEN_ID_LENGTH}}$`, description: 'The token id: the part between pt_ and the second _; not secret.' },
  name: { ...str(), description: 'The name the operator gave it (which service holds it).' },
  scopes: {
    type: 'array',
    minItems: 1,
    items: { type: 'string', enum: [...PLATFORM_SCOPES] },
    description: `What it may do, in this order: ${PLATFORM_SCOPES.join(', ')}. Each operation needs one (its security requirement names it).`,
  },
  companies: {
    type: ['array', 'null'],
    minItems: 1,
    items: { ...str(), minLength: 1 },
    description: 'The companies it is limited to; null: every company. Another company is a 403 naming it.',
  },
  expiresAt: { ...nullableTimestamp(), description: 'When it stops working; null: never.' },
});
