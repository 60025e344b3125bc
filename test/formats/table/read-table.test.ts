import { expect } from 'chai';
import type { ServiceError } from '../../../src/errors.js';
import { splitLines } from '../../../src/formats/table/delimited-text.js';
import { locateTable } from '../../../src/formats/table/locate.js';
import { readTable, type TableRead } from '../../../src/formats/table/read-table.js';

/** Reads CSV lines through the layer as a text export would be read. */
function read(lines: string[], ends_with_line_break = true, barometric_mmhg?: number): TableRead {
  const { rows, lines: starts } = splitLines(lines, ',');
  const layout = locateTable(rows);
  if (!layout) throw new Error('no table');
  return readTable({ rows, where: (r) => ({ line: starts[r] }), ends_with_line_break }, layout, { barometric_mmhg });
}

const codes = (t: TableRead) => t.flags.map((f) => f.code);

describe('src/formats/table/read-table.ts', () => {
  it('finds the header under other lines, reads its units row, and stops at the first blank row', () => {
    const t = read(['Lab report', 'subject,12', 't,VO2,VCO2,VE', 's,L/min,L/min,L/min', '0,0.3,0.25,10', '10,0.4,0.33,12', '', 'Summary,1']);
    expect(t.time_s).to.deep.equal([0, 10]);
    expect(t.channels.VO2?.values).to.deep.equal([300, 400]);
    expect(t.channels.VE?.unit_in).to.equal('L/min');
  });

  it('names the columns it does not know in a flag, and counts cells that are not numbers as missing', () => {
    const t = read(['time,VO2,VCO2,VE,mystery', '0:10,300,250,10,1', '0:13,oops,255,11,2', '0:16,320,260,x,3']);
    expect(t.channels.VO2?.values).to.deep.equal([300, null, 320]);
    expect(t.flags.find((f) => f.code === 'columns_unknown')?.detail).to.match(/mystery/);
    expect(t.flags.find((f) => f.code === 'values_unreadable')?.detail).to.match(/VO2 \(1, first "oops" at line 3\); VE \(1, first "x" at line 4\)/);
  });

  it('takes the BTPS one of two VE columns, and the absolute one of two VO2 columns by magnitude', () => {
    const t = read(['time,VE STPD,VE BTPS,VO2,VO2,VCO2', '0:10,9,11,13.2,985,766', '0:13,9.5,11.6,11.1,830,662']);
    expect(t.channels.VE?.values).to.deep.equal([11, 11.6]);
    expect(t.channels.VO2?.values).to.deep.equal([985, 830]);
    expect(t.vo2_per_kg).to.deep.equal([13.2, 11.1]);
    expect(codes(t)).to.include('two_vo2_columns');
  });

  it('reads an end-tidal fraction as a pressure only when there is no end-tidal pressure, with the file barometric pressure', () => {
    const t = read(['time,VO2,VCO2,FetO2,FetCO2,PetCO2', '0:10,300,250,15,5.2,38', '0:13,310,255,16,5.1,37'], true, 715);
    expect(t.channels.PetO2?.values[0]).to.be.closeTo(0.15 * (715 - 47), 1e-9);
    expect(t.channels.PetCO2?.values).to.deep.equal([38, 37]);
    expect(t.flags.find((f) => f.code === 'end_tidal_from_fraction')?.detail).to.match(/barometric pressure 715 mmHg/);
    expect(t.columns.find((c) => c.header === 'FetCO2')?.note).to.match(/PetCO2 is read from PetCO2/);
  });

  it('reads a weak name only when its unit says what it is', () => {
    const t = read(['t,P,v,VO2,VCO2', 's,W,kcal,mL/min,mL/min', '0,50,1,300,250', '5,55,2,310,255']);
    expect(t.channels.Load?.values).to.deep.equal([50, 55]);
    expect(t.channels.Speed).to.equal(undefined);
  });

  it('drops a cut last row of a text that ends without a line break, with a flag', () => {
    const t = read(['time,VO2,VCO2,VE', '0:10,300,250,10', '0:13,310,255,11', '0:16,32'], false);
    expect(t.time_s).to.deep.equal([10, 13]);
    expect(codes(t)).to.include('truncated_row_dropped');
  });

  it('refuses a table with a header but no data row', () => {
    try {
      read(['time,VO2,VCO2,VE', 's,mL/min,mL/min,L/min']);
      expect.fail('accepted');
    } catch (err) {
      expect((err as ServiceError).code).to.equal('PARSER_ERROR');
    }
  });
});
