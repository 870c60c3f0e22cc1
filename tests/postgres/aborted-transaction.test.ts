import { expect } from 'chai';
import { tmpdir } from 'node:os';
import { pino } from 'pino';
import { aManualCard } from '../support/builders.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';

/**
 * PostgreSQL aborts a transaction at a failed statement and answers its COMMIT with a ROLLBACK, not an error.
 * A unit of work whose work catches a failed repository call and goes on must therefore fail, not resolve as
 * if what it wrote had committed (a feed batch would ack events whose effects were rolled back).
 */
describe('A unit of work whose work catches a failed statement (PostgreSQL)', function () {
  this.timeout(60_000);
  const database = usePostgresTestDatabase();

  it('fails with that statement\'s error instead of committing, and keeps nothing of its writes', async () => {
    // Imported dynamically, as the composition root imports the PostgreSQL module (one copy of each class).
    const [{ buildContainer, disposeContainer }, { resolve }, { USE_CASES }, { UNIT_OF_WORK }, { FEED_LEDGER }, { CANDIDATE_REPOSITORY }] = await Promise.all([
      import('../../infrastructure/container/build-container.js'),
      import('../../infrastructure/container/typed-binding.js'),
      import('../../infrastructure/container/use-case.tokens.js'),
      import('../../application/ports/unit-of-work.port.js'),
      import('../../application/ports/feed-ledger.port.js'),
      import('../../application/ports/candidate-repository.port.js'),
    ]);
    const url = database().businessUrl;
    const container = await buildContainer({ profile: 'postgres', logger: pino({ level: 'silent' }), config: { databaseUrl: url, keysDatabaseUrl: url, dataDir: tmpdir() } });
    try {
      const { id: companyId } = await resolve(container, USE_CASES.createCompany).execute({ name: 'ТОО «Откат»' });
      const [unitOfWork, ledger, candidates] = [resolve(container, UNIT_OF_WORK), resolve(container, FEED_LEDGER), resolve(container, CANDIDATE_REPOSITORY)];
      const card = aManualCard({ companyId, vacancyId: 'vac-1' });
      let caught: unknown;
      const result = await unitOfWork
        .run(companyId, 'write', async ({ now }) => {
          expect(await ledger.claimEvent('/platform/test', 'e-1', companyId, now)).to.equal(true);
          await candidates.insert(card);
          // The same id again: the statement fails on the server (a unique violation), and the work goes on.
          await candidates.insert(card).catch((error: unknown) => (caught = error));
          return 'looks done';
        })
        .catch((error: unknown) => ({ failed: error }));
      expect(caught, 'the work caught a failed statement').to.not.equal(undefined);
      expect(result, 'the unit of work fails with the statement\'s error').to.deep.equal({ failed: caught });
      expect(await candidates.findById(companyId, card.id), 'the card written before it was rolled back').to.equal(null);
      expect(await ledger.claimEvent('/platform/test', 'e-1', companyId, new Date()), 'and so was the claim').to.equal(true);
    } finally {
      await disposeContainer(container);
    }
  });
});
