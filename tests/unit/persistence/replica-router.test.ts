import { expect } from 'chai';
import { ReplicaPosition, type ReplayPositionQuery } from '../../../adapters/persistence/postgres/replicas/replica-position.js';
import { ReplicaBehindError, ReplicaRouter, type PageStatements, type ReplicaCopy } from '../../../adapters/persistence/postgres/replicas/replica-router.js';
import { walPositionOf, walPositionText, type WalPosition } from '../../../adapters/persistence/postgres/replicas/wal-position.js';

const TIMING = { idleRefreshMs: 20, busyRefreshMs: 1 };

/** A replica whose replay position the test sets, counting the questions it is asked; its pages say where they ran. */
class FakeReplica implements ReplicaCopy {
  replayed: WalPosition | null = 0n;
  failing: Error | null = null;
  pageError: Error | null = null;
  /** What the page's own connection reports (default: the replayed position). */
  connectionReplayed: WalPosition | null | undefined;
  questions = 0;
  readonly position: ReplicaPosition;

  constructor(readonly name: string) {
    const ask: ReplayPositionQuery = async () => {
      this.questions += 1;
      if (this.failing !== null) throw this.failing;
      return this.replayed;
    };
    this.position = new ReplicaPosition(ask, TIMING);
  }

  statements(target: WalPosition): PageStatements {
    return async <T>() => {
      if (this.pageError !== null) throw this.pageError;
      const replayed = this.connectionReplayed === undefined ? this.replayed : this.connectionReplayed;
      if (replayed === null || replayed < target) throw new ReplicaBehindError(this.name);
      return [this.name] as T[];
    };
  }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const onPrimary = async () => ['primary'];
const page = (statements: PageStatements) => statements<string>('select', []);

async function started(...replicas: FakeReplica[]): Promise<void> {
  for (const replica of replicas) replica.position.start();
  await sleep(5);
}

describe('Replica reads: the shared replay position and the router (ADR 26)', () => {
  const replicas: FakeReplica[] = [];
  const replica = (name: string) => {
    const made = new FakeReplica(name);
    replicas.push(made);
    return made;
  };
  afterEach(() => {
    for (const made of replicas.splice(0)) made.position.stop();
  });

  it('reads pg_lsn text as bytes and writes it back as PostgreSQL does', () => {
    expect(walPositionOf('0/3001178')).to.equal(0x3001178n);
    expect(walPositionOf('16/B374D848')).to.equal((0x16n << 32n) + 0xb374d848n);
    expect(walPositionText(walPositionOf('16/B374D848'))).to.equal('16/B374D848');
    expect(() => walPositionOf('16-B3')).to.throw(/Not a WAL position/);
  });

  it('serves a page from a replica that has replayed past the barrier, and from the primary otherwise after the bound', async () => {
    const one = replica('replica-1');
    one.replayed = 100n;
    const router = new ReplicaRouter([one], { waitMs: 30 });
    await started(one);
    expect(await router.read(100n, page, onPrimary)).to.deep.equal(['replica-1']);
    expect(await router.read(101n, page, onPrimary)).to.deep.equal(['primary']);
    expect(router.pages.get('replica-1')).to.equal(1);
    expect(router.pages.get('primary')).to.equal(1);
    expect(router.fallbacks.get('lagging')).to.equal(1);
  });

  it('waits for a replica that gets there within the bound', async () => {
    const one = replica('replica-1');
    one.replayed = 10n;
    const router = new ReplicaRouter([one], { waitMs: 2_000 });
    await started(one);
    setTimeout(() => (one.replayed = 50n), 30);
    expect(await router.read(50n, page, onPrimary)).to.deep.equal(['replica-1']);
    expect(router.fallbacks.get('lagging')).to.equal(0);
  });

  it('shares one question among the reads that wait, instead of asking once per read', async () => {
    const one = replica('replica-1');
    one.replayed = 10n;
    const router = new ReplicaRouter([one], { waitMs: 2_000 });
    await started(one);
    const asked = one.questions;
    const reads = Array.from({ length: 200 }, () => router.read(20n, page, onPrimary));
    await sleep(10);
    one.replayed = 20n;
    const answers = await Promise.all(reads);
    expect(answers.every(([copy]) => copy === 'replica-1')).to.equal(true);
    expect(one.questions - asked).to.be.below(40);
  });

  it('does not wait again for a replica that missed a bound until it has replayed that far (paused replay)', async function () {
    const one = replica('replica-1');
    one.replayed = 10n;
    // A bound no read may wait out within the test's own timeout: a read that waited fails the test.
    this.timeout(5_000);
    const router = new ReplicaRouter([one], { waitMs: 60_000 });
    await started(one);
    expect(await one.position.waitFor(20n, 10)).to.equal('timeout');
    expect(one.position.behind).to.equal(true);
    expect(await router.read(21n, page, onPrimary)).to.deep.equal(['primary']);
    expect(router.fallbacks.get('lagging')).to.equal(1);
    one.replayed = 25n;
    await sleep(60);
    expect(one.position.behind).to.equal(false);
    expect(await router.read(21n, page, onPrimary)).to.deep.equal(['replica-1']);
  });

  it('goes to the primary at once while no replica answers, and back once one does', async function () {
    const one = replica('replica-1');
    one.replayed = 10n;
    one.failing = new Error('connect ECONNREFUSED');
    this.timeout(5_000);
    const router = new ReplicaRouter([one], { waitMs: 60_000 });
    await started(one);
    expect(await router.read(15n, page, onPrimary)).to.deep.equal(['primary']);
    expect(router.fallbacks.get('unavailable')).to.equal(1);
    one.failing = null;
    await sleep(60);
    expect(await router.read(5n, page, onPrimary)).to.deep.equal(['replica-1']);
  });

  it('reads the page again on the primary when it fails on the replica, and on another replica meanwhile', async () => {
    const one = replica('replica-1');
    const two = replica('replica-2');
    one.replayed = 10n;
    two.replayed = 10n;
    const router = new ReplicaRouter([one, two], { waitMs: 100 });
    await started(one, two);
    one.pageError = new Error('canceling statement due to conflict with recovery');
    const copies = new Set<string>();
    for (let i = 0; i < 6; i++) copies.add(((await router.read(10n, page, onPrimary)) as string[])[0] as string);
    expect(router.fallbacks.get('error')).to.equal(1);
    expect([...copies].sort()).to.deep.equal(['primary', 'replica-2']);
  });

  it('refuses a page whose own connection had not replayed up to the barrier (a replica restarted behind)', async () => {
    const one = replica('replica-1');
    one.replayed = 10n;
    one.connectionReplayed = 5n;
    const router = new ReplicaRouter([one], { waitMs: 100 });
    await started(one);
    expect(await router.read(10n, page, onPrimary)).to.deep.equal(['primary']);
    expect(router.fallbacks.get('lagging')).to.equal(1);
  });

  it('does not serve from a server that is not replaying (a promoted replica)', async () => {
    const one = replica('replica-1');
    one.replayed = null;
    const router = new ReplicaRouter([one], { waitMs: 100 });
    await started(one);
    expect(await router.read(1n, page, onPrimary)).to.deep.equal(['primary']);
    expect(router.fallbacks.get('unavailable')).to.equal(1);
  });

  it('asks no replica anything until the first page, which the primary reads', async () => {
    const one = replica('replica-1');
    one.replayed = 10n;
    let firstReads = 0;
    const router = new ReplicaRouter([one], { waitMs: 100, onFirstRead: () => (firstReads += 1) });
    await sleep(30);
    expect(one.questions).to.equal(0);
    expect(await router.read(5n, page, onPrimary)).to.deep.equal(['primary']);
    await sleep(10);
    expect(await router.read(5n, page, onPrimary)).to.deep.equal(['replica-1']);
    expect(firstReads).to.equal(1);
  });

  it('reports each replica\'s lag in bytes behind the newest primary position it saw', async () => {
    const one = replica('replica-1');
    one.replayed = 1_000n;
    const router = new ReplicaRouter([one], { waitMs: 0 });
    await started(one);
    router.notePrimaryPosition(5_000n);
    expect(router.lags()).to.deep.equal([{ replica: 'replica-1', bytes: 4_000 }]);
  });
});
