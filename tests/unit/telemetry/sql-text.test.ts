import { expect } from 'chai';
import { mainOperation, sqlWithoutValues } from '../../../infrastructure/telemetry/sql-text.js';

describe('a statement\'s text for its span: every value out', () => {
  it('replaces standard, escape and dollar-quoted strings and numbers with ?, keeping names and placeholders', () => {
    const text = `insert into "candidates" ("person", t1, n) values ('{"name":"Алия O''Brien","email":"aliya@example.kz"}'::jsonb, E'a\\'b\\\\', $tag$Резюме; 'quoted'$tag$, 42, -3.5e2, $1)`;
    expect(sqlWithoutValues(text)).to.equal(`insert into "candidates" ("person", t1, n) values (?::jsonb, ?, ?, ?, -?, $1)`);
  });

  it('leaves nothing of a value whatever its quotes hold: backslashes in a standard string, quotes in an identifier', () => {
    const text = `select 'C:\\', 'Гульнара', "we'ird" from x where a = 'last' and b = $$x$$`;
    const scrubbed = sqlWithoutValues(text);
    expect(scrubbed).to.equal(`select ?, ?, "we'ird" from x where a = ? and b = ?`);
    for (const value of ['C:', 'Гульнара', 'last']) expect(scrubbed).to.not.include(value);
  });

  it('takes an unterminated string to the end', () => {
    expect(sqlWithoutValues("select 'secret")).to.equal('select ?');
  });

  it('names a message by its statement after the SET LOCAL bounds and BEGIN', () => {
    expect(mainOperation('set local statement_timeout = ?; set local idle_in_transaction_session_timeout = ?; BEGIN; select pg_advisory_xact_lock(?, ?)')).to.equal('SELECT');
    expect(mainOperation('with prior as (select 1) insert into t values (?)')).to.equal('WITH');
    expect(mainOperation('COMMIT;')).to.equal('COMMIT');
    expect(mainOperation('set local statement_timeout = ?')).to.equal(undefined);
  });
});
