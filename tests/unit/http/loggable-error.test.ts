import { expect } from 'chai';
import { loggableError } from '../../../adapters/http/loggable-error.js';

/** An error as pg gives it: SQLSTATE, severity, and a message that may quote the request's values. */
function databaseError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: 'ERROR', routine: 'exec_parse_message' });
}

describe('loggableError', () => {
  it('keeps a database error\'s identifiers and withholds its message, which may quote request data', () => {
    const logged = loggableError(databaseError('23505', 'duplicate key value (email)=(aigerim@example.kz)')) as Record<string, unknown>;
    expect(logged).to.include({ type: 'Error', code: '23505', routine: 'exec_parse_message' });
    expect(JSON.stringify(logged)).not.to.contain('aigerim');
    expect(logged).not.to.have.property('hint');
  });

  it('names DB_PREPARED_STATEMENTS in a hint when a connection meets prepared statements it does not hold (42P05, 26000)', () => {
    for (const code of ['42P05', '26000']) {
      const logged = loggableError(databaseError(code, 'prepared statement "ia_1" already exists')) as Record<string, unknown>;
      expect(logged, code).to.include({ code });
      expect(logged.hint, code).to.contain('DB_PREPARED_STATEMENTS=on behind a pooler that does not keep them');
    }
  });

  it('logs any other error whole', () => {
    const error = new TypeError('x is not a function');
    expect(loggableError(error)).to.equal(error);
  });
});
