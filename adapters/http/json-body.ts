import { pointerToken } from '../../domain/shared/domain-error.js';
import { decodeUtf8, JSON_BODY_LIMIT_BYTES, JSON_MAX_DEPTH, nestsDeeperThan } from '../json/json-text.js';
import type { HttpContext } from './http-state.js';
import { HttpProblem, validationProblem, type ProblemItem } from './problem.js';
import { readBodyBytes } from './request-body-bytes.js';

/** Reported at most, so that a body full of forbidden keys does not make a huge answer. */
const MAX_REPORTED_KEYS = 20;

/**
 * Reads the JSON body of a request. A Content-Type other than application/json (charset utf-8 or none)
 * is 415; a body over the limit 413, counted after any Content-Encoding is undone; bytes that are not
 * UTF-8 or not JSON are a 400 at pointer "" (the document), and so are a body cut short and one nesting
 * deeper than JSON_MAX_DEPTH. Of duplicate keys
 * the last wins, as in JSON.parse. A `__proto__` key is refused wherever it is, pointing at it: JSON.parse
 * makes it a plain own property, but code that copies objects key by key would turn it into a prototype.
 * Called by a route after authentication, so that nobody without a key makes us read 5 MiB.
 */
export async function readJsonBody(ctx: HttpContext): Promise<unknown> {
  requireJsonContentType(ctx.get('Content-Type'));
  return jsonOf(await readBodyBytes(ctx, JSON_BODY_LIMIT_BYTES));
}

/**
 * The JSON body of a request that may have none, read as readJsonBody reads one; `undefined` when there is
 * none, however that is framed: no Content-Length, `Content-Length: 0`, chunked without a chunk, or a
 * Content-Encoding of no bytes. Only reading tells whether a chunked or encoded body holds anything, so such a
 * body is read (within the same limit) before its Content-Type is checked; a body of declared, plain length
 * is refused for its type first, as by readJsonBody.
 */
export async function readOptionalJsonBody(ctx: HttpContext): Promise<unknown> {
  const chunked = ctx.get('Transfer-Encoding') !== '';
  if (!chunked && !(Number(ctx.get('Content-Length') || 0) > 0)) return undefined;
  const encoded = (ctx.get('Content-Encoding') || 'identity').trim().toLowerCase() !== 'identity';
  if (!chunked && !encoded) return readJsonBody(ctx);
  const bytes = await readBodyBytes(ctx, JSON_BODY_LIMIT_BYTES);
  if (bytes.length === 0) return undefined;
  requireJsonContentType(ctx.get('Content-Type'));
  return jsonOf(bytes);
}

function jsonOf(bytes: Buffer): unknown {
  const text = utf8TextOf(bytes);
  if (nestsDeeperThan(text, JSON_MAX_DEPTH)) {
    throw validationProblem('The request body nests too deep.', [{ pointer: '', message: `must not nest deeper than ${JSON_MAX_DEPTH} levels` }]);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw validationProblem('The request body is not valid JSON.', [{ pointer: '', message: 'must be valid JSON' }]);
  }
  const forbidden = forbiddenKeyProblems(document, text);
  if (forbidden.length > 0) throw validationProblem('The request body failed validation.', forbidden);
  return document;
}

function requireJsonContentType(header: string): void {
  const [mediaType = '', ...parameters] = header.split(';').map((part) => part.trim().toLowerCase());
  const charset = parameters.find((p) => p.startsWith('charset='))?.slice('charset='.length).replace(/"/g, '');
  if (mediaType === 'application/json' && (charset === undefined || charset === 'utf-8' || charset === 'utf8')) return;
  throw new HttpProblem(
    415,
    'unsupported_media_type',
    'Unsupported media type',
    'The request body must be JSON, sent with Content-Type: application/json (UTF-8).',
  );
}

/** JSON text is UTF-8 (RFC 8259 8.1): other bytes are refused, not replaced with U+FFFD and stored. A leading BOM is dropped. */
function utf8TextOf(bytes: Buffer): string {
  const text = decodeUtf8(bytes);
  if (text === null) throw validationProblem('The request body is not UTF-8.', [{ pointer: '', message: 'must be UTF-8' }]);
  return text;
}

interface KeyNode {
  readonly value: unknown;
  readonly parent: KeyNode | null;
  readonly token: string;
}

/**
 * Every own `__proto__` key. Such a key is spelt out in the text, or written with \u escapes: a text with
 * neither needs no walk.
 */
function forbiddenKeyProblems(document: unknown, text: string): ProblemItem[] {
  if (!text.includes('__proto__') && !text.includes('\\u')) return [];
  const problems: ProblemItem[] = [];
  const stack: KeyNode[] = [{ value: document, parent: null, token: '' }];
  while (stack.length > 0 && problems.length < MAX_REPORTED_KEYS) {
    const node = stack.pop()!;
    if (typeof node.value !== 'object' || node.value === null) continue;
    for (const [token, value] of Object.entries(node.value)) {
      const child: KeyNode = { value, parent: node, token };
      if (token === '__proto__') problems.push({ pointer: pointerOf(child), message: 'is a forbidden key' });
      stack.push(child);
    }
  }
  return problems.sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
}

function pointerOf(node: KeyNode): string {
  const tokens: string[] = [];
  for (let current: KeyNode = node; current.parent !== null; current = current.parent) {
    tokens.push(`/${pointerToken(current.token)}`);
  }
  return tokens.reverse().join('');
}
