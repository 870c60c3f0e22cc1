import type { Command } from 'commander';
import { exampleStream } from '../../feed/asyncapi-examples.js';
import type { AdminContext } from '../admin-context.js';
import { CliFailure } from '../cli-failure.js';
import type { DeadLetterSelection, FeedBroker } from '../feed-broker.js';
import { readFeedEvents } from '../feed-events-file.js';
import { feedProgress } from '../feed-progress.js';

const SOURCE_HELP = 'only the letters of events from this source (the CloudEvents "source": an event id is unique within its source)';
const URL_HELP = 'the broker, an amqp:// or amqps:// URL (default: FEED_URL, which keeps a password out of ps and shell history)';

/**
 * `feed ...`: the platform feed's broker, for the platform's developers and for operators (DESIGN 4, 4a).
 * The queue is FEED_QUEUE; every command on the broker declares the feed's queues first, as the consumer does.
 * Those need no database; `feed examples` needs no broker.
 */
export function registerFeedCommands(program: Command, ctx: AdminContext): void {
  const feed = program.command('feed').description("the platform feed's queue (FEED_QUEUE) and its dead letters");

  feed
    .command('publish')
    .description(
      'publish events to the feed\'s queue (FEED_QUEUE) as the platform does, each with a publisher confirm: one CloudEvents ' +
        'JSON object per line (blank lines skipped), sent as written (application/cloudevents+json, persistent), with its "id" ' +
        'as the message id, its "type" as the message type and its "companyid" in a header of that name. ' +
        'Every line is checked to be a JSON object first: a bad line is reported with its number and nothing is published. ' +
        'Events are NOT checked against their schemas (the consumer dead-letters those that break them; publish such events ' +
        'to see that). Progress of a large file goes to stderr. Prints {"published","confirmed"}; fails when the broker did ' +
        'not confirm them all (publishing the file again is safe: the consumer applies each event id once)',
    )
    .requiredOption('--file <path>', 'the events, JSON Lines, or - for standard input')
    .option('--url <url>', URL_HELP)
    .action(async (options: { file: string; url?: string }) => {
      const events = await readFeedEvents(ctx.io, options.file);
      const progress = feedProgress(ctx.io, 'events published');
      const outcome = await withBroker(ctx, options.url, (broker) => broker.publish(events, progress)).finally(() => progress.end());
      ctx.print({ published: outcome.published, confirmed: outcome.confirmed });
      if (outcome.confirmed < outcome.published) {
        const missing = outcome.published - outcome.confirmed;
        throw new CliFailure(`The broker did not confirm ${missing} of ${outcome.published} events; publish the file again (repeated events change nothing).`);
      }
    });

  feed
    .command('examples')
    .description(
      'print an example event of every type for a company, as JSON Lines, to publish with feed publish --file: the examples of ' +
        'docs/asyncapi.json with the company\'s id and the time of now, in an order in which each one applies (a vacancy, a second ' +
        'one that the card is transferred to, the first one\'s board, a card added, moved, transferred and updated, an application ' +
        'from another channel, then the card\'s and the first vacancy\'s deletion). Their ids are fixed: published again, they ' +
        'change nothing. The company must exist (read from the database, as the other commands do)',
    )
    .requiredOption('--company <id>', 'the company')
    .action(async (options: { company: string }) => {
      await ctx.forCompany(options.company);
      for (const event of exampleStream(options.company, new Date())) ctx.io.out(`${JSON.stringify(event)}\n`);
    });

  const dead = feed.command('dead').description('dead letters: events the consumer set aside (in <queue>.dead)');

  dead
    .command('list')
    .description(
      'list the dead letters, oldest first, without taking them off the queue: [{"id","source","type","companyId","reason","detail","deadAt","attempts"}], ' +
        'read from the messages\' properties and headers, and of the event only its "source" (and its "id", "type" and "companyid", when the message lacks them); ' +
        'never their content. "attempts": the consumer\'s takes of the event, the one that set it aside included (as FEED_MAX_ATTEMPTS ' +
        'counts them). While it runs, the letters it reads are hidden from other clients of the dead-letter queue',
    )
    .option('--url <url>', URL_HELP)
    .action(async (options: { url?: string }) => {
      ctx.print(await withBroker(ctx, options.url, (broker) => broker.listDead()));
    });

  dead
    .command('replay')
    .description(
      'send dead letters back to the feed\'s queue once their cause is fixed: all of them, or those with --id (and --source). Each is published ' +
        'again as it was (attempts from 0) and, once the broker confirms it, removed from the dead letters; the others stay. ' +
        'Prints {"replayed"}',
    )
    .option('--id <id>', 'only the letters of this event id')
    .option('--source <source>', SOURCE_HELP)
    .option('--url <url>', URL_HELP)
    .action(async (options: { id?: string; source?: string; url?: string }) => {
      const outcome = await withBroker(ctx, options.url, (broker) => replay(ctx, broker, selectionOf(options)));
      ctx.print({ replayed: outcome.replayed });
      if (outcome.failed > 0) throw new CliFailure(`The broker did not take back ${outcome.failed} dead letters; they stay dead. Run the command again.`);
    });

  dead
    .command('discard')
    .description(
      'remove dead letters for good, for events that can never apply and should not (list them first to see why): those ' +
        'with --id (and --source), or all of them with --all (one of the two is required). Prints {"discarded","letters"}: how many, and ' +
        'each as feed dead list shows it (never its content), for the record. The events are gone: publishing one again ' +
        'makes it a new delivery',
    )
    .option('--id <id>', 'only the letters of this event id')
    .option('--source <source>', SOURCE_HELP)
    .option('--all', 'every dead letter (of --source, when given)')
    .option('--url <url>', URL_HELP)
    .action(async (options: { id?: string; source?: string; all?: boolean; url?: string }) => {
      if ((options.id === undefined) === (options.all !== true)) {
        throw new CliFailure('Name the dead letters to discard: --id ID for those of one event, or --all for every one (not both).');
      }
      const letters = await withBroker(ctx, options.url, (broker) => discard(ctx, broker, selectionOf(options)));
      ctx.print({ discarded: letters.length, letters });
    });
}

