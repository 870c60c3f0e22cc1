import { round, type LoadFigures } from './load.js';

/** A throughput run of one server, by name: 'ours', 'pooled', 'ceiling', 'bare', ... */
export type NamedRun = readonly [name: string, run: () => Promise<LoadFigures>];

export interface Comparison {
  /** The figures of the round whose a/b ratio is the median. */
  readonly a: LoadFigures;
  readonly b: LoadFigures;
  /** a/b of every round, in the order taken. */
  readonly ratios: readonly number[];
  /** The median of those ratios (the ratio of `a` and `b` above). */
  readonly ratio: number;
  /** Every run of that median round, by name. */
  readonly round: ReadonlyMap<string, LoadFigures>;
}

export interface Rounds {
  /** The runs of the median round of a/b. Each pair is judged on its own: the median rounds may differ. */
  compare(a: string, b: string): Comparison;
}

/**
 * The runs one after the other in the order given, `count` times. On this shared machine single runs swing by
 * a third with the background load, so each figure is compared with one taken right next to it, and the round
 * whose ratio is the median is kept.
 */
export async function alternate(runs: readonly NamedRun[], count: number, settle: () => Promise<void>): Promise<Rounds> {
  const taken: Map<string, LoadFigures>[] = [];
  for (let i = 0; i < count; i++) {
    const figures = new Map<string, LoadFigures>();
    for (const [name, run] of runs) figures.set(name, await run());
    taken.push(figures);
    await settle();
  }
  const figure = (r: Map<string, LoadFigures>, name: string) => {
    const found = r.get(name);
    if (found === undefined) throw new Error(`no run named ${name}`);
    return found;
  };
  return {
    compare: (a, b) => {
      const ratioOf = (r: Map<string, LoadFigures>) => round(figure(r, a).requestsPerSecond / Math.max(figure(r, b).requestsPerSecond, 0.001));
      const ratios = taken.map(ratioOf);
      const median = [...taken].sort((x, y) => ratioOf(x) - ratioOf(y))[Math.floor(taken.length / 2)] as Map<string, LoadFigures>;
      return { a: figure(median, a), b: figure(median, b), ratios, ratio: ratioOf(median), round: median };
    },
  };
}
