import type { KeyEvent, KeyEventType } from '../../domain/service-key/key-event.js';
import { ServiceKey } from '../../domain/service-key/service-key.js';
import { at, nextId } from '../support/builders.js';

/** A 12-character key id, unique in the run and ascending in creation order. */
export function aKeyId(): string {
  return nextId('k').replace(/-/g, '').padEnd(12, '0').slice(0, 12);
}

/** A key as IssueKey makes it, with who issued it and what it replaced. */
export function anIssuedKey(params: {
  companyId: string;
  id?: string;
  now?: Date;
  actor?: string | null;
  rolledFrom?: string | null;
  expiresAt?: Date | null;
}): ServiceKey {
  return ServiceKey.issue({
    id: params.id ?? aKeyId(),
    companyId: params.companyId,
    name: 'ключ интеграции',
    scopes: ['vacancies:read', 'applications:write'],
    secretHash: 'b'.repeat(64),
    expiresAt: params.expiresAt ?? null,
    now: params.now ?? at(0),
    actor: params.actor === undefined ? 'alice@platform' : params.actor,
    rolledFrom: params.rolledFrom ?? null,
  });
}

export function aKeyEvent(params: { companyId: string; keyId: string; type: KeyEventType; at: Date; id?: string } & Partial<KeyEvent>): KeyEvent {
  return {
    id: params.id ?? nextId('ev'),
    companyId: params.companyId,
    keyId: params.keyId,
    type: params.type,
    at: params.at,
    actor: params.actor ?? null,
    via: params.via ?? null,
    successorKeyId: params.successorKeyId ?? null,
    expiresAt: params.expiresAt ?? null,
  };
}

/** A key rolled the way RollKey does it: the old one hands over to a new one issued from it. */
export function rollOf(old: ServiceKey, now: Date, oldExpiresAt: Date): { successor: ServiceKey; events: KeyEvent[] } {
  const successor = anIssuedKey({ companyId: old.companyId, now, actor: 'bob@platform', rolledFrom: old.id });
  old.rollTo(successor.id, oldExpiresAt, now);
  const events = [
    aKeyEvent({ companyId: old.companyId, keyId: old.id, type: 'rolled', at: now, actor: 'bob@platform', via: 'platform-token:tok000000001', successorKeyId: successor.id, expiresAt: oldExpiresAt }),
    aKeyEvent({ companyId: old.companyId, keyId: successor.id, type: 'issued', at: now, actor: 'bob@platform', via: 'platform-token:tok000000001' }),
  ];
  return { successor, events };
}

/** The code of a rejection (a DomainError's), or a description of what was not one. */
export function codeOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : `not a coded error: ${String(error)}`;
}