function selectionOf(options: { id?: string; source?: string }): DeadLetterSelection {
  return { ...(options.id === undefined ? {} : { id: options.id }), ...(options.source === undefined ? {} : { source: options.source }) };
}

/** For a refusal: the letters asked for, when an id or a source was given. */
function describeSelection(selection: DeadLetterSelection): string | null {
  const parts = [
    ...(selection.id === undefined ? [] : [`the id ${JSON.stringify(selection.id)}`]),
    ...(selection.source === undefined ? [] : [`the source ${JSON.stringify(selection.source)}`]),
  ];
  return parts.length === 0 ? null : parts.join(' and ');
}

async function discard(ctx: AdminContext, broker: FeedBroker, selection: DeadLetterSelection) {
  const progress = feedProgress(ctx.io, 'dead letters examined');
  const discarded = await broker.discardDead(selection, progress).finally(() => progress.end());
  const asked = describeSelection(selection);
  if (asked !== null && discarded.length === 0) throw new CliFailure(`No dead letter in ${broker.queue}.dead has ${asked}; nothing was discarded.`);
  return discarded;
}

async function replay(ctx: AdminContext, broker: FeedBroker, selection: DeadLetterSelection) {
  const progress = feedProgress(ctx.io, 'dead letters examined');
  const outcome = await broker.replayDead(selection, progress).finally(() => progress.end());
  const asked = describeSelection(selection);
  if (asked !== null && outcome.matched === 0) throw new CliFailure(`No dead letter in ${broker.queue}.dead has ${asked}; nothing was replayed.`);
  return outcome;
}

/** Opens the broker (--url, else FEED_URL), runs `work` and closes it, whatever happened. */
async function withBroker<T>(ctx: AdminContext, given: string | undefined, work: (broker: FeedBroker) => Promise<T>): Promise<T> {
  const access = ctx.deps.feed;
  if (access === undefined) throw new CliFailure('This build of the admin CLI has no access to the feed\'s broker.');
  const url = given ?? access.url;
  if (url === null) throw new CliFailure('No broker given: pass --url amqp://USER:PASSWORD@HOST:5672 or set FEED_URL.');
  if (given !== undefined) checkUrl(given);
  const broker = await access.open(url);
  try {
    return await work(broker);
  } finally {
    await broker.close();
  }
}

/** An amqp(s) URL with a host. The value may hold a password, so a refusal does not repeat it. */
function checkUrl(given: string): void {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new CliFailure('--url is not a URL; expected amqp://USER:PASSWORD@HOST:5672 (or amqps://).');
  }
  if ((url.protocol !== 'amqp:' && url.protocol !== 'amqps:') || url.hostname === '') {
    throw new CliFailure('--url must be an amqp:// or amqps:// URL with a host, such as amqp://USER:PASSWORD@HOST:5672.');
  }
}
