/**
 * Substrate use: fat and carbohydrate oxidation per window against %VO2peak or watts, FATMAX (a
 * fitted turning point, not a measured sample) and the crossover marked, every flag in words, and
 * the equations used (Frayn 1983; Jeukendrup and Wallis 2005; Achten et al. 2002; Brooks and
 * Mercier 1994, as the analysis states them).
 */
import uPlot from 'uplot';
import type { SubstrateFindings, SubstrateWindow } from '../../client/index.js';
import { badge, facts, h, heading, replace } from '../dom.js';
import { num, words } from '../format.js';
import { SERIES } from '../plot/colors.js';
import { overlayPlugin, type OverlayState } from '../plot/overlays.js';
import { envelopeOf, type Results } from '../results.js';
import { errorBox, plain, refusalBox } from './error-view.js';

type Axis = 'pct_vo2peak' | 'load_w';

function chart(host: HTMLElement, f: SubstrateFindings, axis: Axis): uPlot {
  const windows = (f.windows ?? []).filter((w) => typeof w[axis] === 'number').sort((a, b) => (a[axis] as number) - (b[axis] as number));
  const x = windows.map((w) => w[axis] as number);
  const fat = windows.map((w) => (w.fat_valid === false ? null : (w.fat_g_min ?? null)));
  const fatBound = windows.map((w) => (w.fat_valid === false ? (w.fat_g_min ?? null) : null));
  const cho = windows.map((w) => w.cho_g_min ?? null);
  const fatmaxX = axis === 'pct_vo2peak' ? f.fatmax.pct_vo2peak : f.fatmax.load;
  const crossover = f.crossover ?? { found: false };
  const crossoverX = axis === 'pct_vo2peak' ? crossover.pct_vo2peak : crossover.load_w;
  const state: OverlayState = {
    thresholds: [
      ...(f.fatmax.found && typeof fatmaxX === 'number' ? [{ label: 'FATMAX (fitted)', t_s: fatmaxX, vo2_ml_min: null, color: SERIES.fat, dashed: false }] : []),
      ...(crossover.found && typeof crossoverX === 'number' ? [{ label: 'crossover', t_s: crossoverX, vo2_ml_min: null, color: '#374151', dashed: true }] : []),
    ],
    landmarks: [],
    domains: null,
    reading: null,
    shades: [],
  };
  const point = (color: string, fill: string) => ({ show: true, size: 6, width: 1.5, stroke: color, fill });
  return new uPlot(
    {
      width: Math.max(280, host.clientWidth || 600),
      height: 240,
      scales: { x: { time: false } },
      axes: [
        { label: axis === 'pct_vo2peak' ? '% of VO2peak' : 'load (W)', labelSize: 16, size: 28 },
        // Two scales (fat is a tenth of carbohydrate at high intensity), each axis in its series' colour.
        { scale: 'cho', label: 'carbohydrate (g/min)', labelSize: 16, size: 54, stroke: SERIES.cho },
        { scale: 'fat', side: 1, label: 'fat (g/min)', labelSize: 16, size: 54, stroke: SERIES.fat, grid: { show: false } },
      ],
      series: [
        { label: axis === 'pct_vo2peak' ? '% VO2peak' : 'W', value: (_u, v) => (v === null ? '–' : num(v)) },
        { label: 'fat', scale: 'fat', stroke: SERIES.fat, width: 1.5, points: point(SERIES.fat, SERIES.fat), value: (_u, v) => (v === null ? '–' : num(v)) },
        { label: 'fat, upper bound (RER > 1.0)', scale: 'fat', stroke: SERIES.fat, width: 0, paths: () => null, points: point(SERIES.fat, '#ffffff'), value: (_u, v) => (v === null ? '–' : num(v)) },
        { label: 'carbohydrate', scale: 'cho', stroke: SERIES.cho, width: 1.5, points: point(SERIES.cho, SERIES.cho), value: (_u, v) => (v === null ? '–' : num(v)) },
      ],
      legend: { show: true },
      plugins: [overlayPlugin(state, (v) => v, false)],
    },
    [x, fat, fatBound, cho],
    host,
  );
}

function fatmaxText(f: SubstrateFindings): string {
  const m = f.fatmax;
  if (!m.found) return `not found: ${m.reason ?? 'no turning point'}`;
  return `${num(m.fat_g_min)} g/min fat at ${num(m.pct_vo2peak)} % of VO2peak${m.load != null ? ` (${num(m.load)} W)` : ''}; ${num(m.pct_ee_fat)} % of energy from fat; cubic fit r² ${num(m.fit_r2_fat, 2)} over ${m.n_fit_windows ?? '?'} windows. A fitted point, not a measured sample.`;
}

function crossoverText(f: SubstrateFindings): string {
  const c = f.crossover;
  if (!c) return 'not reported';
  if (!c.found) return `not found: ${c.reason ?? 'carbohydrate never passes fat'}`;
  return `${num(c.pct_vo2peak)} % of VO2peak, RER ${num(c.rer, 2)}${c.load_w != null ? `, ${num(c.load_w)} W` : ''}`;
}

