import { expect } from 'chai';
import { ServiceError } from '../../src/errors.js';
import { buildRecording, median, type RawColumns } from '../../src/recording/build.js';
import {
  decimalMinutesToSeconds,
  excelDayFractionToSeconds,
  gasFlowFactorToMl,
  inferGasFlowFactor,
  inferPressureFactor,
  isPlaceholder,
  kpaToMmhg,
  lToMl,
  MMHG_PER_KPA,
  normaliseUnit,
  parseClock,
  parseNumber,
  pressureFactorToMmhg,
  scale,
  scanNumber,
} from '../../src/recording/units.js';

/** A raw table with one VO2 column; `extra` overrides any field. */
function raw(time_s: (number | null)[], extra: Partial<RawColumns> = {}): RawColumns {
  return { format: 'test', time_s, channels: { VO2: { values: time_s.map((_, i) => 1000 + i), unit_in: 'mL/min' } }, ...extra };
}

function codes(rec: { flags: { code: string }[] }): string[] {
  return rec.flags.map((f) => f.code);
}

describe('src/recording/units.ts', () => {
  describe('conversions', () => {
    it('converts kPa to mmHg with 7.50062 and litres to millilitres', () => {
      expect(MMHG_PER_KPA).to.equal(7.50062);
      expect(kpaToMmhg(5)).to.be.closeTo(37.5031, 1e-9);
      expect(lToMl(2.345)).to.be.closeTo(2345, 1e-9);
    });

    it('converts Excel day fractions and decimal minutes to seconds', () => {
      expect(excelDayFractionToSeconds(30 / 86400)).to.equal(30);
      expect(excelDayFractionToSeconds(0.0003472)).to.equal(29.998);
      expect(decimalMinutesToSeconds(0.301131)).to.be.closeTo(18.06786, 1e-9);
    });

    it('scales a column and keeps its nulls', () => {
      expect(scale([1, null, 2.5], 1000)).to.deep.equal([1000, null, 2500]);
    });
  });

  describe('parseNumber', () => {
    it('keeps finite numbers and refuses infinite ones', () => {
      expect(parseNumber(3.5)).to.equal(3.5);
      expect(parseNumber(Number.NaN)).to.equal(null);
      expect(parseNumber(Number.POSITIVE_INFINITY)).to.equal(null);
    });

    it('gives null for values that are neither numbers nor text', () => {
      expect(parseNumber(null)).to.equal(null);
      expect(parseNumber(undefined)).to.equal(null);
      expect(parseNumber(true)).to.equal(null);
    });

    it('reads blank and placeholder cells as missing', () => {
      for (const cell of ['', '   ', '-', '--', '---', 'NA', 'n/a', 'NaN', '*', '.']) expect(parseNumber(cell), cell).to.equal(null);
    });

    it('reads a decimal point, a decimal comma, signs, exponents, leading fractions and a trailing unit', () => {
      expect(parseNumber(' 0.83 ')).to.equal(0.83);
      expect(parseNumber('0,83')).to.equal(0.83);
      expect(parseNumber('-1,5')).to.equal(-1.5);
      expect(parseNumber('+2')).to.equal(2);
      expect(parseNumber('1e3')).to.equal(1000);
      expect(parseNumber('.5')).to.equal(0.5);
      expect(parseNumber(',5')).to.equal(0.5);
      expect(parseNumber('74,8kg')).to.equal(74.8);
      expect(parseNumber('66 ')).to.equal(66);
    });

    it('gives null for text that does not start with a number', () => {
      expect(parseNumber('kg 70')).to.equal(null);
      expect(parseNumber('Ruhe')).to.equal(null);
    });

    it('gives the same bits as Number() on the token, for short and long mantissas and exponents', () => {
      for (const token of ['0.1', '1109.942527770996', '0.035398766819450110', '123456789012345678', '-0.000123', '2.5e-3', '6.02E23', '007.50', '-0']) {
        expect(Object.is(parseNumber(token), Number(token)), token).to.equal(true);
        expect(Object.is(parseNumber(token.replace('.', ',')), Number(token)), `${token} with a comma`).to.equal(true);
      }
    });

    it('reports a decimal comma through the column report, and only then', () => {
      const report = { comma: false };
      expect(scanNumber('12.5', report)).to.equal(12.5);
      expect(report.comma).to.equal(false);
      expect(scanNumber('1,25', report)).to.equal(1.25);
      expect(report.comma).to.equal(true);
    });

    it('tells placeholders (no value) from text that fails to read', () => {
      for (const cell of [null, undefined, '', ' ', '-', '---', 'NA', 'n/a', 'NaN', '*', '.']) expect(isPlaceholder(cell), String(cell)).to.equal(true);
      for (const cell of ['Ruhe', 'err', 'x12', 0]) expect(isPlaceholder(cell), String(cell)).to.equal(false);
    });
  });

  describe('parseClock', () => {
    it('reads seconds, m:ss, mm:ss, h:mm:ss and tenths after a point or a comma', () => {
      expect(parseClock('56')).to.equal(56);
      expect(parseClock(' 00:56')).to.equal(56);
      expect(parseClock('1:05')).to.equal(65);
      expect(parseClock('16:38')).to.equal(998);
      expect(parseClock('1:02:03')).to.equal(3723);
      expect(parseClock('00:00:04,8')).to.be.closeTo(4.8, 1e-12);
      expect(parseClock('0:00:09.5')).to.be.closeTo(9.5, 1e-12);
    });

    it('reads plain seconds with a fraction, and negative times, with the sign applied once', () => {
      expect(parseClock('12.5')).to.equal(12.5);
      expect(parseClock('12,5')).to.equal(12.5);
      expect(parseClock('-12.5')).to.equal(-12.5);
      expect(parseClock('-0:30')).to.equal(-30);
      expect(parseClock('-240')).to.equal(-240);
    });

    it('reads long digit runs as Number() reads the decimal text', () => {
      expect(parseClock('1234567890123456.5')).to.equal(1234567890123456.5);
      expect(parseClock('1:05.123456789012345678')).to.equal(65 + Number('0.123456789012345678'));
    });

    it('gives null for text that is not a time', () => {
      for (const cell of ['', '  ', 'Ruhe', '1:2:3:4', '12:345', '13:25:50 PM']) expect(parseClock(cell), cell).to.equal(null);
    });
  });

  describe('units', () => {
    it('normalises unit cells: case, spaces, brackets, BTPS and STPD', () => {
      expect(normaliseUnit(' L/min (BTPS) ')).to.equal('l/min');
      expect(normaliseUnit('(mL/min)/kg')).to.equal('ml/min/kg');
      expect(normaliseUnit('L(btps)')).to.equal('l');
      expect(normaliseUnit(null)).to.equal('');
      expect(normaliseUnit(undefined)).to.equal('');
    });

    it('reads gas flow units: mL/min is 1, L/min, l/m and lpm are 1000, per-kg and unknown units say nothing', () => {
      expect(gasFlowFactorToMl('mL/min')).to.equal(1);
      expect(gasFlowFactorToMl('ml/min STPD')).to.equal(1);
      expect(gasFlowFactorToMl('L/min')).to.equal(1000);
      expect(gasFlowFactorToMl('l/m')).to.equal(1000);
      expect(gasFlowFactorToMl('LPM')).to.equal(1000);
      expect(gasFlowFactorToMl('mL/min/kg')).to.equal(null);
      expect(gasFlowFactorToMl('ml/kg/min')).to.equal(null);
      expect(gasFlowFactorToMl('')).to.equal(null);
    });

    it('reads pressure units: mmHg and Torr are 1, kPa is 7.50062, others say nothing', () => {
      expect(pressureFactorToMmhg('mmHg')).to.equal(1);
      expect(pressureFactorToMmhg('Torr')).to.equal(1);
      expect(pressureFactorToMmhg('Kpa')).to.equal(MMHG_PER_KPA);
      expect(pressureFactorToMmhg('%')).to.equal(null);
    });

    it('infers a gas flow unit from its peak: below 10 L/min, above 100 mL/min, between or empty unknown', () => {
      expect(inferGasFlowFactor([0.4, 2.3, null])).to.deep.equal({ factor: 1000, inferred: 'L/min' });
      expect(inferGasFlowFactor([393, 4307])).to.deep.equal({ factor: 1, inferred: 'mL/min' });
      expect(inferGasFlowFactor([-0.5, 3])).to.deep.equal({ factor: 1000, inferred: 'L/min' });
      expect(inferGasFlowFactor([13.2, 66.2])).to.equal(null);
      expect(inferGasFlowFactor([null, null])).to.equal(null);
    });

    it('infers an end-tidal unit from its median: 2-20 kPa, 20-200 mmHg, else unknown', () => {
      expect(inferPressureFactor([4.9, 5.1, 13.6])).to.deep.equal({ factor: MMHG_PER_KPA, inferred: 'kPa' });
      expect(inferPressureFactor([38, 40, 110])).to.deep.equal({ factor: 1, inferred: 'mmHg' });
      expect(inferPressureFactor([0.5, 1])).to.equal(null);
      expect(inferPressureFactor([250, 300])).to.equal(null);
      expect(inferPressureFactor([0, null])).to.equal(null);
    });
  });
});

