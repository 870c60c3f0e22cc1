import { expect } from 'chai';
import { pgConnectionOf } from '../../../adapters/persistence/postgres/connection-fields.js';

describe('pgConnectionOf: a database URL read as the pools read it (MikroORM\'s clientUrl)', () => {
  it('takes host, port, user, password and database, each percent-decoded, and nothing of the query string', () => {
    expect(pgConnectionOf('postgresql://app%20user:p%40ss%3Aword@db.internal:6432/region%2Dkz?sslmode=require&host=/tmp&options=-c%20x%3D1')).to.deep.equal({
      host: 'db.internal',
      port: 6432,
      user: 'app user',
      password: 'p@ss:word',
      database: 'region-kz',
    });
  });

  it('leaves the port, user and password unset or empty when the URL has none, so pg takes its own defaults (PGPORT, else 5432) as it does for the pools', () => {
    expect(pgConnectionOf('postgres://127.0.0.1/crm')).to.deep.equal({ host: '127.0.0.1', port: undefined, user: '', password: '', database: 'crm' });
  });
});
