import { Agent, request } from 'node:http';
import { ProgressBar } from './progress.js';

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly bytes: Buffer;
}

/** One request over a kept-alive connection; the body as the wire carried it (still encoded, if it was). */
export function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: options.method ?? 'GET', headers: options.headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes: Buffer.concat(chunks) }));
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

export interface SyncFigures {
  readonly items: number;
  readonly pages: number;
  readonly seconds: number;
  readonly itemsPerSecond: number;
  /** Body bytes of every page, as the wire carried them. */
  readonly bytes: number;
  /** Cursor of a page near the end of the list (at `deepFraction` of the pages), for the page-depth scenario. */
  readonly deepCursor: string | null;
}

const NEXT_CURSOR = /"nextCursor":(null|"([^"]*)")\}\s*$/;

/**
 * A sync client's full pass: every page from the first to the last, one request at a time. The cursor is
 * read from the end of the body (the last field of a page), so that the client spends little of the two
 * cores the server shares with it; only the last page, which may be short, is parsed whole.
 */
export async function syncAll(baseUrl: string, headers: Record<string, string>, limit: number, expected: number, deepFraction = 0.99, query = ''): Promise<SyncFigures> {
  const progress = new ProgressBar(query === '' ? 'sync' : `sync ${query}`, expected, 'items');
  const deepPage = Math.max(1, Math.floor((expected / limit) * deepFraction));
  let cursor: string | null = null;
  let items = 0;
  let pages = 0;
  let bytes = 0;
  let deepCursor: string | null = null;
  const started = process.hrtime.bigint();
  for (;;) {
    const url = `${baseUrl}/candidates?limit=${limit}${query === '' ? '' : `&${query}`}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const answer = await send(url, { headers });
    bytes += answer.bytes.length;
    if (answer.status !== 200) throw new Error(`sync: page ${pages + 1} answered ${answer.status}: ${answer.bytes.toString('utf8').slice(0, 300)}`);
    const tail = answer.bytes.subarray(Math.max(0, answer.bytes.length - 600)).toString('utf8');
    const match = NEXT_CURSOR.exec(tail);
    if (match === null) throw new Error('sync: no nextCursor at the end of a page');
    pages++;
    cursor = match[1] === 'null' ? null : (match[2] as string);
    if (cursor === null) {
      items += (JSON.parse(answer.bytes.toString('utf8')) as { items: unknown[] }).items.length;
      break;
    }
    items += limit;
    if (pages === deepPage) deepCursor = cursor;
    progress.set(items);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  progress.finish();
  return { items, pages, seconds, itemsPerSecond: items / seconds, bytes, deepCursor };
}
