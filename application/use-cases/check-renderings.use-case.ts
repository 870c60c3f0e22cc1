import type { RenderedKind, RenderingCheck, StaleRendering } from '../ports/rendering-check.port.js';

/** How many differing records a result names; the counts cover them all. Enough to start looking, short enough for a terminal. */
export const STALE_RENDERINGS_LISTED = 20;

/** Progress of a check, as an adapter shows it; called kind by kind, vacancies first. */
export interface RenderingCheckProgress {
  /** The kind's scan begins, over about `total` records. */
  begin(kind: RenderedKind, total: number): void;
  /** `count` more records of the kind were compared. */
  advance(count: number): void;
  /** The kind's scan ended, or failed. */
  end(): void;
}

export interface CheckRenderingsCommand {
  /** Rewrite the differing renderings from their records. */
  readonly repair: boolean;
  readonly progress?: RenderingCheckProgress;
}

export interface RenderingTally {
  readonly checked: number;
  readonly differing: number;
}

export interface CheckRenderingsResult {
  readonly vacancies: RenderingTally;
  readonly candidates: RenderingTally;
  /** Renderings rewritten (with repair; 0 without). */
  readonly repaired: number;
  /**
   * With repair: differing records that still differ when read again after the repair (0 without). A write
   * that came in between stored a text of its own: one of the previous version during a rolling upgrade
   * stores none, so the repair is run again once no instance of it is left.
   */
  readonly stillDiffering: number;
  /** The first STALE_RENDERINGS_LISTED differing records: vacancies first, each kind in the order (companyId, id). */
  readonly differing: readonly StaleRendering[];
}

/**
 * Compares every stored rendering with what the presenters render from its record now (ADR 18), and with
 * `repair` rewrites those that differ. A difference means that a write stored a rendering the presenters
 * would not give (a bug), that a presentation rule changed without a migration re-rendering, or that someone
 * edited a row by hand: the lists would serve the old text until the record is written again.
 */
export class CheckRenderings {
  constructor(private readonly renderings: RenderingCheck) {}

  async execute(command: CheckRenderingsCommand): Promise<CheckRenderingsResult> {
    const differing: StaleRendering[] = [];
    let repaired = 0;
    let stillDiffering = 0;
    const tally = async (kind: RenderedKind): Promise<RenderingTally> => {
      command.progress?.begin(kind, await this.renderings.count(kind));
      let checked = 0;
      let stale = 0;
      try {
        for await (const batch of this.renderings.scan(kind, { repair: command.repair })) {
          checked += batch.checked;
          stale += batch.stale.length;
          repaired += batch.repaired;
          stillDiffering += batch.stillDiffering.length;
          differing.push(...batch.stale.slice(0, STALE_RENDERINGS_LISTED - differing.length));
          command.progress?.advance(batch.checked);
        }
      } finally {
        command.progress?.end();
      }
      return { checked, differing: stale };
    };
    const vacancies = await tally('vacancy');
    const candidates = await tally('candidate');
    return { vacancies, candidates, repaired, stillDiffering, differing };
  }
}
