/**
 * Examples of the management document, as a company's keys in Kazakhstan would look. The linter checks every one
 * against its schema (no-invalid-media-type-examples), so they cannot drift.
 */
const COMPANY_ID = '019a98c0-5e00-7000-8a00-000000000001';
const OLD_KEY_ID = 'Q7rT2mZk9LpA';
const NEW_KEY_ID = 'b3XwN8vKe2Hd';
const ACTOR = 'Айгерим Н.';
const VIA = 'platform-token:Pm4sYq8LrT2c';

export const companyExample = { id: COMPANY_ID, name: 'ТОО «Каспиан Софт»', createdAt: '2026-11-02T09:00:00.000Z' };

export const keyExample = {
  id: OLD_KEY_ID,
  name: 'Карьерный сайт',
  scopes: ['vacancies:read', 'applications:write'],
  status: 'active',
  createdAt: '2026-11-02T09:15:00.000Z',
  createdBy: ACTOR,
  expiresAt: null,
  revokedAt: null,
  revokedBy: null,
  lastUsedAt: '2026-11-20T14:03:12.481Z',
  rolledFrom: null,
  rolledTo: null,
};

const revokedKeyExample = {
  ...keyExample,
  id: 'Zr5Kp0Lm3NqW',
  name: 'HR-выгрузка (старая)',
  scopes: ['candidates:read'],
  status: 'revoked',
  createdAt: '2026-09-01T08:00:00.000Z',
  createdBy: 'admin-cli',
  revokedAt: '2026-10-15T12:30:00.000Z',
  revokedBy: ACTOR,
  lastUsedAt: null,
};

export const issuedKeyExample = {
  ...keyExample,
  lastUsedAt: null,
  key: `ik_${OLD_KEY_ID}_4fT9qLw2ZxR7bN1mKc8VdS3hJ6pY0aGe5uQiXoWt`,
};

export const rollExample = {
  issued: { ...issuedKeyExample, id: NEW_KEY_ID, createdAt: '2026-11-24T10:00:00.000Z', rolledFrom: OLD_KEY_ID, key: `ik_${NEW_KEY_ID}_Hq2Lm7Wx0Zr5Tn9Kb4Vc8Ys1Pd6Jf3GaUeRoEiNt` },
  rolled: { ...keyExample, expiresAt: '2026-11-25T10:00:00.000Z', rolledTo: NEW_KEY_ID },
};

export const keyListExample = { items: [revokedKeyExample, keyExample] };

export const keyEventPageExample = {
  items: [
    { id: '019ab5a0-0000-7000-8000-000000000009', type: 'issued', keyId: NEW_KEY_ID, at: '2026-11-24T10:00:00.000Z', actor: ACTOR, via: VIA, successorKeyId: null, expiresAt: null },
    { id: '019ab5a0-0000-7000-8000-000000000008', type: 'rolled', keyId: OLD_KEY_ID, at: '2026-11-24T10:00:00.000Z', actor: ACTOR, via: VIA, successorKeyId: NEW_KEY_ID, expiresAt: '2026-11-25T10:00:00.000Z' },
    { id: '019a9c00-0000-7000-8000-000000000004', type: 'first_used', keyId: OLD_KEY_ID, at: '2026-11-03T07:41:09.112Z', actor: null, via: null, successorKeyId: null, expiresAt: null },
  ],
  nextCursor: 'eyJ2IjoyLCJpIjoiMDE5YTljMDAtMDAwMC03MDAwLTgwMDAtMDAwMDAwMDAwMDA0IiwiZiI6IjJ6dXZoaHFiYmJhYmcifQ',
};

export const createCompanyExample = { name: 'ТОО «Каспиан Софт»' };
export const issueKeyExample = { name: 'Карьерный сайт', scopes: ['vacancies:read', 'applications:write'], expiresAt: '2027-11-01T00:00:00Z' };
export const rollKeyExample = { oldKeyExpiresAt: '2026-11-25T10:00:00Z', expiresAt: null };

export const platformTokenExample = {
  id: 'Pm4sYq8LrT2c',
  name: 'service-keys-page',
  scopes: ['keys:read', 'keys:write', 'key-events:read'],
  companies: [COMPANY_ID],
  expiresAt: '2027-11-30T00:00:00.000Z',
};
