import type { Command } from 'commander';
import type { RenderedKind } from '../../../application/ports/rendering-check.port.js';
import { STALE_RENDERINGS_LISTED, type CheckRenderingsResult, type RenderingCheckProgress } from '../../../application/use-cases/check-renderings.use-case.js';
import type { AdminContext } from '../admin-context.js';
import { CliFailure } from '../cli-failure.js';
import type { CliIo } from '../cli-io.js';
import { Progress } from '../seed/progress.js';

const PROGRESS_LABELS: Readonly<Record<RenderedKind, string>> = { vacancy: 'vacancies', candidate: 'candidates' };

/** `check ...`: checks of the stored data an operator runs; they change nothing unless asked to repair. */
export function registerCheckCommands(program: Command, ctx: AdminContext): void {
  const check = program.command('check').description('checks of the stored data');

  check
    .command('renderings')
    .description(
      'compare the API JSON stored for the lists (of every vacancy and every listed candidate, rendered when the record was ' +
        'written) with what the service renders from the record now. Progress goes to stderr. Prints {"vacancies":{"checked",' +
        `"differing"},"candidates":{"checked","differing"},"repaired","stillDiffering","differing"}, the last the first ` +
        `${STALE_RENDERINGS_LISTED} differing records as {"kind","companyId","id"} (no personal data); exits 1 when any differ, ` +
        'unless --repair rewrote them and found none differing when it read them again',
    )
    .option(
      '--repair',
      'rewrite the differing renderings from their records (null ones included: the backfill after an upgrade), then read them again; ' +
        'a record written meanwhile is left as its writer stored it and counted in stillDiffering if it still differs',
    )
    .action(async (options: { repair?: boolean }) => {
      const repair = options.repair === true;
      const services = await ctx.open();
      const result = await services.checkRenderings.execute({ repair, progress: progressOn(ctx.io) });
      ctx.print({
        vacancies: result.vacancies,
        candidates: result.candidates,
        repaired: result.repaired,
        stillDiffering: result.stillDiffering,
        differing: result.differing,
      });
      ctx.io.err(`${summary(result, repair)}\n`);
      const differing = result.vacancies.differing + result.candidates.differing;
      if (differing > 0 && !repair) {
        throw new CliFailure(
          `${differing === 1 ? '1 stored rendering differs' : `${differing} stored renderings differ`} from what the service renders now; ` +
            '`admin check renderings --repair` rewrites them from their records.',
        );
      }
      if (result.stillDiffering > 0) {
        throw new CliFailure(
          `${result.stillDiffering === 1 ? '1 rendering still differs' : `${result.stillDiffering} renderings still differ`} after the repair: ` +
            'written meanwhile, by an instance of the previous version if a rolling upgrade is under way; run it again once none is left.',
        );
      }
    });
}

/** One line per kind on stderr, as `seed demo` shows its progress. */
function progressOn(io: CliIo): RenderingCheckProgress {
  let progress: Progress | null = null;
  return {
    begin(kind, total) {
      progress = new Progress(io, PROGRESS_LABELS[kind], total);
    },
    advance(count) {
      progress?.advance(count);
    },
    end() {
      progress?.finish();
      progress = null;
    },
  };
}

function summary(result: CheckRenderingsResult, repair: boolean): string {
  const { vacancies, candidates } = result;
  const checked = `checked ${vacancies.checked} vacancies (${vacancies.differing} differing) and ${candidates.checked} candidates (${candidates.differing} differing)`;
  if (!repair) return checked;
  return result.stillDiffering === 0 ? `${checked}; rewrote ${result.repaired}` : `${checked}; rewrote ${result.repaired}, ${result.stillDiffering} still differing`;
}
