/**
 * The plot section: the nine panels, the shared zoom and pan controls, the legend (thresholds of
 * both engines, landmarks, the domain band) and the reading aid. The reading line is a reading aid:
 * it is never stored, never exported, and never presented as the model's answer.
 */
import { CpetApiError } from '../../client/index.js';
import { h, heading, replace } from '../dom.js';
import { clock, num, pct } from '../format.js';
import { engines, landmarkName, landmarksValue, vtFindings } from '../overlay-state.js';
import { DOMAIN, READING } from '../plot/colors.js';
import type { OverlayState } from '../plot/overlays.js';
import { buildPlotGrid, type PlotGrid } from '../plot/plot-grid.js';
import { lineOf, meanAround } from '../plot/series-data.js';
import { exerciseEnd } from '../plausibility.js';
import type { Results } from '../results.js';
import { errorBox, plain } from './error-view.js';

/** Reading-aid values are 30-s means of the plotted series around the line. */
const READING_HALF_WIDTH_S = 15;

function swatch(color: string, dashed = false): HTMLElement {
  return h('span', { class: `swatch${dashed ? ' dashed' : ''}`, 'data-color': color, 'aria-hidden': 'true' });
}

function legend(results: Results, state: OverlayState): HTMLElement {
  const items: HTMLElement[] = [];
  for (const e of engines(results)) {
    if (!e.findings) continue;
    const none = e.findings.vt1_time_s === null && e.findings.vt2_time_s === null ? ': none placed in this recording (see Ventilatory thresholds)' : '';
    items.push(
      h(
        'li',
        { 'data-engine': e.name, 'data-color': e.color },
        swatch(e.color, e.dashed),
        ` VT1 and VT2, ${e.ran} (${e.role === 'default' ? 'default model, solid' : 'alternative engine, dashed'})${none}`,
        e.implausible.length
          ? h(
              'ul',
              { class: 'warnings' },
              e.implausible.map((x) => h('li', { class: 'warning', 'data-code': x.code }, `⚠ ${x.detail}`)),
            )
          : null,
      ),
    );
  }
  if (state.landmarks.length) items.push(h('li', {}, '▼ landmarks (corroborate a model, never override it): ', state.landmarks.map((m) => `${m.short} ${m.label}`).join(', ')));
  const notFound = landmarksValue(results)?.not_found ?? {};
  if (Object.keys(notFound).length)
    items.push(
      h(
        'li',
        {},
        'Landmarks not placed: ',
        Object.entries(notFound)
          .map(([k, why]) => `${landmarkName(k)} (${why})`)
          .join('; '),
      ),
    );
  if (!results.domains.ok) {
    const e = results.domains.error;
    items.push(h('li', {}, 'No domain band: ', e instanceof CpetApiError ? plain(e.message) : String(e)));
  } else if (results.domains.value.status === 'not_analysable') {
    const d = results.domains.value;
    items.push(h('li', {}, 'No domain band: ', plain(d.message)));
  }
  if (state.domains) {
    items.push(
      h(
        'li',
        {},
        swatch(DOMAIN.moderate),
        swatch(DOMAIN.heavy),
        swatch(DOMAIN.severe),
        ` Domain band under each time axis: probability of the moderate, heavy and severe domains per second (${state.domains.model} ${state.domains.model_version}); the recovery is not analysed.`,
      ),
    );
  }
  items.push(h('li', {}, swatch(READING, true), ' reading aid (placed by you; not stored, not an answer)'));
  return h('ul', { class: 'legend' }, items);
}

export interface PlotView {
  grid: PlotGrid;
  state: OverlayState;
  destroy(): void;
}

