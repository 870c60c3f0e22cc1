import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';

type Json = any;

/**
 * JSON Schema's `email` format is RFC 5321's Mailbox (quoted local parts, address literals, domains without a
 * dot), which is wider than ajv-formats' `email`. A document that declares `format: email` is judged, and
 * generated from, by that wider reading, as any client of the document may read it.
 */
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]";
const SUB_DOMAIN = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
export const RFC5321_MAILBOX = new RegExp(
  `^(?:${ATEXT}+(?:\\.${ATEXT}+)*|"(?:[ !#-\\[\\]-~]|\\\\[ -~])*")@` +
    `(?:${SUB_DOMAIN}(?:\\.${SUB_DOMAIN})*|\\[(?:[0-9]{1,3}(?:\\.[0-9]{1,3}){3}|IPv6:[0-9A-Fa-f:.]+|[A-Za-z0-9-]*[A-Za-z0-9]:[!-Z^-~]+)\\])$`,
);

/** Shapes to generate a format from when the schema gives no pattern; the validator has the last word. */
const FORMAT_SHAPES: Record<string, RegExp> = {
  email: RFC5321_MAILBOX,
  date: /^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$/,
  'date-time': /^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt ]([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?([Zz]|[+-][0-9]{2}(:?[0-9]{2})?)$/,
};

/** Characters that tend to break text rules: white space, NUL, half a surrogate pair, delimiters, another script. */
const TROUBLE = ['\u0000', '\ud800', '\udfff', ' ', '\t', '\n', '\u00a0', '@', '"', '[', ']', '.', '-', '+', ':', 'T', 'Z', '0', '9', 'я', '😀'];

/** An ajv that reads a document's schemas as OpenAPI 3.1 does (JSON Schema 2020-12), formats asserted. */
export function documentValidator(document: Json): { compile: (schema: Json) => ValidateFunction } {
  const ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true });
  addFormatsModule.default(ajv);
  ajv.addFormat('email', RFC5321_MAILBOX);
  ajv.addSchema({ $id: 'https://openapi.test/components.json', components: document.components });
  const absolute = (schema: Json) =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"https://openapi.test/components.json#/components/'));
  return { compile: (schema) => ajv.compile(absolute(schema)) };
}

/** The pointers an ajv result names, as the service names them: a missing property is pointed at itself. */
export function pointersOf(errors: readonly ErrorObject[] | null | undefined): string[] {
  const pointers = (errors ?? []).map((e) =>
    e.keyword === 'required' ? `${e.instancePath}/${String((e.params as { missingProperty: string }).missingProperty)}` : e.instancePath,
  );
  return [...new Set(pointers)].sort();
}

/** Generates values from a schema of the document (the subset of JSON Schema the document uses). */
export class SchemaArbitraries {
  constructor(private readonly document: Json) {}

