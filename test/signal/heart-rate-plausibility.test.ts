import { expect } from 'chai';
import { createMetricRegistry } from '../../src/metrics/registry.js';
import type { Recording } from '../../src/recording/recording.js';
import { describeImplausibleHeartRate, heartRatePlausibility } from '../../src/signal/heart-rate-plausibility.js';
import { generateTest } from '../../src/synthetic/generate.js';

describe('src/signal/heart-rate-plausibility.ts: physiologically impossible heart rate, flagged per sample (issue 19)', () => {
  it('flags values outside 30-230 beats/min and leaves missing samples unflagged', () => {
    const p = heartRatePlausibility([0, 1, 2, 3, 4], [80, 0, null, 240, 82]);
    expect(p.flags).to.deep.equal([null, 'out_of_range', null, 'out_of_range', null]);
    expect(p).to.include({ samples: 4, implausible: 2 });
  });

  it('flags a jump of more than 40 beats/min within 2 s, and not the return to the true value after it', () => {
    const t = [0, 1, 2, 3, 4, 5];
    const p = heartRatePlausibility(t, [120, 122, 170, 124, 125, 126]);
    expect(p.flags).to.deep.equal([null, null, 'jump', null, null, null]);
    // 40 beats/min in 2 s is the limit itself, not past it.
    expect(heartRatePlausibility([0, 2], [100, 140]).flags).to.deep.equal([null, null]);
  });

  it('allows 20 beats/min per second over a longer gap, so a real rise across a dropout stays plausible', () => {
    expect(heartRatePlausibility([0, 10], [100, 190]).flags).to.deep.equal([null, null]);
    expect(heartRatePlausibility([0, 3], [100, 175]).flags).to.deep.equal([null, 'jump']);
  });

  it('flags a heart rate that alternates between 50 and 225 beats/min (a doubled or halved count), as in the issue', () => {
    const t = Array.from({ length: 40 }, (_, i) => 3 * i);
    const hr = t.map((_, i) => (i % 2 ? 225 : 50 + i));
    const p = heartRatePlausibility(t, hr);
    expect(p.implausible).to.equal(20);
    expect(p.flags.filter((f, i) => f !== null && i % 2 === 0)).to.deep.equal([]);
    expect(describeImplausibleHeartRate(p)).to.match(/^20 of 40 heart-rate samples are physiologically implausible \(heart rate changing by more than 40 beats\/min within 2 s\)$/);
  });

  it('the O2-pulse metric leaves implausible samples out and says so in its detail', () => {
    const reg = createMetricRegistry();
    const { recording } = generateTest({ seed: 3 });
    const clean = reg.compute(recording, ['o2_pulse']).o2_pulse as { status: string; value: number; detail: Record<string, unknown> };
    expect(clean.status).to.equal('ok');
    expect(clean.detail).to.not.have.property('hr_implausible_samples');
    const rec: Recording = structuredClone(recording);
    const hr = rec.channels.HR!.values;
    // Every fifth sample a dropout (0) or a doubled count: the mean HR in the window would fall or rise with them.
    for (let i = 0; i < hr.length; i += 5) hr[i] = i % 10 ? 0 : (hr[i] as number) * 2;
    const spiked = reg.compute(rec, ['o2_pulse']).o2_pulse as typeof clean;
    expect(spiked.status).to.equal('ok');
    expect(spiked.detail.hr_implausible_samples).to.be.greaterThan(0);
    expect(spiked.detail.hr_implausible_in_window).to.be.greaterThan(0);
    expect(spiked.detail.hr_note).to.match(/physiologically implausible .* left out of this O2 pulse/);
    expect(spiked.value).to.be.closeTo(clean.value, 0.3);
  });
});
