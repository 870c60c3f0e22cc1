import { DomainError } from '../shared/domain-error.js';

export const PAGE_LIMIT_MIN = 1;
export const PAGE_LIMIT_MAX = 500;
export const PAGE_LIMIT_DEFAULT = 100;

/** A place in the list order: (modification time, id), ascending. */
export interface PagePosition {
  readonly modifiedAt: Date;
  readonly id: string;
}

/**
 * What a list page holds of each record: `all` of it, or `id` only (its id and its place in the order,
 * `fields=id`), for a pass that only wants to know which records exist.
 */
export type ListFields = 'all' | 'id';

/** The parts a query's fingerprint adds for its fields: none for whole records, so that their cursors stay as they were. */
export function fieldsFingerprintParts(fields: ListFields): string[] {
  return fields === 'all' ? [] : [`fields=${fields}`];
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
}

export class InvalidCursorError extends DomainError {
  readonly code = 'invalid_cursor';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidCursorError';
  }
}

/**
 * The identity of a list query, without `limit`: a cursor is valid only for the query that made it.
 * A short, stable hash of the parts (FNV-1a, 64 bits); it protects against mistakes, not against forgery,
 * which gains nothing since every query is confined to the caller's company anyway.
 */
export function queryFingerprint(parts: readonly (string | null)[]): string {
  const text = JSON.stringify(parts);
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(36);
}

interface CursorPayload {
  v: 1;
  t: number;
  i: string;
  f: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** The longest cursor accepted; encodeCursor's are far shorter (an id is at most 64 characters). */
export const MAX_CURSOR_LENGTH = 512;
/** Positions in years 0000..9999, which PostgreSQL's timestamptz and the API's timestamp form both hold. */
const EARLIEST_POSITION_MS = -62_167_219_200_000; // 0000-01-01T00:00:00.000Z (Date.UTC reads year 0 as 1900)
const LATEST_POSITION_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** An id a store can compare with: no NUL (PostgreSQL text refuses it) and no unpaired surrogate. */
const UNSTORABLE = /\u0000|\p{Cs}/u;

export function encodeCursor(position: PagePosition, fingerprint: string): string {
  const payload: CursorPayload = { v: 1, t: position.modifiedAt.getTime(), i: position.id, f: fingerprint };
  return base64UrlEncode(JSON.stringify(payload));
}

/** Reads a cursor; throws InvalidCursorError when it is malformed or belongs to another query. */
export function decodeCursor(cursor: string, fingerprint: string): PagePosition {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !BASE64URL.test(cursor)) {
    throw new InvalidCursorError('The cursor is malformed. Pass nextCursor of the previous page unchanged.');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(base64UrlDecode(cursor));
  } catch {
    throw new InvalidCursorError('The cursor is malformed. Pass nextCursor of the previous page unchanged.');
  }
  if (!isPayload(payload)) {
    throw new InvalidCursorError('The cursor is malformed. Pass nextCursor of the previous page unchanged.');
  }
  if (payload.f !== fingerprint) {
    throw new InvalidCursorError('The cursor belongs to another query: keep since, status, vacancyId and fields as they were on the first page.');
  }
  return { modifiedAt: new Date(payload.t), id: payload.i };
}

function isPayload(value: unknown): value is CursorPayload {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Record<string, unknown>;
  return (
    p.v === 1 &&
    typeof p.t === 'number' &&
    Number.isSafeInteger(p.t) &&
    p.t >= EARLIEST_POSITION_MS &&
    p.t <= LATEST_POSITION_MS &&
    typeof p.i === 'string' &&
    p.i.length > 0 &&
    p.i.length <= 64 &&
    !/[\u0000-\u001f]/.test(p.i) &&
    !UNSTORABLE.test(p.i) &&
    typeof p.f === 'string'
  );
}

/** Orders by (modifiedAt, id) ascending, the list order (DESIGN 3). Ids compare by code unit, as PostgreSQL's "C" collation. */
export function comparePositions(a: PagePosition, b: PagePosition): number {
  const dt = a.modifiedAt.getTime() - b.modifiedAt.getTime();
  if (dt !== 0) return dt;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function base64UrlEncode(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function base64UrlDecode(text: string): string {
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}