function efficiencyText(f: SubstrateFindings): string {
  const e = f.efficiency as { available: boolean; reason?: string; at_fatmax_pct?: number | null; note?: string };
  if (!e.available) return `not available: ${e.reason ?? 'no work rate'}`;
  return `${e.at_fatmax_pct != null ? `${num(e.at_fatmax_pct)} % at FATMAX. ` : ''}${e.note ?? ''}`;
}

export function renderSubstrate(section: HTMLElement, results: Results): { destroy(): void } | null {
  section.hidden = false;
  const title = heading('substrate-title', 'Substrate use');
  const envelope = envelopeOf(results.analyses, 'substrate');
  if (!results.analyses.ok) {
    replace(section, title, errorBox('The analyses could not run', results.analyses.error));
    return null;
  }
  if (!envelope) {
    replace(section, title, h('p', {}, 'Not run: this key is not licensed for the substrate analysis.'));
    return null;
  }
  if (envelope.status !== 'ok') {
    replace(
      section,
      title,
      refusalBox(envelope),
      h(
        'ul',
        { class: 'notes' },
        envelope.notes.map((n) => h('li', {}, plain(n))),
      ),
    );
    return null;
  }
  const f = envelope.findings as SubstrateFindings;
  const hasWatts = (f.windows ?? []).some((w: SubstrateWindow) => typeof w.load_w === 'number' && w.load_w > 0) && results.summary.load.channel === 'Load';
  const windows = f.windows ?? [];
  const fatPeak = windows.reduce<SubstrateWindow | null>(
    (best, w) => (typeof w.fat_g_min === 'number' && w.fat_valid !== false && (!best || w.fat_g_min > (best.fat_g_min ?? -Infinity)) ? w : best),
    null,
  );
  const choPeak = windows.reduce<SubstrateWindow | null>((best, w) => (typeof w.cho_g_min === 'number' && (!best || w.cho_g_min > (best.cho_g_min ?? -Infinity)) ? w : best), null);
  const description = [
    `Fat and carbohydrate oxidation against intensity, ${windows.length} windows.`,
    fatPeak ? `Fat peaks at ${num(fatPeak.fat_g_min)} g/min at ${num(fatPeak.pct_vo2peak)} % of VO2peak.` : '',
    choPeak ? `Carbohydrate peaks at ${num(choPeak.cho_g_min)} g/min at ${num(choPeak.pct_vo2peak)} % of VO2peak.` : '',
    `FATMAX: ${fatmaxText(f)}`,
    `Crossover: ${crossoverText(f)}.`,
  ]
    .filter(Boolean)
    .join(' ');
  const host = h('div', { class: 'substrate-plot', role: 'img', 'aria-label': 'Fat and carbohydrate oxidation against intensity', 'aria-describedby': 'substrate-chart-text' });
  let plot: uPlot | null = null;
  const draw = (axis: Axis) => {
    plot?.destroy();
    plot = chart(host, f, axis);
  };
  const axisChoice = hasWatts
    ? h(
        'fieldset',
        { class: 'axis-choice' },
        h('legend', {}, 'Intensity axis'),
        h('label', {}, h('input', { type: 'radio', name: 'substrate-axis', value: 'pct_vo2peak', checked: true, onchange: () => draw('pct_vo2peak') }), ' % of VO2peak'),
        h('label', {}, h('input', { type: 'radio', name: 'substrate-axis', value: 'load_w', onchange: () => draw('load_w') }), ' watts'),
      )
    : h('p', { class: 'help' }, 'Against % of VO2peak (no work-rate channel for a watts axis).');
  replace(
    section,
    title,
    axisChoice,
    host,
    h('p', { class: 'chart-text', id: 'substrate-chart-text' }, description),
    facts([
      ['FATMAX', fatmaxText(f)],
      ['Crossover', crossoverText(f)],
      ['Gross efficiency', efficiencyText(f)],
      [
        'Protocol',
        `${f.protocol ?? 'unknown'}; ${f.steady_state ? 'steady-state stages' : 'no steady state'}; ${f.n_windows ?? '?'} windows (${f.window_source ?? ''}${f.window_s ? `, ${num(f.window_s)} s` : ''})`,
      ],
      ['VO2peak', f.vo2peak !== undefined ? `${num(f.vo2peak, 2)} L/min (highest 30-s mean; the reference of %VO2peak)` : null],
    ]),
    h('h3', {}, 'Flags'),
    (f.flags ?? []).length
      ? h(
          'ul',
          { class: 'flags' },
          (f.flags ?? []).map((x) => h('li', {}, badge(x.severity, x.severity), ' ', h('strong', {}, words(x.code)), `: ${x.detail}`)),
        )
      : h('p', {}, 'None.'),
    h(
      'details',
      { class: 'method' },
      h('summary', {}, 'Equations used'),
      h(
        'ul',
        {},
        (f.method ?? []).map((m) => h('li', {}, m)),
      ),
    ),
    h('h3', {}, 'Notes'),
    h(
      'ul',
      { class: 'notes' },
      envelope.notes.map((n) => h('li', {}, plain(n))),
    ),
  );
  draw('pct_vo2peak');
  return { destroy: () => plot?.destroy() };
}