export function renderPlot(section: HTMLElement, results: Results, state: OverlayState): PlotView | null {
  section.hidden = false;
  const end = exerciseEnd(results.summary);
  if (end === null) delete section.dataset.exerciseEnd;
  else section.dataset.exerciseEnd = String(end);
  if (!results.series.ok) {
    replace(section, heading('plot-title', 'Wasserman nine-panel plot'), errorBox('The series for the plot could not be read', results.series.error));
    return null;
  }
  const series = results.series.value;
  const rangeText = h('span', { id: 'plot-range', class: 'status', role: 'status' });
  const slider = h('input', { id: 'reading-time', type: 'range', step: 1, 'aria-describedby': 'reading-readout' }) as HTMLInputElement;
  const readout = h('p', { id: 'reading-readout', class: 'readout', role: 'status', 'aria-live': 'polite' }, 'Drag a VT line on a time panel, or use the slider, to read the values at any moment.');
  let frame = 0;
  const redrawSoon = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => grid.redraw());
  };

  const lines = {
    VO2: lineOf(series, 'VO2'),
    HR: lineOf(series, 'HR'),
    load: lineOf(series, results.summary.load.channel ?? 'Load'),
  };
  const vo2peak = vtFindings(results.analyses)?.vo2peak_ml_min ?? null;
  const setReading = (t: number) => {
    state.reading = t;
    slider.value = String(t);
    slider.setAttribute('aria-valuetext', clock(t));
    const mean = (l: typeof lines.VO2) => (l ? meanAround(l, t, READING_HALF_WIDTH_S) : null);
    const vo2 = mean(lines.VO2);
    const hr = mean(lines.HR);
    const load = mean(lines.load);
    const loadUnit = results.summary.load.channel === 'Speed' ? 'km/h' : 'W';
    replace(
      readout,
      h('strong', {}, `Reading aid at ${clock(t)} (${t} s)`),
      `, 30-s means of the plotted series: VO2 ${vo2 === null ? 'not recorded' : `${num(vo2)} mL/min`}`,
      vo2 !== null && vo2peak ? `, ${pct(vo2 / vo2peak)} of VO2peak (${num(vo2peak)} mL/min)` : '',
      `; HR ${hr === null ? 'not recorded' : `${num(hr)} beats/min`}`,
      `; ${results.summary.load.channel === 'Speed' ? 'speed' : 'load'} ${load === null ? 'not recorded' : `${num(load)} ${loadUnit}`}.`,
      h('span', { class: 'aid-note' }, " Not stored, not exported, and not the model's answer: the thresholds are in the table below."),
    );
    redrawSoon();
  };

  const grid = buildPlotGrid({
    summary: results.summary,
    series,
    state,
    onRange: (min, max) => {
      rangeText.textContent = `Showing ${clock(min)}–${clock(max)}`;
    },
    onReadingDrag: setReading,
  });
  const [t0, t1] = grid.fullRange;
  slider.min = String(Math.floor(t0));
  slider.max = String(Math.ceil(t1));
  slider.value = String(Math.round((t0 + t1) / 2));
  slider.addEventListener('input', () => setReading(Number(slider.value)));
  rangeText.textContent = `Showing ${clock(t0)}–${clock(t1)}`;

  const zoom = (factor: number) => {
    const [a, b] = grid.range();
    const c = (a + b) / 2;
    const half = ((b - a) * factor) / 2;
    grid.setRange(c - half, c + half);
  };
  const pan = (fraction: number) => {
    const [a, b] = grid.range();
    const shift = (b - a) * fraction;
    const lo = Math.min(Math.max(a + shift, t0), t1 - (b - a));
    grid.setRange(lo, lo + (b - a));
  };

  replace(
    section,
    heading('plot-title', 'Wasserman nine-panel plot'),
    h(
      'p',
      { class: 'help' },
      'Drag across a time panel to zoom, double-click it to show the whole test; the six time panels move together. The series are for plotting only (downsampled by LTTB above 5000 points); every number comes from the full-resolution recording.',
    ),
    h(
      'div',
      { class: 'toolbar', role: 'group', 'aria-label': 'Time axis of the time panels' },
      h('button', { type: 'button', id: 'zoom-in', onclick: () => zoom(0.5) }, 'Zoom in'),
      h('button', { type: 'button', id: 'zoom-out', onclick: () => zoom(2) }, 'Zoom out'),
      h('button', { type: 'button', id: 'pan-left', onclick: () => pan(-0.25) }, '← Earlier'),
      h('button', { type: 'button', id: 'pan-right', onclick: () => pan(0.25) }, 'Later →'),
      h('button', { type: 'button', id: 'zoom-reset', onclick: () => grid.setRange(t0, t1) }, 'Whole test'),
      rangeText,
    ),
    legend(results, state),
    grid.element,
    h('div', { class: 'reading-aid' }, h('label', { for: 'reading-time' }, 'Reading line (time)'), slider, readout),
  );
  for (const el of section.querySelectorAll<HTMLElement>('.swatch')) el.style.setProperty('--swatch', el.dataset.color ?? '#000');
  requestAnimationFrame(() => grid.redraw());
  return {
    grid,
    state,
    destroy: () => {
      cancelAnimationFrame(frame);
      grid.destroy();
    },
  };
}
