import { expect } from 'chai';
import { FairQueue, QueueFullError } from '../../src/workers/fair-queue.js';

/** A task that records when it starts and finishes only when the test says so. */
function gated(log: string[], name: string): { start: () => Promise<string>; finish: () => void } {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((r) => (finish = r));
  return {
    start: async () => {
      log.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('fair admission to the workers', () => {
  it("serves keys in turn, so one key's backlog delays another's task by at most one task", async () => {
    const q = new FairQueue<string>(1, 100);
    const log: string[] = [];
    const a = Array.from({ length: 5 }, (_, i) => gated(log, `a${i}`));
    const results = a.map((t) => q.push('A', t.start));
    const b = gated(log, 'b0');
    results.push(q.push('B', b.start));
    await tick();
    expect(log).to.deep.equal(['a0']);
    a[0].finish();
    await tick();
    expect(log).to.deep.equal(['a0', 'b0']);
    b.finish();
    for (const t of a.slice(1)) t.finish();
    expect(await Promise.all(results)).to.have.members(['a0', 'a1', 'a2', 'a3', 'a4', 'b0']);
  });

  it('never lets one key hold every slot when there are two or more', async () => {
    const q = new FairQueue<string>(2, 100);
    const log: string[] = [];
    const a = Array.from({ length: 3 }, (_, i) => gated(log, `a${i}`));
    const pending = a.map((t) => q.push('A', t.start));
    await tick();
    expect(log).to.deep.equal(['a0']);
    expect(q.active).to.equal(1);
    expect(q.waiting).to.equal(2);
    const b = gated(log, 'b0');
    pending.push(q.push('B', b.start));
    await tick();
    expect(log).to.deep.equal(['a0', 'b0']);
    for (const t of [...a, b]) t.finish();
    await Promise.all(pending);
    expect(q.active).to.equal(0);
  });

  it("lets one key's bounded tasks take the last slot while nobody else waits, and serves another key first once a slot frees", async () => {
    const q = new FairQueue<string>(2, 100);
    const log: string[] = [];
    const a = Array.from({ length: 4 }, (_, i) => gated(log, `a${i}`));
    const pending = a.map((t) => q.push('A', t.start, true));
    await tick();
    expect(log).to.deep.equal(['a0', 'a1']);
    expect(q.active).to.equal(2);
    const b = gated(log, 'b0');
    pending.push(q.push('B', b.start, true));
    await tick();
    expect(log).to.deep.equal(['a0', 'a1']);
    a[0].finish();
    await tick();
    expect(log).to.deep.equal(['a0', 'a1', 'b0']);
    for (const t of [...a, b]) t.finish();
    await Promise.all(pending);
    expect(q.active).to.equal(0);
  });

  it('keeps the last slot from unbounded tasks even behind a bounded one of the same key', async () => {
    const q = new FairQueue<string>(2, 100);
    const log: string[] = [];
    const parse = gated(log, 'parse');
    const analyze = gated(log, 'analyze');
    const parse2 = gated(log, 'parse2');
    const pending = [q.push('A', parse.start), q.push('A', analyze.start, true), q.push('A', parse2.start)];
    await tick();
    expect(log).to.deep.equal(['parse', 'analyze']);
    analyze.finish();
    await tick();
    expect(log, 'a second unbounded task took the last slot').to.deep.equal(['parse', 'analyze']);
    parse.finish();
    await tick();
    expect(log).to.deep.equal(['parse', 'analyze', 'parse2']);
    parse2.finish();
    await Promise.all(pending);
  });

  it('refuses past its waiting limit, and a failing task frees its slot', async () => {
    const q = new FairQueue<string>(1, 1);
    const log: string[] = [];
    const first = gated(log, 'first');
    const running = q.push('A', first.start);
    const waiting = q.push('B', () => Promise.reject(new Error('boom')));
    await tick();
    await q
      .push('C', async () => 'c')
      .then(
        () => expect.fail('a third task was queued past the limit'),
        (err: unknown) => expect(err).to.be.instanceOf(QueueFullError),
      );
    first.finish();
    expect(await running).to.equal('first');
    await waiting.then(
      () => expect.fail('the failing task resolved'),
      (err: Error) => expect(err.message).to.equal('boom'),
    );
    expect(await q.push('C', async () => 'c')).to.equal('c');
  });

  it('says when it is idle: nothing waiting, nothing running', async () => {
    const q = new FairQueue<string>(1, 10);
    await q.idle();
    const log: string[] = [];
    const t = gated(log, 't');
    const done = q.push('A', t.start);
    let idle = false;
    const waiting = q.idle().then(() => (idle = true));
    await tick();
    expect(idle).to.equal(false);
    t.finish();
    await done;
    await waiting;
    expect(idle).to.equal(true);
  });
});
