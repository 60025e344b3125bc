import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TensorBundle } from '../../../scripts/oxynet/checkpoint/bundle.js';
import { crc32c, maskCrc } from '../../../scripts/oxynet/checkpoint/crc32c.js';
import { layerVariables, OBJECT_GRAPH_KEY } from '../../../scripts/oxynet/checkpoint/object-graph.js';
import { readSSTable } from '../../../scripts/oxynet/checkpoint/sstable.js';
import { PROJECT_ROOT } from '../../../src/plugins.js';

const INPUT = join(PROJECT_ROOT, 'scripts/oxynet/input');
const index = () => readFileSync(join(INPUT, 'variables.index'));
const data = () => readFileSync(join(INPUT, 'variables.data-00000-of-00001'));

/** The checkpoint table that came with the weights (the pyoxynet models README): variable i, name, shape, byte offset. */
const README_TABLE: [string, number[], number][] = [
  ['conv1d/kernel', [6, 5, 64], 0],
  ['conv1d/bias', [64], 7680],
  ['batch_normalization/gamma', [64], 7936],
  ['batch_normalization/beta', [64], 8192],
  ['batch_normalization/moving_mean', [64], 8448],
  ['batch_normalization/moving_variance', [64], 8704],
  ['conv1d_1/kernel', [6, 64, 64], 8960],
  ['conv1d_1/bias', [64], 107264],
  ['batch_normalization_1/gamma', [64], 107520],
  ['batch_normalization_1/beta', [64], 107776],
  ['batch_normalization_1/moving_mean', [64], 108032],
  ['batch_normalization_1/moving_variance', [64], 108288],
  ['dense/kernel', [640, 64], 108544],
  ['dense/bias', [64], 272384],
  ['batch_normalization_2/gamma', [64], 272640],
  ['batch_normalization_2/beta', [64], 272896],
  ['batch_normalization_2/moving_mean', [64], 273152],
  ['batch_normalization_2/moving_variance', [64], 273408],
  ['dense_1/kernel', [64, 32], 273664],
  ['dense_1/bias', [32], 281856],
  ['batch_normalization_3/gamma', [32], 281984],
  ['batch_normalization_3/beta', [32], 282112],
  ['batch_normalization_3/moving_mean', [32], 282240],
  ['batch_normalization_3/moving_variance', [32], 282368],
  ['dense_2/kernel', [32, 16], 282496],
  ['dense_2/bias', [16], 284544],
  ['batch_normalization_4/gamma', [16], 284608],
  ['batch_normalization_4/beta', [16], 284672],
  ['batch_normalization_4/moving_mean', [16], 284736],
  ['batch_normalization_4/moving_variance', [16], 284800],
  ['dense_3/kernel', [16, 3], 284864],
  ['dense_3/bias', [3], 285056],
];
const LAYERS = ['conv1', 'bn1', 'conv2', 'bn2', 'd1', 'bn3', 'd2', 'bn4', 'd3', 'bn5', 'd4'];

describe('the TF checkpoint reader', () => {
  it('computes CRC-32C and its LevelDB mask as published (check value of "123456789" is e3069283)', () => {
    expect(crc32c(Buffer.from('123456789')).toString(16)).to.equal('e3069283');
    expect(crc32c(Buffer.from('56789'), crc32c(Buffer.from('1234')))).to.equal(0xe3069283);
    expect(maskCrc(0)).to.equal(0xa282ead8);
  });

  it('reads the SSTable index: the bundle header, the object graph and 32 variables, in key order', () => {
    const keys = readSSTable(index()).map((e) => e.key);
    expect(keys).to.have.length(34);
    expect(keys.slice(0, 4)).to.deep.equal(['', OBJECT_GRAPH_KEY, 'variables/0/.ATTRIBUTES/VARIABLE_VALUE', 'variables/1/.ATTRIBUTES/VARIABLE_VALUE']);
    expect(keys[4]).to.equal('variables/10/.ATTRIBUTES/VARIABLE_VALUE');
  });

  it('verifies every tensor against its masked crc32c, the object graph (a string tensor) included', () => {
    const bundle = new TensorBundle(index(), data());
    expect(bundle.entries).to.have.length(33);
    expect(bundle.entries.every((e) => e.crc_ok)).to.equal(true);
    const floats = bundle.entries.filter((e) => e.key !== OBJECT_GRAPH_KEY);
    expect(floats.reduce((a, e) => a + e.size, 0)).to.equal(285068);
  });

  it('names every variable from the object graph exactly as the README table does', () => {
    const bundle = new TensorBundle(index(), data());
    const vars = layerVariables(bundle.scalarString(OBJECT_GRAPH_KEY), LAYERS);
    expect(vars).to.have.length(32);
    README_TABLE.forEach(([name, shape, offset], i) => {
      const key = `variables/${i}/.ATTRIBUTES/VARIABLE_VALUE`;
      const v = vars.find((x) => x.checkpoint_key === key)!;
      expect(v.full_name, key).to.equal(`model/${name}`);
      expect(bundle.entry(key).shape, key).to.deep.equal(shape);
      expect(bundle.entry(key).offset, key).to.equal(offset);
    });
  });

  it('flags a tensor whose bytes changed and refuses to hand out its values', () => {
    const bytes = data();
    bytes[8000] ^= 0x01; // inside batch_normalization/gamma (7936..8191)
    const bundle = new TensorBundle(index(), bytes);
    expect(bundle.entries.filter((e) => !e.crc_ok).map((e) => e.key)).to.deep.equal(['variables/2/.ATTRIBUTES/VARIABLE_VALUE']);
    expect(() => bundle.floats('variables/2/.ATTRIBUTES/VARIABLE_VALUE')).to.throw(/crc32c/);
    expect(bundle.floats('variables/3/.ATTRIBUTES/VARIABLE_VALUE')).to.have.length(64);
  });

  it('refuses an index whose block checksum or magic is wrong', () => {
    const block = index();
    block[100] ^= 0x01;
    expect(() => readSSTable(block)).to.throw(/crc32c/);
    const magic = index();
    magic[magic.length - 1] ^= 0x01;
    expect(() => readSSTable(magic)).to.throw(/not an SSTable/);
  });
});
