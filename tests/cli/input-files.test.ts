import { expect } from 'chai';
import { readCandidateFile, readResumeFile } from '../../adapters/cli/candidate-file.js';
import { CliFailure } from '../../adapters/cli/cli-failure.js';
import { readJsonInput } from '../../adapters/cli/json-input.js';
import { readVacancyFile } from '../../adapters/cli/vacancy-file.js';
import { platformChangeOf } from '../../adapters/feed/platform-change-of.js';
import type { Schema } from '../../adapters/json/schema-parts.js';
import { kindOf, VACANCY_UPSERT_PROPERTIES } from '../../adapters/json/vacancy-upsert.js';
import { ValidationError } from '../../domain/shared/domain-error.js';
import { rejectionOf, thrownBy } from '../support/catching.js';
import { MemoryIo } from './support/memory-io.js';

function problemsOf(error: unknown): string[] {
  if (!(error instanceof ValidationError)) throw new Error(`expected a ValidationError, got ${String(error)}`);
  return error.problems.map((p) => `${p.pointer}: ${p.message}`);
}

describe('admin CLI input files', () => {
  describe('vacancy upsert', () => {
    it('reads the API Vacancy fields, ignores timestamps and unknown fields, and fills what is absent with null or []', () => {
      const [vacancy] = readVacancyFile({
        id: 'vac-1', title: 'Повар', status: 'paused', createdAt: 'ignored', updatedAt: 'ignored', vacancyTitle: 'unknown field',
        salaryTo: 300000, publishedAt: '2026-10-03T09:41:12+05:00', recruiter: 'Айдана Касымова',
      });
      expect(vacancy).to.deep.equal({
        id: 'vac-1', title: 'Повар', status: 'paused', city: null, officeAddress: null, experience: null, workFormats: [],
        salaryFrom: null, salaryTo: 300000, salaryCurrency: null, salaryGross: null, employmentForm: null, workSchedule: [],
        skills: [], languages: [], professionalRoles: [], description: null, positionsCount: null, sourceUrl: null,
        publishedAt: new Date('2026-10-03T04:41:12.000Z'), recruiter: 'Айдана Касымова', sourceRef: null,
      });
    });

    it('derives workFormat and responsibilities when absent, and takes them as given otherwise, null included', () => {
      const [absent, given] = readVacancyFile([
        { title: 'a', status: 'open' },
        { title: 'b', status: 'open', workFormat: null, responsibilities: null },
      ]);
      expect(absent).to.not.have.property('workFormat');
      expect(absent).to.not.have.property('responsibilities');
      expect(given).to.include({ workFormat: null, responsibilities: null });
    });

    it('checks types strictly and reports every problem of the batch by record index and field', () => {
      const error = thrownBy(() =>
        readVacancyFile([
          { title: 'ok', status: 'open' },
          { title: 5, status: 'open', salaryFrom: '100', skills: ['a', 3], workFormat: 'office-ish', positionsCount: 1.5 },
          { status: 'later', publishedAt: '2026-10-03T09:41:12+0500' },
          'not an object',
        ]),
      );
      expect(problemsOf(error)).to.deep.equal([
        '/1/title: must be a string',
        '/1/workFormat: must be one of remote, office, hybrid, other, or null',
        '/1/salaryFrom: must be a number or null',
        '/1/skills/1: must be a string',
        '/1/positionsCount: must be an integer or null',
        '/2/title: is required',
        '/2/status: must be one of open, paused, closed, archived, draft',
        '/2/publishedAt: must be an RFC 3339 date-time with a time zone, such as 2026-10-03T09:41:12.000Z',
        '/3: must be an object',
      ]);
      expect((error as Error).message).to.equal('The file is invalid; nothing was stored.');
    });
  });

  describe('the vacancy upsert body, one for the file and the feed', () => {
    /** A value for every property of the one schema, of the kind it gives. */
    const body = Object.fromEntries(
      Object.entries(VACANCY_UPSERT_PROPERTIES as Record<string, Schema>).map(([key, schema]) => {
        const firstOf = (schema.enum as string[] | undefined)?.[0];
        const value = { list: [`${key} 1`], 'date-time': '2026-10-03T09:41:12+05:00', number: 5, integer: 2, boolean: true, string: firstOf ?? `${key} text` }[kindOf(schema)];
        return [key, value];
      }),
    );

    it('reads every field of the schema in the file as the feed reads it in vacancy.upserted', () => {
      const [read] = readVacancyFile({ id: 'vac-1', ...body });
      const { id, ...fromFile } = read as unknown as Record<string, unknown>;
      expect(id).to.equal('vac-1');
      expect(platformChangeOf('vacancy.upserted', body)).to.deep.equal({ type: 'vacancy.upserted', vacancy: fromFile });
      for (const key of Object.keys(VACANCY_UPSERT_PROPERTIES)) expect(fromFile[key], key).to.not.be.oneOf([null, undefined]).and.not.deep.equal([]);
      expect(fromFile.publishedAt).to.deep.equal(new Date('2026-10-03T04:41:12.000Z'));
    });
  });

  describe('candidate add and update-resume', () => {
    it('reads a card with person, resume, referral and stage; item strings not given become ""', () => {
      const [card] = readCandidateFile({
        vacancyId: 'vac-1',
        stage: 'INTERVIEW',
        candidate: { name: 'Алишер Каримов', email: 'alisher@example.uz' },
        resume: { role: 'Водитель', experience: [{ company: 'ООО «Silk Road Logistics»' }], education: [{}] },
        referral: { name: 'Дилноза Юсупова', relationship: 'бывшая коллега' },
      });
      expect(card?.candidate).to.deep.equal({ name: 'Алишер Каримов', email: 'alisher@example.uz', phone: null, location: null, birthDate: null, gender: null, citizenship: [] });
      expect(card?.resume.experience).to.deep.equal([{ company: 'ООО «Silk Road Logistics»', role: '', period: '', description: '' }]);
      expect(card?.resume.education).to.deep.equal([{ institution: '', degree: '', period: '' }]);
      expect(card?.referral).to.deep.equal({ name: 'Дилноза Юсупова', email: null, phone: null, company: null, relationship: 'бывшая коллега' });
      expect(card?.stage).to.equal('INTERVIEW');
    });

    it('reports every problem of a batch by index and field, including a missing candidate block', () => {
      const error = thrownBy(() =>
        readCandidateFile([
          { vacancyId: 'v', candidate: { name: 'Ок' } },
          { vacancyId: 7, candidate: { name: 'Б', citizenship: 'Казахстан' }, resume: { experienceYears: '3', skills: 'Node.js' }, referral: 'Дилноза' },
          { vacancyId: 'v' },
        ]),
      );
      expect(problemsOf(error)).to.deep.equal([
        '/1/vacancyId: must be a string',
        '/1/candidate/citizenship: must be an array',
        '/1/resume/experienceYears: must be an integer or null',
        '/1/resume/skills: must be an array',
        '/1/referral: must be an object',
        '/2/candidate: is required',
        '/2/candidate/name: is required',
      ]);
    });

    it('reads one resume object for update-resume and refuses an array', () => {
      expect(readResumeFile({ summary: 'Новое резюме' }).summary).to.equal('Новое резюме');
      expect(thrownBy(() => readResumeFile([{}]))).to.be.instanceOf(CliFailure);
      expect(problemsOf(thrownBy(() => readResumeFile({ languages: [{ name: 1 }] })))).to.deep.equal(['/languages/0/name: must be a string or null']);
    });
  });

  describe('reading --file', () => {
    it('reads a file or standard input for -, and names the input in every failure', async () => {
      const io = new MemoryIo('[{"a":1}]', { 'ok.json': '\uFEFF{"b":2}', 'bad.json': '{"b":', 'empty.json': '  ' });
      expect(await readJsonInput(io, '-')).to.deep.equal([{ a: 1 }]);
      expect(await readJsonInput(io, 'ok.json')).to.deep.equal({ b: 2 });
      expect(((await rejectionOf(readJsonInput(io, 'bad.json'))) as Error).message).to.match(/^bad\.json is not valid JSON: /);
      expect(((await rejectionOf(readJsonInput(io, 'empty.json'))) as Error).message).to.equal('empty.json is empty; expected JSON.');
      expect(((await rejectionOf(readJsonInput(io, 'missing.json'))) as Error).message).to.equal('Cannot read missing.json: no such file.');
      expect(((await rejectionOf(readJsonInput(new MemoryIo('not json'), '-'))) as Error).message).to.match(/^standard input is not valid JSON/);
    });
  });
});
