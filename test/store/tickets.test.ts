import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { mintTicket, TICKET_TTL_MS, verifyTicket } from '../../src/store/tickets.js';

const SECRET = randomBytes(32);
const NOW = Date.UTC(2027, 0, 15, 8);

function reencode(token: string, change: (payload: Record<string, unknown>) => void): string {
  const [segment, signature] = token.split('.');
  const payload = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as Record<string, unknown>;
  change(payload);
  return `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
}

describe('upload tickets', () => {
  it('verifies a fresh ticket and returns what it binds', () => {
    const { token, payload } = mintTicket({ kid: 'abc123', rh: 48, fn: 'test.xlsx' }, SECRET, NOW);
    expect(payload).to.include({ kid: 'abc123', rh: 48, fn: 'test.xlsx', exp: NOW + TICKET_TTL_MS });
    expect(payload.tid).to.match(/^[A-Za-z0-9_-]{22}$/);
    expect(token).to.match(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyTicket(token, SECRET, NOW)).to.deep.equal({ ok: true, payload });
    expect(verifyTicket(token, SECRET, NOW + TICKET_TTL_MS - 1).ok).to.equal(true);
  });

  it('gives every ticket its own id', () => {
    const ids = new Set(Array.from({ length: 200 }, () => mintTicket({ kid: 'k', rh: null, fn: null }, SECRET, NOW).payload.tid));
    expect(ids.size).to.equal(200);
  });

  it('answers expired from the moment its five minutes are up', () => {
    const { token } = mintTicket({ kid: 'k', rh: null, fn: null }, SECRET, NOW);
    expect(verifyTicket(token, SECRET, NOW + TICKET_TTL_MS)).to.deep.equal({ ok: false, reason: 'expired' });
    const short = mintTicket({ kid: 'k', rh: null, fn: null }, SECRET, NOW, 1000).token;
    expect(verifyTicket(short, SECRET, NOW + 1000)).to.deep.equal({ ok: false, reason: 'expired' });
  });

  it('answers forged when the payload, the signature or the secret differ', () => {
    const { token } = mintTicket({ kid: 'keyA', rh: null, fn: null }, SECRET, NOW);
    const [segment, signature] = token.split('.');
    const otherKey = reencode(token, (p) => (p.kid = 'keyB'));
    const longer = reencode(token, (p) => (p.exp = NOW + 10 * TICKET_TTL_MS));
    const flippedSignature = Buffer.from(signature, 'base64url');
    flippedSignature[0] ^= 1;
    const otherSignature = mintTicket({ kid: 'keyA', rh: null, fn: null }, SECRET, NOW).token.split('.')[1];
    for (const forged of [otherKey, longer, `${segment}.${flippedSignature.toString('base64url')}`, `${segment}.${otherSignature}`]) {
      expect(verifyTicket(forged, SECRET, NOW)).to.deep.equal({ ok: false, reason: 'forged' });
    }
    expect(verifyTicket(token, randomBytes(32), NOW)).to.deep.equal({ ok: false, reason: 'forged' });
  });

  it('answers malformed for garbage, empty strings and the wrong number of segments', () => {
    const { token } = mintTicket({ kid: 'k', rh: 24, fn: null }, SECRET, NOW);
    const [segment, signature] = token.split('.');
    const malformed = [
      '',
      'garbage',
      'a.b',
      `${segment}`,
      `${segment}.${signature}.extra`,
      `.${signature}`,
      `${segment}.`,
      `${segment}.${signature.slice(0, -2)}`,
      `${segment}!.${signature}`,
      `${segment}.${signature}=`,
      'x'.repeat(5000),
    ];
    for (const m of malformed) {
      expect(verifyTicket(m, SECRET, NOW), JSON.stringify(m.slice(0, 30))).to.deep.equal({ ok: false, reason: 'malformed' });
    }
    expect(verifyTicket(undefined as unknown as string, SECRET, NOW)).to.deep.equal({ ok: false, reason: 'malformed' });
  });

  it('answers malformed for a correctly signed payload of the wrong shape', async () => {
    const { createHmac } = await import('node:crypto');
    const signed = (payload: unknown): string => {
      const segment = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return `${segment}.${createHmac('sha256', SECRET).update(segment).digest('base64url')}`;
    };
    const good = { tid: 't', kid: 'k', exp: NOW + 1000, rh: null, fn: null };
    expect(verifyTicket(signed(good), SECRET, NOW).ok).to.equal(true);
    for (const bad of [[], 'text', { ...good, exp: 'soon' }, { ...good, rh: 1.5 }, { ...good, extra: 1 }, { ...good, kid: '' }]) {
      expect(verifyTicket(signed(bad), SECRET, NOW), JSON.stringify(bad)).to.deep.equal({ ok: false, reason: 'malformed' });
    }
  });

  it('refuses to mint a ticket with an impossible payload', () => {
    expect(() => mintTicket({ kid: '', rh: null, fn: null }, SECRET, NOW)).to.throw(TypeError, /kid/);
    expect(() => mintTicket({ kid: 'k', rh: 0, fn: null }, SECRET, NOW)).to.throw(TypeError, /rh/);
    expect(() => mintTicket({ kid: 'k', rh: null, fn: 'x'.repeat(256) }, SECRET, NOW)).to.throw(TypeError, /fn/);
    expect(() => mintTicket({ kid: 'k', rh: null, fn: null }, SECRET, NOW, 0)).to.throw(TypeError, /ttl/);
  });
});
