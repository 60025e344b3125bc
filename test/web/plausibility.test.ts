import { expect } from 'chai';
import type { UploadSummary, VtFindings } from '../../web/client/index.js';
import { exerciseEnd, implausibilities } from '../../web/page/plausibility.js';

function findings(f: Partial<VtFindings>): VtFindings {
  return { vt1_time_s: 400, vt1_vo2_ml_min: 2000, vt2_time_s: 600, vt2_vo2_ml_min: 3000, ...f } as VtFindings;
}

describe('web page: plausibility of an engine’s lines', () => {
  it('finds nothing wrong with VT1 before VT2, VO2 rising, both during exercise', () => {
    expect(implausibilities(findings({}), 800)).to.deep.equal([]);
  });

  it('flags VT2 placed before VT1 (or at the same second) on VT2', () => {
    for (const t of [300, 400]) {
      const [x, ...rest] = implausibilities(findings({ vt2_time_s: t, vt2_vo2_ml_min: 1800 }), 800);
      expect(rest).to.deep.equal([]);
      expect(x).to.include({ code: 'vt2_before_vt1', short: 'before VT1' });
      expect(x.lines).to.deep.equal(['VT2']);
      expect(x.detail)
        .to.contain(`VT2 (${t === 300 ? '5:00' : '6:40'})`)
        .and.contain('VT1 (6:40)');
    }
  });

  it('flags VT2’s VO2 below VT1’s when the times are in order', () => {
    const [x] = implausibilities(findings({ vt2_vo2_ml_min: 1900 }), 800);
    expect(x).to.include({ code: 'vt2_vo2_below_vt1' });
    expect(x.detail).to.contain('1900 mL/min').and.contain('2000 mL/min');
  });

  it('flags each line after exercise ended, and nothing when the end is unknown', () => {
    expect(implausibilities(findings({ vt2_time_s: 820 }), 800).map((x) => [x.code, x.lines])).to.deep.equal([['after_exercise', ['VT2']]]);
    expect(implausibilities(findings({ vt1_time_s: 810, vt2_time_s: 820 }), 800).map((x) => x.lines[0])).to.deep.equal(['VT1', 'VT2']);
    expect(implausibilities(findings({ vt2_time_s: 820 }), null)).to.deep.equal([]);
  });

  it('uses the engine’s own flags instead of its checks when the evidence carries them, and still says a line in recovery is not drawn', () => {
    const own = implausibilities(
      findings({ vt2_time_s: 300, evidence: { implausible: [{ code: 'vt2_precedes_vt1', detail: 'placed first by its rule' }] } as unknown as VtFindings['evidence'] }),
      800,
    );
    expect(own).to.deep.equal([{ code: 'vt2_precedes_vt1', detail: 'placed first by its rule', short: 'implausible', lines: ['VT2'] }]);
    const recovery = implausibilities(findings({ vt2_time_s: 820, evidence: { implausible: [{ code: 'vt2_in_recovery', detail: 'in recovery' }] } as unknown as VtFindings['evidence'] }), 800);
    expect(recovery.map((x) => x.code)).to.deep.equal(['vt2_in_recovery']);
    const engineRecovery = implausibilities(
      findings({
        vt1_time_s: 810,
        vt2_time_s: 820,
        evidence: { implausible: [{ code: 'after_exercise', detail: 'VT1 at 810 s is after the last second of exercise (800 s).' }] } as unknown as VtFindings['evidence'],
      }),
      800,
    );
    expect(engineRecovery.map((x) => [x.code, x.lines, x.short])).to.deep.equal([
      ['after_exercise', ['VT1'], 'in recovery'],
      ['after_exercise', ['VT2'], 'in recovery'],
    ]);
    const unnamed = implausibilities(findings({ evidence: { implausible: [{ code: 'oscillation', detail: 'both unreliable' }] } as unknown as VtFindings['evidence'] }), 800);
    expect(unnamed[0].lines).to.deep.equal(['VT1', 'VT2']);
  });

  it('takes the end of exercise from the last exercise phase', () => {
    const summary = {
      phases: [
        { phase: 'rest', t_start_s: 0, t_end_s: 60 },
        { phase: 'exercise', t_start_s: 60, t_end_s: 700 },
        { phase: 'recovery', t_start_s: 700, t_end_s: 900 },
      ],
    } as UploadSummary;
    expect(exerciseEnd(summary)).to.equal(700);
    expect(exerciseEnd({ phases: [] } as unknown as UploadSummary)).to.equal(null);
  });
});