  resolve(schema: Json): Json {
    if (schema?.$ref === undefined) return schema;
    const target = (schema.$ref as string).replace(/^#\//, '').split('/').reduce((at: Json, key) => at?.[key], this.document);
    return this.resolve(target);
  }

  private readonly made = new Map<Json, fc.Arbitrary<unknown>>();

  /** Values the schema admits, most of the time; format and other keywords are left to the validator to judge. */
  valueOf(input: Json): fc.Arbitrary<unknown> {
    const schema = this.resolve(input);
    let arbitrary = this.made.get(schema);
    if (arbitrary === undefined) {
      arbitrary = this.make(schema);
      this.made.set(schema, arbitrary);
    }
    return arbitrary;
  }

  private make(schema: Json): fc.Arbitrary<unknown> {
    if (schema.anyOf !== undefined) return fc.oneof(...(schema.anyOf as Json[]).map((branch) => this.valueOf(branch)));
    if (schema.enum !== undefined) return fc.constantFrom(...(schema.enum as unknown[]));
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (Array.isArray(schema.type)) return fc.oneof(...(schema.type as string[]).map((type) => this.valueOf({ ...schema, type })));
    switch (schema.type) {
      case 'null':
        return fc.constant(null);
      case 'string':
        return this.stringOf(schema);
      case 'integer':
        return fc.integer({ min: schema.minimum ?? -(2 ** 31), max: Math.min(schema.maximum ?? 2 ** 31, Number.MAX_SAFE_INTEGER) });
      case 'array': {
        const items = this.valueOf(schema.items ?? {});
        const max = schema.maxItems ?? 10;
        // Now and then the array is full, so that maxItems itself is sent.
        return fc.oneof({ weight: 12, arbitrary: fc.array(items, { maxLength: Math.min(max, 3) }) }, { weight: 1, arbitrary: fc.array(items, { minLength: max, maxLength: max }) });
      }
      case 'object': {
        const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, sub]) => [name, this.valueOf(sub)]));
        return fc.record(properties, { requiredKeys: schema.required ?? [] });
      }
      default:
        return fc.constant('anything');
    }
  }

  private stringOf(schema: Json): fc.Arbitrary<string> {
    const shape = schema.pattern !== undefined ? new RegExp(schema.pattern, 'u') : FORMAT_SHAPES[schema.format as string];
    const min = schema.minLength ?? 0;
    const max = schema.maxLength ?? 200;
    const fits = (text: string) => [...text].length >= min && [...text].length <= max && (shape === undefined || shape.test(text));
    const free = shape === undefined ? fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max, 40) }) : fc.stringMatching(shape);
    // At the length bounds, where a schema and a server most easily disagree: a letter of another script, repeated.
    const bounds = [min, max].flatMap((n) => ['я', 'a', '😀'].map((ch) => ch.repeat(n))).filter(fits);
    const arbitraries = [{ weight: 8, arbitrary: free.filter(fits) }];
    if (bounds.length > 0) arbitraries.push({ weight: 1, arbitrary: fc.constantFrom(...bounds) });
    return fc.oneof(...arbitraries);
  }

  /**
   * Candidates for a value the schema refuses, each of one kind: wrong type, too short or too long, out of range,
   * too many items, or (for a string) a valid value with one character inserted, replaced or removed, or a short
   * string of troublesome characters. Some candidates may still be admitted: the caller keeps those the document's
   * validator refuses. `valid` is a value the schema admits.
   */
  breakingCandidates(input: Json, valid: unknown): fc.Arbitrary<unknown> {
    const schema = this.resolve(input);
    const candidates: fc.Arbitrary<unknown>[] = [fc.constantFrom<unknown>(42, 2.5, 'text', true, null, [], {})];
    if (schema.maxLength !== undefined) candidates.push(fc.constantFrom('я'.repeat(schema.maxLength + 1), 'a'.repeat(schema.maxLength + 1)));
    if ((schema.minLength ?? 0) > 0) candidates.push(fc.constant('a'.repeat(schema.minLength - 1)));
    if (schema.minimum !== undefined) candidates.push(fc.constant(schema.minimum - 1));
    if (schema.maximum !== undefined) candidates.push(fc.constant(schema.maximum + 1));
    if (schema.maxItems !== undefined && schema.items !== undefined) {
      candidates.push(this.valueOf(schema.items).map((item) => Array.from({ length: schema.maxItems + 1 }, () => item)));
    }
    if (typeof valid === 'string') {
      const chars = [...valid];
      const at = fc.nat({ max: chars.length });
      candidates.push(
        fc.tuple(at, fc.constantFrom(...TROUBLE)).map(([i, ch]) => [...chars.slice(0, i), ch, ...chars.slice(i)].join('')),
        fc.tuple(at, fc.constantFrom(...TROUBLE)).map(([i, ch]) => [...chars.slice(0, i), ch, ...chars.slice(i + 1)].join('')),
        at.map((i) => [...chars.slice(0, i), ...chars.slice(i + 1)].join('')),
        fc.string({ unit: fc.constantFrom(...TROUBLE), maxLength: 8 }),
      );
    }
    return fc.oneof(...candidates);
  }
}

/** A JSON Pointer of the schema's tree: `/resume/experience/0/company` (arrays are entered at their first item). */
export interface FieldPath {
  readonly pointer: string;
  readonly tokens: readonly (string | number)[];
  readonly schema: Json;
  /** Required in its parent object: leaving it out is a way to break it. */
  readonly required: boolean;
}

/** Every field of an object schema, nested objects and array items included, parents before children. */
export function fieldPaths(arbitraries: SchemaArbitraries, input: Json, tokens: (string | number)[] = []): FieldPath[] {
  const schema = arbitraries.resolve(input);
  const paths: FieldPath[] = [];
  if (schema.type === 'object') {
    for (const [name, sub] of Object.entries(schema.properties ?? {})) {
      const at = [...tokens, name];
      paths.push({ pointer: pointerOf(at), tokens: at, schema: arbitraries.resolve(sub), required: (schema.required ?? []).includes(name) });
      paths.push(...fieldPaths(arbitraries, sub, at));
    }
  } else if (schema.type === 'array' && schema.items !== undefined) {
    const at = [...tokens, 0];
    paths.push({ pointer: pointerOf(at), tokens: at, schema: arbitraries.resolve(schema.items), required: false });
    paths.push(...fieldPaths(arbitraries, schema.items, at));
  }
  return paths;
}

function pointerOf(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => `/${String(t).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}
