import { expect } from 'chai';
import { chmod, stat } from 'node:fs/promises';
import { describeEachBackend, START_MS } from './backends.js';

const HOUR_MS = 3_600_000;

describeEachBackend('store', (ctx) => {
  describe('DATA_DIR', () => {
    it('narrows a pre-created 0755 data directory to 0700', async () => {
      await chmod(ctx.dataDir, 0o755);
      await ctx.open();
      expect((await stat(ctx.dataDir)).mode & 0o777).to.equal(0o700);
    });
  });

  describe('records', () => {
    it('returns a record to the key that stored it and nothing to any other key', async () => {
      const store = await ctx.open();
      await store.putRecord('keyA', 'cpet1', { hello: 'A' }, START_MS + 24 * HOUR_MS);
      expect(await store.getRecord('keyA', 'cpet1')).to.deep.equal({ hello: 'A' });
      expect(await store.getRecord('keyB', 'cpet1')).to.equal(undefined);
      expect(await store.deleteRecord('keyB', 'cpet1')).to.equal(false);
      expect(await store.getRecord('keyA', 'cpet1')).to.deep.equal({ hello: 'A' });
    });

    it('cannot be reached by ids that would forge the separator between key and record', async () => {
      const store = await ctx.open();
      await store.putRecord('a/b', 'c', 1, START_MS + HOUR_MS);
      expect(await store.getRecord('a', 'b/c')).to.equal(undefined);
      expect(await store.getRecord('a/b', 'c')).to.equal(1);
    });

    it('forgets a record once the injected clock reaches its expiry', async () => {
      const store = await ctx.open();
      await store.putRecord('keyA', 'cpet1', { n: 1 }, START_MS + 24 * HOUR_MS);
      ctx.clock.now_ms = START_MS + 24 * HOUR_MS - 1;
      expect(await store.getRecord('keyA', 'cpet1')).to.deep.equal({ n: 1 });
      ctx.clock.now_ms = START_MS + 24 * HOUR_MS;
      expect(await store.getRecord('keyA', 'cpet1')).to.equal(undefined);
    });

    it('deletes a record and says whether there was one', async () => {
      const store = await ctx.open();
      await store.putRecord('keyA', 'cpet1', [1, 2], START_MS + HOUR_MS);
      expect(await store.deleteRecord('keyA', 'cpet1')).to.equal(true);
      expect(await store.getRecord('keyA', 'cpet1')).to.equal(undefined);
      expect(await store.deleteRecord('keyA', 'cpet1')).to.equal(false);
    });

    it('round-trips a recording-sized record of 20,000 samples on 13 channels', async () => {
      const store = await ctx.open();
      const channels = Object.fromEntries(Array.from({ length: 13 }, (_, c) => [`ch${c}`, Array.from({ length: 20_000 }, (_, i) => (i % 7 === 0 ? null : i * 0.123 + c))]));
      await store.putRecord('keyA', 'big', channels, START_MS + HOUR_MS);
      expect(await store.getRecord('keyA', 'big')).to.deep.equal(channels);
    });

    it('keeps records and keys across a close and a reopen on the same data', async () => {
      const first = await ctx.open();
      await first.putRecord('keyA', 'cpet1', { kept: true }, START_MS + 48 * HOUR_MS);
      const { key } = await first.keys.create({ name: 'lab', tier: 'pro', products: ['vt'] });
      await first.close();
      const second = await ctx.open();
      expect(await second.getRecord('keyA', 'cpet1')).to.deep.equal({ kept: true });
      expect((await second.keys.authenticate(key)).status).to.equal('ok');
    });
  });

  describe('web sessions', () => {
    it('returns a session until the injected clock reaches its expiry', async () => {
      const store = await ctx.open();
      await store.putSession('s1', { key_id: 'k' }, START_MS + HOUR_MS);
      ctx.clock.now_ms = START_MS + HOUR_MS - 1;
      expect(await store.getSession('s1')).to.deep.equal({ key_id: 'k' });
      ctx.clock.now_ms = START_MS + HOUR_MS;
      expect(await store.getSession('s1')).to.equal(undefined);
    });

    it('ends a session and says whether there was one', async () => {
      const store = await ctx.open();
      await store.putSession('s1', { key_id: 'k' }, START_MS + HOUR_MS);
      expect(await store.deleteSession('s1')).to.equal(true);
      expect(await store.getSession('s1')).to.equal(undefined);
      expect(await store.deleteSession('s1')).to.equal(false);
    });

    it('keeps sessions apart from records of the same name and across a restart', async () => {
      const first = await ctx.open();
      await first.putSession('x', { session: true }, START_MS + HOUR_MS);
      await first.putRecord('x', 'y', { record: true }, START_MS + HOUR_MS);
      await first.close();
      const second = await ctx.open();
      expect(await second.getSession('x')).to.deep.equal({ session: true });
      expect(await second.getSession('x/y')).to.equal(undefined);
    });
  });

  describe('consumeOnce', () => {
    it('grants exactly one of 50 concurrent claims on one id', async () => {
      const store = await ctx.open();
      const results = await Promise.all(Array.from({ length: 50 }, () => store.consumeOnce('ticket:abc', 300_000)));
      expect(results.filter((r) => r)).to.have.length(1);
      expect(await store.consumeOnce('ticket:abc', 300_000)).to.equal(false);
      expect(await store.consumeOnce('ticket:other', 300_000)).to.equal(true);
    });

    it('remembers a claim across a restart', async () => {
      const first = await ctx.open();
      expect(await first.consumeOnce('ticket:x', 300_000)).to.equal(true);
      await first.close();
      const second = await ctx.open();
      expect(await second.consumeOnce('ticket:x', 300_000)).to.equal(false);
    });
  });

  describe('counters', () => {
    it('counts 100 concurrent increments exactly', async () => {
      const store = await ctx.open();
      const values = await Promise.all(Array.from({ length: 100 }, () => store.incrementCounter('quota:k:2027-01', 1, HOUR_MS)));
      expect([...values].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 100 }, (_, i) => i + 1));
      expect(await store.getCounter('quota:k:2027-01')).to.equal(100);
      expect(await store.incrementCounter('quota:k:2027-01', 5, HOUR_MS)).to.equal(105);
    });

    it('reads an absent counter as zero', async () => {
      const store = await ctx.open();
      expect(await store.getCounter('never')).to.equal(0);
    });

    it('starts a counter again once the TTL set at its creation has run out', async () => {
      const store = await ctx.open();
      expect(await store.incrementCounter('rate:k', 1, 40)).to.equal(1);
      // A later increment must not extend the window.
      expect(await store.incrementCounter('rate:k', 1, 60_000)).to.equal(2);
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(await store.getCounter('rate:k')).to.equal(0);
      expect(await store.incrementCounter('rate:k', 1, 40)).to.equal(1);
    });
  });

  describe('counter holds', () => {
    it('counts holds against the limit, bills only what settles, and gives back what is released', async () => {
      const store = await ctx.open();
      expect(await store.holdCounter('usage:k', 'a', 2, 3, HOUR_MS)).to.deep.equal({ held: true, total: 0 });
      expect(await store.holdCounter('usage:k', 'b', 1, 3, HOUR_MS)).to.deep.equal({ held: true, total: 2 });
      expect(await store.holdCounter('usage:k', 'c', 1, 3, HOUR_MS)).to.deep.equal({ held: false, total: 3 });
      expect(await store.getCounter('usage:k'), 'held units are not billed').to.equal(0);
      await store.settleHold('usage:k', 'a', 1, HOUR_MS);
      await store.releaseHold('usage:k', 'b');
      expect(await store.getCounter('usage:k')).to.equal(1);
      expect(await store.holdCounter('usage:k', 'd', 1, 3, HOUR_MS)).to.deep.equal({ held: true, total: 1 });
    });

    it('lets a hold nobody settles lapse after its TTL', async () => {
      const store = await ctx.open();
      expect((await store.holdCounter('usage:k', 'a', 5, 5, 40)).held).to.equal(true);
      expect((await store.holdCounter('usage:k', 'b', 1, 5, HOUR_MS)).held).to.equal(false);
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(await store.holdCounter('usage:k', 'c', 1, 5, HOUR_MS)).to.deep.equal({ held: true, total: 0 });
      expect(await store.getCounter('usage:k')).to.equal(0);
    });
  });

  describe('sharedSecret', () => {
    let saved: string | undefined;
    beforeEach(() => {
      saved = process.env.TICKET_SECRET;
      delete process.env.TICKET_SECRET;
    });
    afterEach(() => {
      if (saved === undefined) delete process.env.TICKET_SECRET;
      else process.env.TICKET_SECRET = saved;
    });

    it('creates one 32-byte secret per name and returns it after a restart', async () => {
      const first = await ctx.open();
      const secrets = await Promise.all(Array.from({ length: 10 }, () => first.sharedSecret('ticket')));
      expect(secrets[0]).to.have.length(32);
      for (const s of secrets) expect(s.equals(secrets[0])).to.equal(true);
      expect((await first.sharedSecret('other')).equals(secrets[0])).to.equal(false);
      await first.close();
      const second = await ctx.open();
      expect((await second.sharedSecret('ticket')).equals(secrets[0])).to.equal(true);
    });

    it('derives the secret from TICKET_SECRET when it is set, distinct per name', async () => {
      const store = await ctx.open();
      const stored = await store.sharedSecret('ticket');
      process.env.TICKET_SECRET = 'x'.repeat(40);
      const derived = await store.sharedSecret('ticket');
      expect(derived.equals(stored)).to.equal(false);
      expect(derived.equals(await store.sharedSecret('ticket'))).to.equal(true);
      expect(derived.equals(await store.sharedSecret('other'))).to.equal(false);
    });

    it('refuses a TICKET_SECRET shorter than 32 characters', async () => {
      const store = await ctx.open();
      process.env.TICKET_SECRET = 'short';
      let error: unknown;
      try {
        await store.sharedSecret('ticket');
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(Error);
      expect((error as Error).message).to.match(/TICKET_SECRET must be at least 32/);
    });
  });
});
