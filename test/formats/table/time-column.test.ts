import { expect } from 'chai';
import type { ServiceError } from '../../../src/errors.js';
import { readTimeColumn } from '../../../src/formats/table/time-column.js';
import type { ParserFlag } from '../../../src/recording/recording.js';

function times(cells: unknown[], unit: string | null = null, header = 'time'): { t: (number | null)[]; codes: string[] } {
  const flags: ParserFlag[] = [];
  const t = readTimeColumn({ cells, header, unit_row: unit, unit_header: null, where: (k) => ({ line: k + 2 }) }, flags, { comma: false });
  return { t, codes: flags.map((f) => f.code) };
}

describe('src/formats/table/time-column.ts', () => {
  it('reads m:ss, h:mm:ss, negative m:ss and tenths after a decimal comma', () => {
    expect(times(['0:13', '0:16', '16:38']).t).to.deep.equal([13, 16, 998]);
    expect(times(['00:00:02', '1:02:03']).t).to.deep.equal([2, 3723]);
    expect(times(['-0:41', '-0:38', '0:00']).t).to.deep.equal([-41, -38, 0]);
    const comma = times(['00:00:04,8', '00:00:07,9']);
    expect(comma.t[0]).to.be.closeTo(4.8, 1e-12);
    expect(comma.codes).to.deep.equal(['time_decimal_comma']);
  });

  it('reads plain numbers by the stated unit: seconds, minutes, hours, milliseconds', () => {
    expect(times([0.5, 1], 'min').t).to.deep.equal([30, 60]);
    expect(times(['30', '40'], 's').t).to.deep.equal([30, 40]);
    expect(times([1, 2], 'h').t).to.deep.equal([3600, 7200]);
    expect(times([1500, 3000], 'ms').t).to.deep.equal([1.5, 3]);
  });

  it('reads Excel times (fractions of a day) whatever the unit cell says, with a flag', () => {
    const r = times([30 / 86400, 40 / 86400], 's', 't');
    expect(r.t).to.deep.equal([30, 40]);
    expect(r.codes).to.deep.equal(['time_excel_day_fraction']);
  });

  it('reads an m:ss typed into Excel and stored as h:mm (whole-minute steps over more than 3 h) as minutes and seconds', () => {
    const r = times([13 / 1440, 16 / 1440, 18 / 1440, 998 / 1440]);
    expect(r.t).to.deep.equal([13, 16, 18, 998]);
    expect(r.codes).to.deep.equal(['time_h_mm_read_as_m_ss']);
  });

  it('reads unitless numbers as seconds, or as decimal minutes when rows would be under half a second apart', () => {
    const seconds = times(['5', '6', '7']);
    expect(seconds.t).to.deep.equal([5, 6, 7]);
    expect(seconds.codes).to.deep.equal(['time_unit_assumed']);
    const minutes = times(['0.2', '0.25', '0.3', '12.5']);
    expect(minutes.t.map((t) => Math.round((t as number) * 1e6) / 1e6)).to.deep.equal([12, 15, 18, 750]);
    expect(minutes.codes).to.deep.equal(['time_unit_inferred']);
  });

  it('keeps a row without a readable time as null, and refuses a column most of whose cells are not times, saying where', () => {
    expect(times(['0:10', 'x', '0:20', '0:30']).t).to.deep.equal([10, null, 20, 30]);
    try {
      times(['0:10', '(min)', 'Ruhe', 'n.a.x']);
      expect.fail('accepted');
    } catch (err) {
      expect((err as ServiceError).code).to.equal('PARSER_ERROR');
      expect((err as ServiceError).message).to.match(/"\(min\)" is not a time/);
      expect((err as ServiceError).context.where).to.deep.equal({ line: 3 });
    }
  });
});