describe('src/recording/build.ts', () => {
  it('refuses a channel whose length differs from the time column, and fewer than two readable times', () => {
    expect(() => buildRecording(raw([0, 1], { channels: { VO2: { values: [1], unit_in: '' } } }))).to.throw(ServiceError, /1 values for 2 time stamps/);
    expect(() => buildRecording(raw([0, null]))).to.throw(ServiceError, /fewer than two rows/);
  });

  it('keeps an already clean clock untouched', () => {
    const rec = buildRecording(raw([0, 3.1, 6.0, 9.4]));
    expect(rec.t_s).to.deep.equal([0, 3.1, 6.0, 9.4]);
    expect(rec.clock).to.deep.equal({ raw_span_s: 9.4, repaired_span_s: 9.4, samples_dropped: 0, repair_applied: null, monotonic_as_read: true });
    expect(rec.flags).to.deep.equal([]);
  });

  it('drops rows without a readable time, with a flag', () => {
    const rec = buildRecording(raw([0, null, 2, 3]));
    expect(rec.t_s).to.deep.equal([0, 2, 3]);
    expect(rec.channels.VO2?.values).to.deep.equal([1000, 1002, 1003]);
    expect(codes(rec)).to.include('rows_without_time_dropped');
    expect(rec.clock.monotonic_as_read).to.equal(false);
  });

  it('joins clocks that reset at each phase into one monotonic axis and records it', () => {
    const rec = buildRecording(raw([0, 10, 20, 30, 0, 10, 20, 0, 10], { phase_per_row: ['rest', 'rest', 'rest', 'rest', 'exercise', 'exercise', 'exercise', 'recovery', 'recovery'] }));
    expect(rec.t_s).to.deep.equal([0, 10, 20, 30, 40, 50, 60, 70, 80]);
    expect(codes(rec)).to.include('clock_reset_repaired');
    expect(rec.clock.raw_span_s).to.equal(30);
    expect(rec.clock.repaired_span_s).to.equal(80);
    expect(rec.clock.repair_applied).to.match(/2 clock resets/);
    expect(rec.phases.map((p) => [p.phase, p.t_start_s, p.t_end_s])).to.deep.equal([
      ['rest', 0, 40],
      ['exercise', 40, 70],
      ['recovery', 70, 80],
    ]);
  });

  it('drops duplicate and backwards time stamps that are not resets', () => {
    const rec = buildRecording(raw([0, 3, 3, 6, 5, 9]));
    expect(rec.t_s).to.deep.equal([0, 3, 6, 9]);
    expect(rec.channels.VO2?.values).to.deep.equal([1000, 1001, 1003, 1005]);
    expect(codes(rec)).to.include('duplicate_times_dropped');
    expect(rec.clock.samples_dropped).to.equal(2);
    expect(rec.clock.monotonic_as_read).to.equal(false);
  });

  it('shifts a negative start (rest before the test) to zero, phases too', () => {
    const rec = buildRecording(
      raw([-240, -120, 0, 120], {
        phase_starts: [
          { phase: 'rest', t_s: -240 },
          { phase: 'exercise', t_s: 0 },
        ],
      }),
    );
    expect(rec.t_s).to.deep.equal([0, 120, 240, 360]);
    expect(codes(rec)).to.include('time_origin_shifted');
    expect(rec.clock.repair_applied).to.match(/negative start shifted by 240 s/);
    expect(rec.phases.map((p) => [p.phase, p.t_start_s, p.t_end_s])).to.deep.equal([
      ['rest', 0, 240],
      ['exercise', 240, 360],
    ]);
  });

  it('makes a channel reading zero throughout absent with that reason, and single zeros missing with a flag', () => {
    const rec = buildRecording(
      raw([0, 1, 2], {
        channels: {
          VO2: { values: [300, 0, 320], unit_in: 'mL/min' },
          HR: { values: [0, 0, 0], unit_in: '1/min' },
          Load: { values: [0, 0, 0], unit_in: 'W' },
        },
      }),
    );
    expect(rec.channels.VO2?.values).to.deep.equal([300, null, 320]);
    expect(codes(rec)).to.include('zero_read_as_missing');
    expect(rec.channels.HR).to.equal(undefined);
    expect(rec.absent.HR).to.match(/reading zero throughout/);
    expect(rec.channels.Load?.values).to.deep.equal([0, 0, 0]);
  });

  it('makes an empty column absent, keeps the parser\'s reasons, and says "not in the file" for the rest', () => {
    const rec = buildRecording(
      raw([0, 1], {
        channels: { VO2: { values: [300, 310], unit_in: '' }, RER: { values: [null, Number.NaN], unit_in: '' } },
        absent: { PetCO2: 'no PETCO2 column in this export' },
      }),
    );
    expect(rec.absent.RER).to.equal('column present in the file but empty');
    expect(rec.absent.PetCO2).to.equal('no PETCO2 column in this export');
    expect(rec.absent.SpO2).to.equal('not in the file');
  });

  it('infers breath by breath from irregular intervals and averages from regular ones', () => {
    const bxb = buildRecording(raw([0, 2.1, 5.3, 7.0, 10.2, 12.0]));
    expect(bxb.sampling).to.deep.equal({ method: 'breath_by_breath', raw_interval_s: 2.1, interval_known: true, averaging_s: null });
    const avg = buildRecording(raw([10, 20, 30, 40]));
    expect(avg.sampling).to.deep.equal({ method: 'averaged', raw_interval_s: 10, interval_known: true, averaging_s: 10 });
  });

  it("lets the parser's sampling hint win over inference, with its averaging window", () => {
    const rec = buildRecording(raw([56, 60, 120, 180], { sampling_hint: { method: 'averaged', averaging_s: 60 } }));
    expect(rec.sampling).to.include({ method: 'averaged', averaging_s: 60 });
    const bxb = buildRecording(raw([0, 1, 2, 3], { sampling_hint: { method: 'breath_by_breath' } }));
    expect(bxb.sampling).to.include({ method: 'breath_by_breath', averaging_s: null });
  });

  it('builds phases from stated start times, drops empty ones, and clips them to the recording', () => {
    const rec = buildRecording(
      raw([3, 30, 59, 100, 3000, 3009], {
        phase_starts: [
          { phase: 'recovery', t_s: 3002 },
          { phase: 'rest', t_s: 0 },
          { phase: 'warmup', t_s: 59 },
          { phase: 'exercise', t_s: 59 },
        ],
      }),
    );
    expect(rec.phases.map((p) => [p.phase, p.t_start_s, p.t_end_s, p.source])).to.deep.equal([
      ['rest', 3, 59, 'file'],
      ['exercise', 59, 3002, 'file'],
      ['recovery', 3002, 3009, 'file'],
    ]);
    const late = buildRecording(
      raw([0, 10, 20], {
        phase_starts: [
          { phase: 'exercise', t_s: 0 },
          { phase: 'recovery', t_s: 500 },
          { phase: 'rest', t_s: 900 },
        ],
      }),
    );
    expect(late.phases.map((p) => [p.phase, p.t_start_s, p.t_end_s])).to.deep.equal([['exercise', 0, 20]]);
  });

  it('skips rows without a phase label and gives no phases when the file states none', () => {
    const rec = buildRecording(raw([0, 1, 2, 3], { phase_per_row: [null, 'rest', null, 'exercise'] }));
    expect(rec.phases.map((p) => [p.phase, p.t_start_s, p.t_end_s])).to.deep.equal([
      ['rest', 1, 3],
      ['exercise', 3, 3],
    ]);
    expect(buildRecording(raw([0, 1], { phase_per_row: [null, null] })).phases).to.deep.equal([]);
    expect(buildRecording(raw([0, 1])).phases).to.deep.equal([]);
  });

  it("passes subject, thresholds and the parser's flags through, and gives the median of a list", () => {
    const rec = buildRecording(raw([0, 1], { subject: { body_mass_kg: 66 }, embedded_thresholds: [{ name: 'VT1', label: 'LT', vo2_ml_min: 3150 }], flags: [{ code: 'x', detail: 'y' }] }));
    expect(rec.subject).to.deep.equal({ body_mass_kg: 66 });
    expect(rec.embedded_thresholds).to.have.length(1);
    expect(codes(rec)).to.deep.equal(['x']);
    expect(rec.format).to.equal('test');
    expect(median([3, 1, 2])).to.equal(2);
    expect(median([4, 1, 2, 3])).to.equal(2.5);
    expect(median([])).to.be.NaN;
  });
});
