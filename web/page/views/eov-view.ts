/**
 * Exercise oscillatory ventilation (spec 1: research, beta; every output is a research finding): VE
 * over time with the events shaded, the period, amplitude and grade, and which published definition
 * fired and why (human raters agree poorly, so the definitions matter more than the grade).
 */
import uPlot from 'uplot';
import type { Envelope, EovEvent, EovFindings, SeriesResponse } from '../../client/index.js';
import { badge, facts, h, heading, replace, table } from '../dom.js';
import { at, clock, num } from '../format.js';
import { SERIES } from '../plot/colors.js';
import { overlayPlugin, type OverlayState } from '../plot/overlays.js';
import { TIME_STEPS } from '../plot/plot-grid.js';
import { lineOf } from '../plot/series-data.js';
import { envelopeOf, type Results } from '../results.js';
import { errorBox, plain, refusalBox } from './error-view.js';

function eventFacts(e: EovEvent): HTMLElement {
  return facts([
    ['Strongest event', `${at(e.t_start ?? null)} to ${at(e.t_end ?? null)}${e.duration_s !== undefined ? `, ${num(e.duration_s)} s` : ''}`],
    ['Period', e.period_peak_s !== undefined ? `${num(e.period_peak_s)} s (band ${num(e.period_lo_s)}–${num(e.period_hi_s)} s)${e.graded ? '' : ', outside the graded 40–140 s band'}` : null],
    ['Amplitude', e.amplitude_l_min !== undefined ? `${num(e.amplitude_l_min)} L/min peak to trough (${num(e.amplitude_pct_ve)} % of VE)` : null],
    ['Cycles', e.n_cycles !== undefined ? `${num(e.n_cycles)}${e.cycle_length_sd_pct != null ? `, cycle length SD ${num(e.cycle_length_sd_pct)} % of the mean` : ''}` : null],
    ['Envelope', e.envelope ?? null],
    [
      'PetCO2 coupling',
      e.co2_coupling ? `${e.co2_coupling}${e.phase_deg != null ? `, phase ${num(e.phase_deg)}°` : ''}${e.co2_amplitude_mmhg != null ? `, ${num(e.co2_amplitude_mmhg)} mmHg` : ''}` : null,
    ],
    ['Drive', e.drive ?? null],
    ['Loop-gain margin', e.loop_gain_margin != null ? `${num(e.loop_gain_margin)} (0 stable, 1 self-sustaining; beta)` : null],
  ]);
}

function vePlot(host: HTMLElement, series: SeriesResponse | null, findings: EovFindings): uPlot | null {
  const ve = lineOf(series, 'VE');
  if (!ve) return null;
  const strongest = findings.event ?? null;
  const state: OverlayState = {
    thresholds: [],
    landmarks: [],
    domains: null,
    reading: null,
    shades: (findings.events ?? [])
      .filter((e) => e.t_start !== undefined && e.t_end !== undefined)
      .map((e) => ({ t_start: e.t_start as number, t_end: e.t_end as number, strong: strongest !== null && e.t_start === strongest.t_start })),
  };
  return new uPlot(
    {
      width: Math.max(280, host.clientWidth || 600),
      height: 200,
      scales: { x: { time: false } },
      axes: [
        { incrs: TIME_STEPS, values: (_u, splits) => splits.map((v) => clock(v)) },
        { label: 'VE (L/min)', labelSize: 16, size: 44 },
      ],
      series: [
        { label: 'time', value: (_u, v) => (v === null ? '–' : clock(v)) },
        { label: 'VE', stroke: SERIES.VE, width: 1, points: { show: false }, value: (_u, v) => (v === null ? '–' : num(v)) },
      ],
      legend: { show: true },
      plugins: [overlayPlugin(state, (t) => t, false)],
    },
    [ve.t, ve.v],
    host,
  );
}

export function renderEov(section: HTMLElement, results: Results): uPlot | null {
  section.hidden = false;
  const title = heading('eov-title', 'Oscillatory ventilation (EOV) ', badge('research · beta'));
  const envelope: Envelope | null = envelopeOf(results.analyses, 'eov');
  const lead = h(
    'p',
    { class: 'help' },
    'Research finding: EOV is beta, its transportability to other populations is untested, and human raters agree poorly on it (kappa 0.30–0.43): read which definition fired and why, not only the grade.',
  );
  if (!results.analyses.ok) {
    replace(section, title, lead, errorBox('The analyses could not run', results.analyses.error));
    return null;
  }
  if (!envelope) {
    replace(section, title, lead, h('p', {}, 'Not run: this key is not licensed for the eov analysis.'));
    return null;
  }
  if (envelope.status !== 'ok') {
    replace(
      section,
      title,
      lead,
      refusalBox(envelope),
      h(
        'ul',
        { class: 'notes' },
        envelope.notes.map((n) => h('li', {}, plain(n))),
      ),
    );
    return null;
  }
  const f = envelope.findings as EovFindings;
  const ve = lineOf(results.series.ok ? results.series.value : null, 'VE');
  const peak = ve ? ve.v.reduce((k, v, i) => (v > ve.v[k] ? i : k), 0) : -1;
  const events = (f.events ?? []).filter((e) => e.t_start !== undefined && e.t_end !== undefined).map((e) => `${clock(e.t_start as number)} to ${clock(e.t_end as number)}`);
  const description = `VE against time${ve ? `; VE peaks at ${num(ve.v[peak])} L/min at ${clock(ve.t[peak])}` : ''}. ${events.length ? `Oscillation events shaded: ${events.join(', ')}.` : 'No oscillation event is shaded.'} Grade: ${f.grade}.`;
  const host = h('div', { class: 'eov-plot', role: 'img', 'aria-label': 'VE against time, oscillation events shaded', 'aria-describedby': 'eov-chart-text' });
  replace(
    section,
    title,
    lead,
    h('p', { class: 'headline' }, h('strong', {}, f.headline ?? `Grade: ${f.grade}`)),
    f.summary ? h('p', {}, f.summary) : null,
    host,
    h('p', { class: 'chart-text', id: 'eov-chart-text' }, description),
    h('p', { class: 'help' }, 'Shaded: oscillation events (darker: the strongest).'),
    facts([
      ['Grade', f.grade],
      ['Burden', f.burden !== undefined ? `${num(f.burden * 100)} % of exercise` : null],
      ['Resting VE', f.resting_ve_l_min !== undefined ? `${num(f.resting_ve_l_min)} L/min` : null],
      ['Resolvable periods', f.period_floor_s !== undefined ? `${num(f.period_floor_s)}–${num(f.period_ceiling_s)} s${f.band_narrowed ? ' (narrowed by the sampling)' : ''}` : null],
      ['Gas quality', f.gas_quality ? `${f.gas_quality}${f.gas_quality_note ? `: ${f.gas_quality_note}` : ''}` : null],
    ]),
    f.event ? eventFacts(f.event) : h('p', {}, 'No oscillation event was found.'),
    f.definitions?.length
      ? table(
          'Published definitions',
          ['Definition', 'Fired', 'Why'],
          f.definitions.map((d) => [d.name, d.fired ? 'fired' : 'did not fire', d.reason]),
        )
      : null,
    f.method ? h('p', { class: 'method' }, h('strong', {}, 'Method: '), f.method) : null,
    h('h3', {}, 'Notes'),
    h(
      'ul',
      { class: 'notes' },
      envelope.notes.map((n) => h('li', {}, plain(n))),
    ),
  );
  return vePlot(host, results.series.ok ? results.series.value : null, f);
}
