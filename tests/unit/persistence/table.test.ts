import { expect } from 'chai';
import { epochMs } from '../../../adapters/persistence/postgres/sql-values.js';
import { Table } from '../../../adapters/persistence/postgres/table.js';
import { BOARDS } from '../../../adapters/persistence/postgres/tables/board.table.js';
import { CANDIDATES } from '../../../adapters/persistence/postgres/tables/candidate.table.js';
import { COMPANIES } from '../../../adapters/persistence/postgres/tables/company.table.js';
import { PLATFORM_TOKENS } from '../../../adapters/persistence/postgres/tables/platform-token.table.js';
import { SERVICE_KEYS } from '../../../adapters/persistence/postgres/tables/service-key.table.js';
import { VACANCIES } from '../../../adapters/persistence/postgres/tables/vacancy.table.js';

interface NoteRow {
  ownerId: string;
  id: string;
  tags: string[];
  score: number | null;
  done: boolean;
  createdAt: Date;
  editedAt: Date | null;
}

const NOTES = new Table<NoteRow, { rendering: string }>(
  'notes',
  {
    ownerId: ['owner_id', 'text'],
    id: ['id', 'text'],
    tags: ['tags', 'jsonb'],
    score: ['score', 'float8'],
    done: ['done', 'boolean'],
    createdAt: ['created_at', 'timestamptz'],
    editedAt: ['edited_at', 'timestamptz'],
  },
  ['ownerId', 'id'],
  { rendering: ['rendering', 'text'] },
);

const CREATED = new Date('2026-01-02T03:04:05.678Z');
const NOTE: NoteRow & { rendering: string } = {
  ownerId: 'o1', id: 'n1', tags: ['a', "b'c"], score: null, done: true, createdAt: CREATED, editedAt: null, rendering: '{"id":"n1"}',
};

const questionMarks = (sql: string) => (sql.match(/\?/g) ?? []).length;

describe('Table: one list of columns, and the statements and row mapping made from it', () => {
  it('inserts every column, those only writes set last, each `?` with its cast, the values in the same order', () => {
    expect(NOTES.columnNames).to.equal('owner_id, id, tags, score, done, created_at, edited_at, rendering');
    expect(NOTES.insertSql).to.equal(
      'insert into notes (owner_id, id, tags, score, done, created_at, edited_at, rendering) values (?, ?, ?::jsonb, ?::float8, ?::boolean, ?::timestamptz, ?::timestamptz, ?)',
    );
    // jsonb as its JSON text, a null jsonb-free value as null, a Date as it is (sql-values.ts makes it ISO text).
    expect(NOTES.values(NOTE)).to.deep.equal(['o1', 'n1', '["a","b\'c"]', null, true, CREATED, null, '{"id":"n1"}']);
  });

  it('updates every column but the key, the key\'s values last, in the order of updateSql', () => {
    expect(NOTES.updateSql.replace(/\s+/g, ' ')).to.equal(
      'update notes set tags = ?::jsonb, score = ?::float8, done = ?::boolean, created_at = ?::timestamptz, edited_at = ?::timestamptz, rendering = ? where owner_id = ? and id = ?',
    );
    expect(NOTES.updateValues(NOTE)).to.deep.equal(['["a","b\'c"]', null, true, CREATED, null, '{"id":"n1"}', 'o1', 'n1']);
  });

  it('selects the columns of a row read whole, timestamps as epoch milliseconds, with an alias when given; not those only writes set', () => {
    const ms = epochMs;
    expect(NOTES.selectList()).to.equal(`owner_id, id, tags, score, done, ${ms('created_at')} as created_at_ms, ${ms('edited_at')} as edited_at_ms`);
    expect(NOTES.selectList('n')).to.equal(`n.owner_id, n.id, n.tags, n.score, n.done, ${ms('n.created_at')} as created_at_ms, ${ms('n.edited_at')} as edited_at_ms`);
    expect(NOTES.selectList(), 'the same text again').to.equal(NOTES.selectList(''));
  });

  it('reads a row back from its select list: timestamps from milliseconds (null stays null), jsonb as pg parsed it', () => {
    const raw = { owner_id: 'o1', id: 'n1', tags: ['a'], score: 2.5, done: false, created_at_ms: CREATED.getTime(), edited_at_ms: null, rendering: 'not read' };
    const row = NOTES.rowOf(raw);
    expect(row).to.deep.equal({ ownerId: 'o1', id: 'n1', tags: ['a'], score: 2.5, done: false, createdAt: CREATED, editedAt: null });
    expect(row.createdAt).to.be.instanceOf(Date);
  });

  for (const table of [BOARDS, CANDIDATES, COMPANIES, PLATFORM_TOKENS, SERVICE_KEYS, VACANCIES]) {
    it(`${table.name}: its INSERT and UPDATE have a \`?\` for each column, and its select list reads only its columns`, () => {
      const columns = table.columnNames.split(', ');
      expect(new Set(columns).size, 'no column twice').to.equal(columns.length);
      expect(questionMarks(table.insertSql)).to.equal(columns.length);
      expect(questionMarks(table.rowValues)).to.equal(columns.length);
      expect(questionMarks(table.updateSql)).to.equal(columns.length);
      // Split at the commas between the columns, not at those inside a call's parentheses.
      for (const selected of table.selectList().split(/, (?![^()]*\))/)) {
        const column = /as (\w+)_ms$/.exec(selected)?.[1] ?? selected;
        expect(columns, selected).to.include(column);
      }
    });
  }
});
