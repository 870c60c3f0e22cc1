import type { CliIo } from './cli-io.js';
import { CliFailure } from './cli-failure.js';
import type { OutgoingFeedEvent } from './feed-broker.js';

/** Bad lines named in the one error line; the rest are counted. */
const BAD_LINES_SHOWN = 5;
/** Longer ids and types do not fit a message property (a short string); such events go without it. */
const PROPERTY_MAX_BYTES = 255;

/**
 * The events of `feed publish --file`: one JSON object per line (JSON Lines), blank lines skipped. Every
 * line is checked before anything is published, so that a bad file publishes nothing. Events are not
 * checked against their schemas: the consumer dead-letters the ones that break them, and the platform's
 * developers publish such events on purpose to see that happen.
 */
export async function readFeedEvents(io: CliIo, path: string): Promise<OutgoingFeedEvent[]> {
  const name = path === '-' ? 'standard input' : path;
  const text = await readText(io, path, name);
  const events: OutgoingFeedEvent[] = [];
  const problems: string[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((line, index) => {
      if (line.trim() === '') return;
      const parsed = parseLine(line);
      if (typeof parsed === 'string') problems.push(`line ${index + 1} ${parsed}`);
      else events.push(eventOf(line, parsed));
    });
  if (problems.length > 0) {
    const shown = problems.slice(0, BAD_LINES_SHOWN).join('; ');
    const more = problems.length > BAD_LINES_SHOWN ? `; and ${problems.length - BAD_LINES_SHOWN} more bad lines` : '';
    throw new CliFailure(`${name}: ${shown}${more}. Each line must hold one event, a JSON object; nothing was published.`);
  }
  if (events.length === 0) throw new CliFailure(`${name} holds no events; expected one CloudEvents JSON object per line.`);
  return events;
}

async function readText(io: CliIo, path: string, name: string): Promise<string> {
  try {
    return path === '-' ? await io.readStdin() : await io.readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new CliFailure(`Cannot read ${name}: ${reason}.`);
  }
}

/** The line's object, or why it is not an event; the line itself is never repeated (it may hold personal data). */
function parseLine(line: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return `is not valid JSON (${syntaxProblem((error as Error).message)})`;
  }
  if (value === null || typeof value !== 'object') return `is not a JSON object (it is ${value === null ? 'null' : `a ${typeof value}`})`;
  if (Array.isArray(value)) return 'is not a JSON object (it is an array)';
  return value as Record<string, unknown>;
}

/** The parser's message without the line's text (which it may quote), with the position as a column. */
function syntaxProblem(message: string): string {
  return message
    .replace(/, ".*" is not valid JSON$/s, '')
    .replace(/ in JSON at position (\d+).*$/s, (_, position: string) => ` at column ${Number(position) + 1}`);
}

function eventOf(line: string, event: Record<string, unknown>): OutgoingFeedEvent {
  return { body: line, id: property(event.id), type: property(event.type), companyId: typeof event.companyid === 'string' ? event.companyid : null };
}

function property(value: unknown): string | null {
  return typeof value === 'string' && value !== '' && Buffer.byteLength(value) <= PROPERTY_MAX_BYTES ? value : null;
}
