import { expect } from 'chai';
import type { ServiceKeyRepository } from '../../application/ports/service-key-repository.port.js';
import type { KeyEvent } from '../../domain/service-key/key-event.js';
import { at, nextId } from '../support/builders.js';
import { aKeyEvent, aKeyId, anIssuedKey } from './key-registry-fixtures.js';
import { withAdapters, type AdapterFactory } from './persistence-adapters.js';

/**
 * One pass of the reader the management API documents (ADR 17): pages newest first from the top and stops at
 * the first event it already knows (`known`, the newest event of its previous pass); its next pass starts from
 * the newest event of this one.
 */
export async function readTrailPass(
  keys: Pick<ServiceKeyRepository, 'listEvents'>,
  companyId: string,
  known: string | null,
  limit: number,
): Promise<{ readonly fresh: string[]; readonly newest: string | null }> {
  const fresh: string[] = [];
  let after: string | null = null;
  for (;;) {
    const page: KeyEvent[] = await keys.listEvents(companyId, { limit, after });
    for (const event of page) {
      if (event.id === known) return { fresh, newest: fresh[0] ?? known };
      fresh.push(event.id);
    }
    const last = page[page.length - 1];
    if (page.length < limit || last === undefined) return { fresh, newest: fresh[0] ?? known };
    after = last.id;
  }
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The guarantee of the key events' trail: a reader that pages while events are recorded misses none of them. */
export function keyEventTrailContract(factory: AdapterFactory): void {
  describe(`ServiceKeyRepository key event trail under concurrent recording (${factory.name})`, () => {
    const adapters = withAdapters(factory);

    it('puts an event stamped before the events a reader saw, but recorded after, above that reader\'s first page', async () => {
      const companyId = nextId('co');
      const { keys } = adapters();
      const keyId = aKeyId();
      for (const ms of [1_000, 3_000, 4_000]) await keys.write({ events: [aKeyEvent({ companyId, keyId, type: 'issued', at: at(ms) })] });
      const first = await readTrailPass(keys, companyId, null, 1);
      expect(first.fresh).to.have.length(3);

      // As `expired` and `first_used` are: stamped when seen, written in the background a little later.
      const late = aKeyEvent({ companyId, keyId, type: 'expired', at: at(2_000), expiresAt: at(1_500) });
      await keys.recordEventOnce(late);

      expect((await readTrailPass(keys, companyId, first.newest, 1)).fresh).to.deep.equal([late.id]);
    });

    it('shows a reader that pages while several writers record events every event, each once', async function () {
      this.timeout(60_000);
      const companyId = nextId('co');
      const { keys } = adapters();
      const [writers, eventsEach] = [4, 20];
      let clock = 0;
      let seed = 7;
      const randomMs = (below: number) => {
        seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
        return seed % below;
      };
      const recorded: string[] = [];
      const record = async (writer: number, n: number): Promise<void> => {
        // Stamped now and recorded after a while, as a background write or a slow transaction is.
        const stamp = at((clock += 1));
        const key = anIssuedKey({ companyId });
        await pause(randomMs(6));
        const kind = (writer + n) % 3;
        if (kind === 0) {
          const event = aKeyEvent({ companyId, keyId: key.id, type: 'issued', at: stamp, actor: 'alice' });
          await keys.write({ inserted: [key], events: [event] });
          recorded.push(event.id);
        } else if (kind === 1) {
          const event = aKeyEvent({ companyId, keyId: key.id, type: 'expired', at: stamp, expiresAt: at(0) });
          await keys.recordEventOnce(event);
          recorded.push(event.id);
        } else {
          await keys.insert(key);
          const event = aKeyEvent({ companyId, keyId: key.id, type: 'first_used', at: stamp });
          await keys.recordUsage(key.id, stamp, event);
          recorded.push(event.id);
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
        const pass = await readTrailPass(keys, companyId, known, 3);
        seen.push(...pass.fresh);
        known = pass.newest;
        passes += 1;
        await pause(randomMs(3));
      }
      await done;
      seen.push(...(await readTrailPass(keys, companyId, known, 3)).fresh);

      expect(passes, 'passes made while the writers wrote').to.be.greaterThan(3);
      expect(recorded).to.have.length(writers * eventsEach);
      expect(new Set(seen).size, 'no event twice').to.equal(seen.length);
      expect([...seen].sort()).to.deep.equal([...recorded].sort());
    });
  });
}
