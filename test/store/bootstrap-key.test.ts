import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { ensureLocalKey, LOCAL_KEY_FILE } from '../../src/store/bootstrap-key.js';
import { describeEachBackend } from './backends.js';

describeEachBackend('local bootstrap key', (ctx) => {
  it('creates one research key with every product on first start, in a 0600 file', async () => {
    const store = await ctx.open();
    const key = await ensureLocalKey(store, ctx.dataDir);
    expect(key).to.be.a('string');
    const file = path.join(ctx.dataDir, LOCAL_KEY_FILE);
    expect((await readFile(file, 'utf8')).trim()).to.equal(key);
    expect((await stat(file)).mode & 0o777).to.equal(0o600);
    const auth = await store.keys.authenticate(key as string);
    expect(auth.status).to.equal('ok');
    expect(auth.status === 'ok' && auth.record).to.include({ name: 'local', tier: 'research' });
    expect(auth.status === 'ok' && auth.record.products).to.deep.equal(['vt', 'eov', 'substrate']);
  });

  it('creates it only once, across restarts and concurrent starts', async () => {
    const first = await ctx.open();
    const results = await Promise.all([ensureLocalKey(first, ctx.dataDir), ensureLocalKey(first, ctx.dataDir)]);
    expect(results.filter((k) => k !== null)).to.have.length(1);
    const written = await readFile(path.join(ctx.dataDir, LOCAL_KEY_FILE), 'utf8');
    await first.close();
    const second = await ctx.open();
    expect(await ensureLocalKey(second, ctx.dataDir)).to.equal(null);
    expect(await readFile(path.join(ctx.dataDir, LOCAL_KEY_FILE), 'utf8')).to.equal(written);
    expect(await second.keys.count()).to.equal(1);
  });

  it('creates nothing when the operator already made a key, even a revoked one', async () => {
    const store = await ctx.open();
    await store.keys.create({ name: 'lab', tier: 'free', products: ['vt'] });
    await store.keys.revoke('lab');
    expect(await ensureLocalKey(store, ctx.dataDir)).to.equal(null);
    expect(await store.keys.count()).to.equal(1);
  });
});
