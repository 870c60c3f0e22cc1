import { portToken } from './port-token.js';

/** The records whose API JSON the store keeps rendered for the lists: vacancies, and listed (non-technical) cards. */
export type RenderedKind = 'vacancy' | 'candidate';

/**
 * A record whose stored rendering is not what the presenters render from it now, named by kind, company and
 * id only: what the check reports goes to terminals and logs, so it carries no personal data.
 */
export interface StaleRendering {
  readonly kind: RenderedKind;
  readonly companyId: string;
  readonly id: string;
}

/** One batch of a scan: how many records it compared, those whose rendering differs, and how many of those it rewrote. */
export interface RenderingBatch {
  readonly checked: number;
  readonly stale: readonly StaleRendering[];
  /** With repair: the stale renderings rewritten (fewer when a record was written meanwhile, its writer rendering it anew); else 0. */
  readonly repaired: number;
  /**
   * With repair: the stale records that still differ when read again after the rewrite (a write came in between
   * and stored another text, or none: an instance of the previous version during a rolling upgrade); else empty.
   */
  readonly stillDiffering: readonly StaleRendering[];
}

/**
 * The read model's self-check (ADR 18): every stored rendering against what the presenters render now from
 * the same record, as an operator runs it (`admin check renderings`) and the tests after writes of every
 * kind. Only a store that keeps renderings has one; the in-memory store renders at read time.
 */
export interface RenderingCheck {
  /** How many records of the kind there are to compare now, for progress: a scan may meet a few more or fewer. */
  count(kind: RenderedKind): Promise<number>;
  /**
   * Compares the kind's records in batches in the order (companyId, id), each batch read on its own (no long
   * transaction, whatever the size of the store). With `repair`, a batch's stale renderings are rewritten before
   * it is handed over, each only while it is still the one that was compared, and those records are read and
   * compared again.
   */
  scan(kind: RenderedKind, options: { readonly repair: boolean }): AsyncIterable<RenderingBatch>;
}

export const RENDERING_CHECK = portToken<RenderingCheck>('RenderingCheck');
