import { expect } from 'chai';
import {
  classifyWorkFormatName,
  isWorkFormat,
  normaliseWorkFormat,
  workFormatFromNames,
  type WorkFormatKind,
} from '../../../domain/vacancy/work-format.js';

describe('work format normalisation (DESIGN 3, workFormat)', () => {
  describe('normaliseWorkFormat', () => {
    const cases: [WorkFormatKind[], string | null][] = [
      [[], null],
      [['remote'], 'remote'],
      [['remote', 'remote'], 'remote'],
      [['onsite'], 'office'],
      [['remote', 'onsite'], 'hybrid'],
      [['hybrid'], 'hybrid'],
      [['hybrid', 'other'], 'hybrid'],
      [['other'], 'other'],
      [['remote', 'other'], 'other'],
      [['onsite', 'other'], 'other'],
    ];
    for (const [kinds, expected] of cases) {
      it(`gives ${String(expected)} for [${kinds.join(', ')}]`, () => {
        expect(normaliseWorkFormat(kinds)).to.equal(expected);
      });
    }
  });

  describe('classifyWorkFormatName', () => {
    const cases: [string, WorkFormatKind][] = [
      ['Удалённо', 'remote'],
      ['удаленно', 'remote'],
      ['УДАЛЁННАЯ РАБОТА', 'remote'],
      ['Дистанционная работа', 'remote'],
      ['Remote', 'remote'],
      ['Work from home', 'remote'],
      ['Home office', 'remote'],
      ['На месте работодателя', 'onsite'],
      ['В офисе', 'onsite'],
      ['Office', 'onsite'],
      ['On-site', 'onsite'],
      ['Onsite', 'onsite'],
      ['Гибрид', 'hybrid'],
      ['Смешанный формат', 'hybrid'],
      ['Hybrid', 'hybrid'],
      ['Разъездной', 'other'],
      ['Field work', 'other'],
      ['', 'other'],
    ];
    for (const [name, kind] of cases) {
      it(`reads ${JSON.stringify(name)} as ${kind}`, () => {
        expect(classifyWorkFormatName(name)).to.equal(kind);
      });
    }
  });

  describe('workFormatFromNames', () => {
    it('normalises the names of a source in Russian or English', () => {
      expect(workFormatFromNames(['Удалённо'])).to.equal('remote');
      expect(workFormatFromNames(['На месте работодателя'])).to.equal('office');
      expect(workFormatFromNames(['Удалённо', 'На месте работодателя'])).to.equal('hybrid');
      expect(workFormatFromNames(['Remote', 'Office'])).to.equal('hybrid');
      expect(workFormatFromNames(['Гибрид'])).to.equal('hybrid');
      expect(workFormatFromNames(['Разъездной'])).to.equal('other');
      expect(workFormatFromNames([])).to.equal(null);
    });
  });

  it('knows exactly the four normalised values', () => {
    for (const value of ['remote', 'office', 'hybrid', 'other']) expect(isWorkFormat(value), value).to.equal(true);
    for (const value of ['onsite', 'Remote', '', null, 1]) expect(isWorkFormat(value), String(value)).to.equal(false);
  });
});
