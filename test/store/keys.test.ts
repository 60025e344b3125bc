import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { createClient } from '@keyv/redis';
import { KeySpecError, type NewKey } from '../../src/store/keys.js';
import { SQLITE_FILE } from '../../src/store/sqlite-store.js';
import { describeEachBackend, START_MS } from './backends.js';

const LAB: NewKey = { name: 'lab1', tier: 'pro', products: ['vt', 'substrate'] };

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describeEachBackend('API keys', (ctx) => {
  it('creates a cpet_ key that authenticates to its record', async () => {
    const store = await ctx.open();
    const { key, record } = await store.keys.create({ ...LAB, monthly_limit: 1000, allowed_models: ['gandalf'] });
    expect(key).to.match(/^cpet_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(key.slice(5, 21)).to.equal(record.id);
    expect(record).to.include({ name: 'lab1', tier: 'pro', monthly_limit: 1000, expires_at: null, revoked_at: null });
    expect(record.products).to.deep.equal(['vt', 'substrate']);
    expect(record.allowed_models).to.deep.equal(['gandalf']);
    expect(record.created_at).to.equal(new Date(START_MS).toISOString());
    const auth = await store.keys.authenticate(key);
    expect(auth.status).to.equal('ok');
    expect(auth.status === 'ok' && auth.record).to.deep.equal(record);
    expect(await store.keys.get(record.id)).to.deep.equal(record);
    expect(await store.keys.get('0000000000000000')).to.equal(null);
  });

  it('answers expired once the injected clock passes the expiry, and ok before', async () => {
    const store = await ctx.open();
    const { key } = await store.keys.create({ ...LAB, expires_at: '2027-01-15T09:00:00Z' });
    expect((await store.keys.authenticate(key)).status).to.equal('ok');
    ctx.clock.now_ms = Date.parse('2027-01-15T09:00:00Z');
    const auth = await store.keys.authenticate(key);
    expect(auth.status).to.equal('expired');
    expect(auth.status === 'expired' && auth.record.name).to.equal('lab1');
  });

  it('reads a bare expiry date as the end of that day in UTC', async () => {
    const store = await ctx.open();
    const { key, record } = await store.keys.create({ ...LAB, expires_at: '2027-01-15' });
    expect(record.expires_at).to.equal('2027-01-15T23:59:59.999Z');
    ctx.clock.now_ms = Date.parse('2027-01-15T23:59:59Z');
    expect((await store.keys.authenticate(key)).status).to.equal('ok');
    ctx.clock.now_ms = Date.parse('2027-01-16T00:00:00Z');
    expect((await store.keys.authenticate(key)).status).to.equal('expired');
  });

  it('treats a revoked key as invalid, by id or by name, and revokes nothing unknown', async () => {
    const store = await ctx.open();
    const a = await store.keys.create(LAB);
    const b = await store.keys.create({ ...LAB, name: 'lab2' });
    ctx.clock.now_ms = START_MS + 1000;
    const byId = await store.keys.revoke(a.record.id);
    expect(byId?.revoked_at).to.equal(new Date(START_MS + 1000).toISOString());
    expect((await store.keys.revoke('lab2'))?.id).to.equal(b.record.id);
    expect(await store.keys.authenticate(a.key)).to.deep.equal({ status: 'invalid' });
    expect(await store.keys.authenticate(b.key)).to.deep.equal({ status: 'invalid' });
    expect(await store.keys.revoke('nobody')).to.equal(null);
    expect(await store.keys.revoke('lab2')).to.equal(null);
    expect((await store.keys.revoke(a.record.id))?.revoked_at).to.equal(byId?.revoked_at);
  });

  it('lets a revoked name be reused by a new key', async () => {
    const store = await ctx.open();
    await store.keys.create(LAB);
    const error = await rejection(store.keys.create(LAB));
    expect(error).to.be.instanceOf(KeySpecError);
    expect(error.message).to.match(/active key named "lab1"/);
    await store.keys.revoke('lab1');
    await store.keys.create(LAB);
    expect(await store.keys.count()).to.equal(2);
  });

  it('refuses wrong secrets, unknown ids, prefix-less and malformed strings as invalid', async () => {
    const store = await ctx.open();
    const { key, record } = await store.keys.create(LAB);
    const secret = key.slice(22);
    const flipped = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    const presented = [
      flipped,
      `cpet_0123456789abcdef_${secret}`,
      key.slice(5),
      `${record.id}_${secret}`,
      secret,
      `CPET_${key.slice(5)}`,
      `${key} `,
      `${key}x`,
      '',
      'cpet_',
      'not a key at all',
      'x'.repeat(10_000),
    ];
    for (const p of presented) {
      expect(await store.keys.authenticate(p), JSON.stringify(p.slice(0, 40))).to.deep.equal({ status: 'invalid' });
    }
    expect(await store.keys.authenticate(undefined as unknown as string)).to.deep.equal({ status: 'invalid' });
  });

  it('refuses key specifications it cannot honour, saying what would work', async () => {
    const store = await ctx.open();
    const bad: Array<[Partial<NewKey>, RegExp]> = [
      [{ name: '' }, /name must be/],
      [{ name: 'has space' }, /name must be/],
      [{ tier: 'gold' as never }, /tier must be one of free, pro, research/],
      [{ products: [] }, /at least one of vt, eov, substrate/],
      [{ products: ['vt', 'ecg' as never] }, /unknown product\(s\) ecg/],
      [{ monthly_limit: 0 }, /monthly_limit must be a positive whole number/],
      [{ monthly_limit: 1.5 }, /monthly_limit/],
      [{ expires_at: 'next tuesday' }, /not a date/],
      [{ allowed_models: [] }, /allowed_models must name at least one model/],
      [{ allowed_models: ['ok', 'bad model'] }, /invalid model name\(s\): bad model/],
    ];
    for (const [change, message] of bad) {
      const error = await rejection(store.keys.create({ ...LAB, ...change }));
      expect(error, JSON.stringify(change)).to.be.instanceOf(KeySpecError);
      expect(error.message).to.match(message);
    }
    expect(await store.keys.count()).to.equal(0);
  });

  it('lists every key oldest first, revoked ones included', async () => {
    const store = await ctx.open();
    await store.keys.create({ ...LAB, name: 'first' });
    ctx.clock.now_ms += 1000;
    await store.keys.create({ ...LAB, name: 'second', products: ['eov', 'vt', 'vt'] });
    await store.keys.revoke('first');
    const list = await store.keys.list();
    expect(list.map((r) => r.name)).to.deep.equal(['first', 'second']);
    expect(list[0].revoked_at).to.not.equal(null);
    expect(list[1].products).to.deep.equal(['vt', 'eov']);
    expect(await store.keys.count()).to.equal(2);
  });

  it('stores only the SHA-256 of a key, never the key or its secret', async () => {
    const store = await ctx.open();
    const { key, record } = await store.keys.create(LAB);
    const secret = key.slice(22);
    expect(record.hash).to.match(/^[0-9a-f]{64}$/);
    await store.close();
    let raw: string;
    if (ctx.name === 'sqlite') {
      // The hash may still sit in the write-ahead log if the last checkpoint has not run.
      const files = [SQLITE_FILE, `${SQLITE_FILE}-wal`].map((f) => path.join(ctx.dataDir, f));
      raw = (await Promise.all(files.map((f) => readFile(f).catch(() => Buffer.alloc(0))))).map((b) => b.toString('latin1')).join('\n');
    } else {
      const client = createClient({ url: process.env.REDIS_URL });
      await client.connect();
      const entries: string[] = [];
      for await (const keys of client.scanIterator({ MATCH: `${ctx.namespace}:*` })) {
        for (const k of keys) entries.push(k, String(await client.get(k)));
      }
      await client.close();
      raw = entries.join('\n');
    }
    expect(raw).to.include(record.hash);
    expect(raw).to.include(record.id);
    expect(raw).to.not.include(secret);
    expect(raw).to.not.include(key);
  });
});
