import { expect } from 'chai';
import Keyv from 'keyv';
import { isDeepStrictEqual } from 'node:util';
import { deserializeStored } from '../../src/store/stored-json.js';

/** keyv's own writer and reader (@keyv/serialize), which the store's reader must agree with. */
const keyv = new Keyv();
const defaultSerialize = (value: { value: unknown; expires: number }) => keyv.serialize?.(value) as string;
const defaultDeserialize = (text: string) => keyv.deserialize?.(text);

describe("reading keyv's stored JSON", () => {
  it("gives what @keyv/serialize's own reader gives: Buffers, escaped colons, nested arrays, __proto__ keys", () => {
    const value = {
      value: {
        block: Buffer.from([0, 1, 2, 250, 255]),
        text: ':starts with a colon',
        plain: 'no colon',
        list: [':a', 'b', [Buffer.from('x'), null, 3.5, { deep: '::two' }]],
        nothing: null,
        number: -0,
      },
      expires: 123,
    };
    for (const text of [defaultSerialize(value), '{"__proto__":":x","a":[":b",{"__proto__":{"c":":base64:AAE="}}]}', '":lone"', '[]', '7']) {
      const mine = deserializeStored(text);
      expect(isDeepStrictEqual(mine, defaultDeserialize(text)), text).to.equal(true);
    }
    const proto = deserializeStored<Record<string, unknown>>('{"__proto__":":x"}');
    expect(Object.getPrototypeOf(proto)).to.equal(Object.prototype);
    expect(Object.hasOwn(proto, '__proto__')).to.equal(true);
  });
});
