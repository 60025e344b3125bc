import { expect } from 'chai';
import { decideUnit } from '../../../src/formats/table/unit-decision.js';
import type { ParserFlag } from '../../../src/recording/recording.js';

function decide(name: Parameters<typeof decideUnit>[0], row: string | null, header: string | null, values: (number | null)[] = [], vendor?: { unit: string; reason: string }) {
  const flags: ParserFlag[] = [];
  return { decision: decideUnit(name, name, { row, header, vendor }, values, flags), codes: flags.map((f) => f.code) };
}

describe('src/formats/table/unit-decision.ts', () => {
  it('takes the units row first, then the header, then the vendor convention, then the values', () => {
    expect(decide('VO2', 'L/min', 'mL/min', [2.1]).decision).to.deep.equal({ factor: 1000, unit_in: 'L/min', source: 'units row' });
    expect(decide('VO2', null, 'mL/min', [2100]).decision).to.deep.equal({ factor: 1, unit_in: 'mL/min', source: 'header' });
    const vendor = decide('Speed', null, null, [8], { unit: 'mph', reason: 'a US cart' });
    expect(vendor.decision).to.include({ unit_in: 'mph', source: 'vendor' });
    expect(vendor.codes).to.deep.equal(['unit_assumed']);
    const values = decide('VO2', null, null, [0.4, 2.3]);
    expect(values.decision).to.deep.equal({ factor: 1000, unit_in: 'L/min', source: 'values' });
    expect(values.codes).to.deep.equal(['unit_inferred']);
  });

  it("converts every spelling of a channel's units: L(btps), (mL), Kpa, Kmh*10, m/s, b/min", () => {
    expect(decide('VT', 'L(btps)', null).decision).to.include({ factor: 1 });
    expect(decide('VT', '(mL)', null).decision).to.include({ factor: 0.001 });
    expect(decide('VE', 'mL/min', null).decision).to.include({ factor: 0.001 });
    expect(decide('PetCO2', 'Kpa', null).decision).to.include({ factor: 7.50062 });
    expect(decide('Speed', 'Kmh*10', null).decision).to.include({ factor: 0.1 });
    expect(decide('Speed', 'm/s', null).decision).to.include({ factor: 3.6 });
    expect(decide('RF', 'b/min', null).decision).to.include({ factor: 1 });
  });

  it('never reads a column whose stated unit measures something else', () => {
    expect(decide('Load', 'kcal', null).decision)
      .to.have.property('reject')
      .that.matches(/not watts/);
    expect(decide('RF', 'mS', null).decision)
      .to.have.property('reject')
      .that.matches(/not a rate per minute/);
    expect(decide('PetO2', '%', null).decision)
      .to.have.property('reject')
      .that.matches(/not a pressure/);
  });

  it('gives the only unit in use when none is stated, and flags an unrecognised one', () => {
    expect(decide('HR', null, null, [80]).decision).to.deep.equal({ factor: 1, unit_in: 'beats/min', source: 'canonical' });
    const unknown = decide('HR', 'Schläge pro Minute', null, [80]);
    expect(unknown.decision).to.include({ source: 'assumed' });
    expect(unknown.codes).to.deep.equal(['unit_assumed']);
    expect(decide('VT', null, null, [833, 3540]).decision).to.include({ factor: 0.001, unit_in: 'mL' });
    expect(decide('Speed', null, null, [8]).codes).to.deep.equal(['unit_assumed']);
  });
});
