import { expect } from 'chai';
import fc from 'fast-check';
import type { RawResponse } from './raw-http.js';

/**
 * Runs of the property-based hostile-input suites. The seed is fixed, so that every run of `npm test`
 * sends the same requests; HOSTILE_SEED=<n> replays another seed (fast-check prints the seed and path
 * of a failure), HOSTILE_SEED=random explores, HOSTILE_RUNS scales the number of runs.
 */
export function hostileRuns(numRuns: number): { seed: number; numRuns: number; endOnFailure: boolean } {
  const requested = process.env.HOSTILE_SEED;
  const seed = requested === 'random' ? Date.now() ^ (Math.random() * 0x1_0000_0000) : Number(requested ?? 20_260_505);
  const scale = Number(process.env.HOSTILE_RUNS_SCALE ?? 1);
  return { seed, numRuns: Math.max(1, Math.round(numRuns * scale)), endOnFailure: true };
}

/** Strings a database or a parser might treat specially; each must be stored and returned verbatim. */
export const SQL_AND_MARKUP = [
  "'; DROP TABLE candidate; --",
  "Robert'); DROP TABLE students;--",
  "' OR '1'='1",
  '" OR ""="',
  '1; SELECT pg_sleep(10)',
  "E'\\x41'",
  '$1::text',
  '%_\\%\\_',
  '\\',
  "\\'",
  '--',
  '/* */',
  '${jndi:ldap://example.test/a}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  'NULL',
  'null',
  'undefined',
];

/** Single characters that are legal in JSON strings but easy to mishandle. NUL and lone surrogates are not storable: see FORBIDDEN_CHARACTERS. */
const AWKWARD_CHARACTERS = ['\u0001', '\u0008', '\t', '\n', '\r', '\u001b', '\u001f', '\u007f', '\u0085', '\u00a0', '\u200b', '\u200e', '\u202e', '\u2028', '\u2029', '\ufeff', '\ufffd', '\uffff', '😀', '\u{10ffff}', 'ё', 'Қ', 'ў', '"', '\\', '/', '~', '%00'];

/** Characters the service refuses in any text: PostgreSQL cannot store NUL, and UTF-8 has no form for an unpaired surrogate. */
export const FORBIDDEN_CHARACTERS = ['\u0000', '\ud800', '\udbff', '\udc00', '\udfff'];

/** Text of at most `maxLength` code points, mixing any Unicode with the awkward pieces above. */
export function hostileText(maxLength: number, minLength = 0): fc.Arbitrary<string> {
  const piece = fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
    { weight: 3, arbitrary: fc.constantFrom(...AWKWARD_CHARACTERS) },
    { weight: 2, arbitrary: fc.constantFrom(...SQL_AND_MARKUP) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
  );
  return fc
    .array(piece, { maxLength: 8 })
    .map((pieces) => [...pieces.join('')].filter((ch) => !FORBIDDEN_CHARACTERS.includes(ch)).slice(0, maxLength).join(''))
    .filter((text) => [...text].length >= minLength);
}

/** Like hostileText, but with a character other than white space, as required names need. */
export function hostileName(maxLength: number): fc.Arbitrary<string> {
  return fc.tuple(hostileText(maxLength - 1), fc.constantFrom('Ё', 'x', "'", '😀', 'Қ', ';')).map(([text, visible]) => [...`${visible}${text}`].slice(0, maxLength).join(''));
}

/** Any JSON value, its strings hostile too. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    hostileText(40),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostileText(12), fc.constantFrom('constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty')), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** The value at a JSON Pointer, through own properties only; undefined when there is none. */
export function resolvePointer(document: unknown, pointer: string): { found: boolean; value?: unknown } {
  if (pointer === '') return { found: true, value: document };
  let current: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof current !== 'object' || current === null || !Object.prototype.hasOwnProperty.call(current, token)) return { found: false };
    current = (current as Record<string, unknown>)[token];
  }
  return { found: true, value: current };
}

/**
 * What every answer must be, whatever was sent: never a 5xx; an error is application/problem+json with a
 * stable code, its status and the request id; a 400 validation_failed lists at least one problem, each
 * with a pointer and a message.
 */
export function expectWellFormedAnswer(response: RawResponse, allowed: readonly number[]): void {
  const context = `${response.status} ${response.text.slice(0, 500)}`;
  expect(response.status, context).to.be.below(500);
  expect(allowed, context).to.include(response.status);
  if (response.status < 400) return;
  expect(String(response.headers['content-type']), context).to.match(/^application\/problem\+json/);
  expect(response.body, context).to.be.an('object');
  expect(response.body.code, context).to.be.a('string').and.match(/^[a-z]+(_[a-z]+)*$/);
  expect(response.body.status, context).to.equal(response.status);
  expect(response.body.requestId, context).to.equal(response.headers['x-request-id']);
  if (response.body.code !== 'validation_failed') return;
  expect(response.body.errors, context).to.be.an('array').that.is.not.empty;
  for (const problem of response.body.errors) {
    expect(problem.pointer, context).to.be.a('string').and.match(/^(\/.*)?$/);
    expect(problem.message, context).to.be.a('string').and.not.equal('');
  }
}

/**
 * Every problem of a body names a place in the document that was sent: the value at fault, or for a
 * missing field an object that lacks it. `""` is the whole document (not JSON, not an object).
 */
export function expectPointersIntoBody(response: RawResponse, document: unknown): void {
  for (const { pointer, message } of response.body.errors as { pointer: string; message: string }[]) {
    const context = `${pointer}: ${message} in ${response.text.slice(0, 500)}`;
    if (message === 'is required') {
      const parent = pointer.slice(0, pointer.lastIndexOf('/'));
      const container = resolvePointer(document, parent);
      expect(container.found && typeof container.value === 'object' && container.value !== null, context).to.equal(true);
      expect(resolvePointer(document, pointer).found, context).to.equal(false);
    } else {
      expect(resolvePointer(document, pointer).found, context).to.equal(true);
    }
  }
}

/** The names of Object.prototype and friends, to compare before and after hostile traffic. */
export function prototypeSnapshot(): string {
  const names = (target: object) => Object.getOwnPropertyNames(target).sort().join(',');
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype].map(names).join('|');
}

/** Fails when any request managed to add a property to the shared prototypes. */
export function expectNoPollution(before: string): void {
  expect(prototypeSnapshot(), 'Object.prototype and friends are unchanged').to.equal(before);
  const probe: Record<string, unknown> = {};
  for (const name of ['polluted', 'isAdmin', 'name', 'externalId', 'candidate', 'status']) expect(probe[name], name).to.equal(undefined);
}
