import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildAsyncApiDocument } from '../adapters/feed/asyncapi-document.js';
import { answerHelp } from '../infrastructure/process-arguments.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the feed's AsyncAPI document is committed; `npm run generate:asyncapi` writes it. */
export const ASYNCAPI_FILE = path.join(root, 'docs/asyncapi.json');

/** The document's text as the code generates it now (the default queue), as it is committed. */
export function asyncApiJson(): string {
  return `${JSON.stringify(buildAsyncApiDocument(), null, 2)}\n`;
}

/** The committed text, or null when there is none. */
export async function committedAsyncApiJson(): Promise<string | null> {
  return readFile(ASYNCAPI_FILE, 'utf8').catch(() => null);
}

async function main(): Promise<void> {
  answerHelp(
    process.argv.slice(2),
    'npm run generate:asyncapi',
    `Usage: npm run generate:asyncapi

Writes docs/asyncapi.json, the platform feed's AsyncAPI 3 document, from the code (the events' schemas, the
default queue). A test fails while the committed file differs from what this writes. Takes no options.`,
    'it has no settings',
  );
  await writeFile(ASYNCAPI_FILE, asyncApiJson());
  process.stdout.write(`wrote ${path.relative(root, ASYNCAPI_FILE)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
