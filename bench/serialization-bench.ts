import { performance } from 'node:perf_hooks';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastJson from 'fast-json-stringify';
import { demoCandidate } from '../adapters/cli/seed/demo-candidates.js';
import { demoVacancies } from '../adapters/cli/seed/demo-vacancies.js';
import { SeededRandom } from '../adapters/cli/seed/seeded-random.js';
import { presentCandidate } from '../adapters/presenters/candidate.presenter.js';
import { presentVacancy } from '../adapters/presenters/vacancy.presenter.js';
import { candidateSchema, personSchema, referralSchema, resumeSchema } from '../adapters/http/schemas/candidate.schema.js';
import { vacancySchema } from '../adapters/http/schemas/vacancy.schema.js';
import { Vacancy } from '../domain/vacancy/vacancy.js';
import { answerHelp } from '../infrastructure/process-arguments.js';

/**
 * `npm run bench:serialization`: what a page of the API costs to serialise and to compress, on pages built
 * by the demo generators (the content the bench seeds: Cyrillic names, resumes, HTML descriptions) and
 * shaped by the same presenters as the routes. Compares JSON.stringify with a schema-compiled serialiser
 * (fast-json-stringify, on the OpenAPI response schemas) and item-by-item stringify, and brotli/gzip levels.
 */
answerHelp(
  process.argv.slice(2),
  'npm run bench:serialization',
  `Usage: npm run bench:serialization

What a page of the API costs to serialise and to compress, on pages of the demo generators' content shaped by the
routes' presenters: JSON.stringify against fast-json-stringify on the OpenAPI response schemas and item-by-item
stringify, and brotli / gzip levels. One core, medians of runs; prints a table. Takes no options.`,
  'it has no settings',
);
const random = new SeededRandom(7);
const vacancies = demoVacancies(random, 500).map((v, i) => ({ ...v, id: `0199${String(i).padStart(8, '0')}-7000-8000-000000000000` }));
const now = new Date('2026-10-01T08:00:00.000Z');

function candidatePage(size: number) {
  const items = Array.from({ length: size }, (_, i) => {
    const vacancy = vacancies[i % vacancies.length] as (typeof vacancies)[number];
    const { load } = demoCandidate(random, vacancy, i, 'hh');
    const origin = load.origin;
    return presentCandidate({
      id: `0199aaaa-${String(i).padStart(4, '0')}-7000-8000-000000000000`, vacancyId: vacancy.id, vacancyTitle: vacancy.input.title,
      stage: load.stage ?? 'NEW', source: origin.kind === 'manual' ? 'manual' : origin.source,
      externalId: origin.kind === 'application' ? origin.externalId : null, coverLetter: origin.kind === 'application' ? origin.coverLetter : null,
      person: load.person, resume: load.resume, referral: load.referral, createdAt: now, updatedAt: now,
    });
  });
  return { items, nextCursor: 'eyJ2IjoxLCJ0IjoxNzk1MzI1NDk1ODIwLCJpIjoiMDE5OWFhYWEtMDA5OS03MDAwLTgwMDAtMDAwMDAwMDAwMDAwIiwiZiI6IjFhMmIzYyJ9' };
}

function vacancyPage(size: number) {
  const items = vacancies.slice(0, size).map((v) => presentVacancy(Vacancy.create({ id: v.id, companyId: 'c', input: v.input, now }).toSnapshot()));
  return { items, nextCursor: null };
}

/** The response schemas with their $refs inlined, as fast-json-stringify wants one schema. */
function pageSchemaOf(item: object): object {
  const refs: Record<string, object> = { Person: personSchema, Resume: resumeSchema, Referral: referralSchema };
  const inline = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(inline);
    if (node === null || typeof node !== 'object') return node;
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === 'string') return inline(refs[record.$ref.split('/').pop() as string]);
    if (Array.isArray(record.oneOf) && record.oneOf.length === 2 && (record.oneOf[1] as { type?: string }).type === 'null') {
      const inner = inline(record.oneOf[0]) as Record<string, unknown>;
      return { ...inner, type: ['object', 'null'] };
    }
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, inline(v)]));
  };
  return { type: 'object', properties: { items: { type: 'array', items: inline(item) }, nextCursor: { type: ['string', 'null'] } } };
}

/** Median time of `rounds` runs, in ms, after a warm-up. */
function time(rounds: number, work: () => unknown): number {
  for (let i = 0; i < Math.min(20, rounds); i++) work();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    work();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] as number;
}

const pages = [
  { name: '100 vacancies', page: vacancyPage(100), schema: vacancySchema, rounds: 300 },
  { name: '100 candidates', page: candidatePage(100), schema: candidateSchema, rounds: 300 },
  { name: '500 candidates', page: candidatePage(500), schema: candidateSchema, rounds: 80 },
];

const lines: string[] = ['| page | bytes | JSON.stringify ms | fast-json-stringify ms | items one by one ms | Buffer.from ms | same bytes |', '|---|---:|---:|---:|---:|---:|---|'];
const compressionLines: string[] = ['| page | encoding | level | bytes | saved | ms |', '|---|---|---:|---:|---:|---:|'];
for (const { name, page, schema, rounds } of pages) {
  const compiled = fastJson(pageSchemaOf(schema) as Parameters<typeof fastJson>[0]);
  const text = JSON.stringify(page);
  const byItem = () => `{"items":[${page.items.map((item) => JSON.stringify(item)).join(',')}],"nextCursor":${JSON.stringify(page.nextCursor)}}`;
  const same = compiled(page) === text && byItem() === text;
  const bytes = Buffer.byteLength(text);
  lines.push(
    `| ${name} | ${bytes} | ${time(rounds, () => JSON.stringify(page)).toFixed(2)} | ${time(rounds, () => compiled(page)).toFixed(2)} | ` +
      `${time(rounds, byItem).toFixed(2)} | ${time(rounds, () => Buffer.from(text)).toFixed(2)} | ${same ? 'yes' : 'NO'} |`,
  );
  const body = Buffer.from(text);
  const compress = (encoding: string, level: number, run: () => Buffer) => {
    const size = run().length;
    compressionLines.push(`| ${name} | ${encoding} | ${level} | ${size} | ${((1 - size / bytes) * 100).toFixed(1)}% | ${time(Math.ceil(rounds / 4), run).toFixed(2)} |`);
  };
  for (const quality of [3, 4, 5, 6]) {
    compress('br', quality, () => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_LGWIN]: 20 } }));
  }
  for (const level of [1, 4, 6, 9]) compress('gzip', level, () => gzipSync(body, { level }));
}
process.stdout.write(`Serialisation (median of runs, one core)\n\n${lines.join('\n')}\n\nCompression\n\n${compressionLines.join('\n')}\n`);
