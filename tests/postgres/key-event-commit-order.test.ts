import { expect } from 'chai';
import pg from 'pg';
import { PgServiceKeyRepository } from '../../adapters/persistence/postgres/pg-service-key-repository.js';
import type { KeyEvent } from '../../domain/service-key/key-event.js';
import { aKeyEvent, anIssuedKey } from '../contract/key-registry-fixtures.js';
import { readTrailPass } from '../contract/key-event-trail.contract.js';
import { at, nextId } from '../support/builders.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * ADR 17: the trail's order is its commit order. Here every insert into key_events sleeps up to 30 ms before its
 * transaction can commit (a trigger, in this test's database only), as a slow network or a busy server makes
 * it, so that writers on several connections hold their events' places open while a reader pages. Without the
 * trail's lock, a place is taken at the insert and committed later, below where a reader already stood.
 */
describe('key events recorded on several connections at once, with slow commits', function () {
  this.timeout(120_000);
  const database = usePostgresTestDatabase({ separateRegistry: true, poolMax: 8 });

  before(async () => {
    const client = new pg.Client({ connectionString: database().registryUrl });
    await client.connect();
    try {
      await client.query(`create function slow_key_event_commit() returns trigger language plpgsql as $$
        begin perform pg_sleep(random() * 0.03); return null; end $$`);
      await client.query('create trigger slow_key_event_commit after insert on key_events for each row execute function slow_key_event_commit()');
    } finally {
      await client.end();
    }
  });

  it('shows a reader that pages down to the first event it knows every event, each once', async () => {
    const keys = new PgServiceKeyRepository(database().databases.registry);
    const companyId = nextId('co');
    const [writers, eventsEach] = [6, 12];
    const recorded: string[] = [];
    const record = async (writer: number, n: number): Promise<void> => {
      const key = anIssuedKey({ companyId });
      // Every event stamped alike: the order can come only from the registry.
      const event = (type: KeyEvent['type']): KeyEvent => aKeyEvent({ companyId, keyId: key.id, type, at: at(0), expiresAt: type === 'expired' ? at(0) : null });
      if ((writer + n) % 3 === 0) {
        const issued = event('issued');
        await keys.write({ inserted: [key], events: [issued] });
        recorded.push(issued.id);
      } else if ((writer + n) % 3 === 1) {
        const expired = event('expired');
        await keys.recordEventOnce(expired);
        recorded.push(expired.id);
      } else {
        await keys.insert(key);
        const firstUse = event('first_used');
        await keys.recordUsage(key.id, at(0), firstUse);
        recorded.push(firstUse.id);
      }
    };
    let writing = true;
    const done = Promise.all(
      Array.from({ length: writers }, async (_, writer) => {
        for (let n = 0; n < eventsEach; n++) await record(writer, n);
      }),
    ).finally(() => (writing = false));

    const seen: string[] = [];
    let known: string | null = null;
    let passes = 0;
    while (writing) {
      const pass = await readTrailPass(keys, companyId, known, 2);
      seen.push(...pass.fresh);
      known = pass.newest;
      passes += 1;
      await pause(1);
    }
    await done;
    seen.push(...(await readTrailPass(keys, companyId, known, 2)).fresh);

    expect(passes, 'passes made while the writers wrote').to.be.greaterThan(5);
    expect(recorded).to.have.length(writers * eventsEach);
    expect(new Set(seen).size, 'no event twice').to.equal(seen.length);
    expect([...seen].sort()).to.deep.equal([...recorded].sort());
  });
});
