import { expect } from 'chai';
import request from 'supertest';
import type { Recording } from '../../src/recording/recording.js';
import { toCanonicalJson } from '../../src/synthetic/canonical-json.js';
import { generateTest } from '../../src/synthetic/generate.js';
import { expectMatchesSpec, startHarness, type Harness } from './harness.js';

describe('GET /v1/cpet/{cpet_id}/series: implausible heart rate flagged for HR and O2pulse (issue 19)', function () {
  this.timeout(60_000);
  let h: Harness;
  let key = '';
  let id = '';
  const spikes = new Set<number>();

  before(async () => {
    h = await startHarness({ store: 'sqlite' });
    key = await h.key();
    const rec: Recording = structuredClone(generateTest({ seed: 5 }).recording);
    const hr = rec.channels.HR!.values;
    // A doubled count past any heart's maximum every 40 samples, as a monitor writes when it counts each beat twice.
    for (let i = 20; i < hr.length; i += 40) {
      hr[i] = 250;
      spikes.add(rec.t_s[i]);
    }
    id = await h.upload(key, { filename: 'spiky-hr.json', content: toCanonicalJson(rec) });
  });

  after(async () => h.close());

  it('marks exactly the implausible samples on the raw grid, for HR and for O2 pulse, with the reason', async () => {
    const res = await request(h.service.app).get(`/v1/cpet/${id}/series?channels=HR,O2pulse,VO2&max_points=5000`).set('X-API-Key', key).expect(200);
    await expectMatchesSpec(res.body, 'getCpetSeries', 200);
    for (const name of ['HR', 'O2pulse']) {
      const s = res.body.series[name] as { t_s: number[]; values: number[]; implausible: boolean[]; implausible_reason: string };
      expect(s.implausible, name).to.have.length(s.values.length);
      const flaggedT = s.t_s.filter((_, i) => s.implausible[i]);
      expect(flaggedT.length, name).to.equal(spikes.size);
      for (const t of flaggedT)
        expect(
          [...spikes].some((x) => Math.abs(x - t) < 0.001),
          `${name} ${t}`,
        ).to.equal(true);
      expect(s.implausible_reason).to.match(new RegExp(`^${spikes.size} of \\d+ heart-rate samples are physiologically implausible \\(heart rate outside 30-230 beats/min\\)`));
    }
    expect(res.body.series.HR.n_source).to.be.at.most(5000);
    expect(res.body.series.VO2).to.not.have.property('implausible');
  });

  it('keeps the flags aligned through downsampling and on the 1-Hz grid', async () => {
    const small = await request(h.service.app).get(`/v1/cpet/${id}/series?channels=HR&max_points=200`).set('X-API-Key', key).expect(200);
    const s = small.body.series.HR as { values: number[]; implausible: boolean[] };
    expect(s.implausible).to.have.length(s.values.length);
    // LTTB keeps extremes, so the 250-beats/min samples survive and stay flagged; every flagged point is one.
    for (let i = 0; i < s.values.length; i++) if (s.implausible[i]) expect(s.values[i]).to.equal(250);
    expect(s.implausible.filter(Boolean).length).to.be.greaterThan(0);
    const grid = await request(h.service.app).get(`/v1/cpet/${id}/series?channels=HR&grid=resampled&max_points=5000`).set('X-API-Key', key).expect(200);
    const g = grid.body.series.HR as { values: number[]; implausible: boolean[] };
    expect(g.implausible).to.have.length(g.values.length);
    for (let i = 0; i < g.values.length; i++) if (g.values[i] > 230) expect(g.implausible[i], `grid point ${i}`).to.equal(true);
    expect(g.implausible.filter(Boolean).length).to.be.at.least(spikes.size);
  });
});
