import { expect } from 'chai';
import fc from 'fast-check';
import type { PlatformEventCommand } from '../../application/use-cases/platform-change.js';
import { parsePlatformEvent } from '../../adapters/feed/platform-event-parser.js';
import { stateByRule } from '../feed/support/merge-rule.js';
import type { PlatformEvent } from '../feed/support/platform-events.js';
import { INTENT_KINDS, playPlatform, type ModelState } from '../feed/support/platform-model.js';
import { UseCaseWorld } from '../support/use-case-world.js';

const intent = fc.record({ kind: fc.nat({ max: INTENT_KINDS - 1 }), a: fc.nat({ max: 11 }), b: fc.nat({ max: 11 }), c: fc.nat({ max: 11 }) });

/**
 * The feed's merge rule on the in-memory stores, many histories a run: the platform's events of a history
 * (cards and vacancies deleted and made again, cards on vacancies deleted with their detach events, transfers,
 * applications), each delivered once and a quarter of them again, shuffled, applied alone or in batches of the
 * consumer's kind; an event that must wait (a move before its card) goes back behind the others, as the feed
 * retries it. The state must be the rule's (stateByRule: per aspect the highest version), which must be the
 * platform's own.
 */
describe('The platform feed converges by the merge rule (property, in-memory stores)', function () {
  this.timeout(600_000);
  let world: UseCaseWorld;
  before(async () => {
    world = await UseCaseWorld.create();
  });
  after(async () => {
    await world?.dispose();
  });

  it('ends in the state the rule gives for the set of events delivered, which is the platform\'s', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(intent, { minLength: 10, maxLength: 60 }), fc.array(fc.nat(), { minLength: 64, maxLength: 64 }), async (intents, noise) => {
        const companyId = await world.company();
        const played = playPlatform(companyId, intents);
        const delivered: PlatformEvent[] = [...played.events, ...played.events.filter((_, index) => (noise[index % noise.length] as number) % 4 === 0)];
        for (let i = delivered.length - 1; i > 0; i--) {
          const j = (noise[i % noise.length] as number) % (i + 1);
          [delivered[i], delivered[j]] = [delivered[j] as PlatformEvent, delivered[i] as PlatformEvent];
        }
        await deliver(delivered.map(commandOf), noise);
        const byRule = stateByRule(delivered);
        expect(normalized(byRule), 'the rule gives the platform\'s state').to.deep.equal(normalized(played.state));
        expect(normalized(stateOf(companyId)), 'the service holds the rule\'s state').to.deep.equal(normalized(byRule));
      }),
      {
        numRuns: Number(process.env.FEED_MERGE_RUNS ?? 1000),
        endOnFailure: true,
        // A failure's seed and path, to replay it alone.
        ...(process.env.FEED_MERGE_SEED === undefined ? {} : { seed: Number(process.env.FEED_MERGE_SEED), path: process.env.FEED_MERGE_PATH }),
      },
    );
  });

  /** Applies every command, in batches of 1 to 4 as `noise` says; those that must wait go back behind the others. */
  async function deliver(commands: PlatformEventCommand[], noise: readonly number[]): Promise<void> {
    let queue = commands;
    for (let round = 0; queue.length > 0; round++) {
      if (round > 50) throw new Error(`Events still waiting after 50 rounds: ${queue.map((c) => `${c.change.type} ${c.subject} v${c.version}`).join('; ')}`);
      const waiting: PlatformEventCommand[] = [];
      for (let at = 0, n = 0; at < queue.length; n++) {
        const size = 1 + ((noise[n % noise.length] as number) % 4);
        const batch = queue.slice(at, at + size);
        at += size;
        const outcomes = await world.use('applyPlatformEvent').executeAll(batch);
        outcomes.forEach((outcome, index) => {
          if (!('error' in outcome)) return;
          if ((outcome.error as { code?: unknown }).code !== 'not_yet_applicable') throw outcome.error;
          waiting.push(batch[index] as PlatformEventCommand);
        });
      }
      queue = waiting;
    }
  }

  function stateOf(companyId: string): ModelState {
    const vacancies = [...world.database.vacancies.values()].filter((v) => v.companyId === companyId).map((v) => ({ id: v.id, title: v.title, status: v.status }));
    const rows = [...world.database.candidates.values()].filter((c) => c.companyId === companyId);
    const cards = rows
      .filter((c) => c.externalId === null && !c.technical)
      .map((c) => ({
        id: c.id, vacancyId: c.vacancyId, stage: c.stage, role: c.resume.role ?? '',
        transfers: rows.filter((t) => t.originCardId === c.id && t.vacancyId !== null).map((t) => t.vacancyId as string).sort(),
      }));
    const applications = rows.filter((c) => c.externalId !== null).map((c) => ({ externalId: c.externalId as string, vacancyId: c.vacancyId, stage: c.stage }));
    return { vacancies, cards, applications };
  }
});

function commandOf(event: PlatformEvent): PlatformEventCommand {
  const parsed = parsePlatformEvent(JSON.stringify(event));
  if (!parsed.ok) throw new Error(`The model made an event the feed refuses: ${parsed.detail}`);
  return parsed.command;
}

function normalized(state: ModelState): ModelState {
  const by = <T>(key: (item: T) => string) => (x: T, y: T) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0);
  return {
    vacancies: [...state.vacancies].sort(by((v) => v.id)),
    cards: [...state.cards].sort(by((c) => c.id)),
    applications: [...state.applications].sort(by((a) => a.externalId)),
  };
}
