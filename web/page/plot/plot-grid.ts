/**
 * The nine panels as uPlot charts (canvas; fast enough for 5000 points per series). The six time
 * panels share their time axis: a zoom or pan on one (drag to zoom, double-click to reset, or the
 * buttons) moves them all, and their cursors move together. Dragging a threshold line on a time
 * panel places the reading line there.
 */
import uPlot from 'uplot';
import type { SeriesResponse, UploadSummary } from '../../client/index.js';
import { h } from '../dom.js';
import { clock, num } from '../format.js';
import { IMPLAUSIBLE } from './colors.js';
import { AXIS_PX, BAND_GAP_PX, BAND_PX, overlayPlugin, type OverlayState, type XOf } from './overlays.js';
import { panelSpecs, type PanelSpec } from './panel-specs.js';
import { lineOf, meanAround, timeColumns, xyColumns, type Line } from './series-data.js';

export interface Panel {
  spec: PanelSpec;
  figure: HTMLElement;
  chart: uPlot | null;
  xOf: XOf;
}

export interface PlotGrid {
  element: HTMLElement;
  panels: Panel[];
  /** The span of the time axis over all series, s. */
  fullRange: [number, number];
  range(): [number, number];
  setRange(min: number, max: number): void;
  redraw(): void;
  destroy(): void;
}

export interface PlotGridOptions {
  summary: UploadSummary;
  series: SeriesResponse | null;
  state: OverlayState;
  /** The time panels' shared range changed. */
  onRange(min: number, max: number): void;
  /** The user dragged the reading line to a time (s). */
  onReadingDrag(t_s: number): void;
}

const PANEL_HEIGHT_PX = 210;
/** Room for tick labels such as "4,000" beside the axis title. */
const Y_AXIS_PX = 54;
const GRAB_PX = 6;
/** An X-Y panel places a moment at the 30-s mean of its x series there, not at one noisy breath. */
const XY_MEAN_HALF_WIDTH_S = 15;
/** Tick spacings of a time axis, s (whole minutes once the span is long). */
export const TIME_STEPS = [10, 15, 30, 60, 120, 180, 300, 600, 900, 1200, 1800, 3600, 7200];

/** Why a panel has nothing to draw, from the summary's channel reasons. */
function missingReason(summary: UploadSummary, names: string[]): string {
  const derived: Record<string, string[]> = { O2pulse: ['VO2', 'HR'], 'VE/VO2': ['VE', 'VO2'], 'VE/VCO2': ['VE', 'VCO2'], RER: ['VO2', 'VCO2'] };
  const channels = summary.channels as Record<string, { present: boolean; reason?: string }>;
  const reasons = names.flatMap((n) => {
    const c = channels[n];
    if (c && !c.present && !derived[n]) return [`${n}: ${c.reason ?? 'not in the file'}`];
    if (derived[n]) return derived[n].filter((d) => !channels[d]?.present).map((d) => `${n} needs ${d} (${channels[d]?.reason ?? 'not in the file'})`);
    return [];
  });
  return reasons.length ? `Not in this recording: ${[...new Set(reasons)].join('; ')}.` : 'No samples to plot.';
}

/** A chart in words for screen readers and the printed report: each series' range and peak, and the lines drawn. */
export function chartText(title: string, lines: (Line | null)[], labels: string[], state: OverlayState): string {
  const series = lines.flatMap((l, i) => {
    if (!l) return [];
    let k = 0;
    for (let j = 1; j < l.v.length; j++) if (l.v[j] > l.v[k]) k = j;
    const unit = l.unit && l.unit !== 'ratio' ? ` ${l.unit}` : '';
    const flagged = l.implausible ? ` (${l.implausible.t.length} implausible samples left out)` : '';
    return [`${labels[i]} peaks at ${num(l.v[k])}${unit} at ${clock(l.t[k])}${flagged}`];
  });
  const thresholds = state.thresholds.map(
    (m) => `${m.label} at ${clock(m.t_s)}${m.vo2_ml_min !== null ? ` (VO2 ${num(m.vo2_ml_min)} mL/min)` : ''}${m.warning ? `, ${m.warning.replace('⚠', 'warning:')}` : ''}`,
  );
  const landmarks = state.landmarks.map((m) => `${m.label} at ${clock(m.t_s)}`);
  return [
    `${title}.`,
    series.length ? `${series.join('; ')}.` : '',
    thresholds.length ? `Thresholds drawn: ${thresholds.join('; ')}.` : 'No threshold is drawn.',
    landmarks.length ? `Landmarks: ${landmarks.join('; ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

function axisLabel(lines: (Line | null)[], specs: PanelSpec['series'], axis: 'y' | 'y2'): string {
  const on = specs.map((s, i) => ({ s, line: lines[i] })).filter((x) => x.s.axis === axis && x.line);
  const unit = on[0]?.line?.unit;
  const names = on.map((x) => x.s.label).join(', ');
  return unit && unit !== 'ratio' ? `${names} (${unit})` : names;
}

/** Builds the nine panels into a new grid element (append it, then call redraw after layout). */
export function buildPlotGrid(options: PlotGridOptions): PlotGrid {
  const { summary, series, state } = options;
  const load = summary.load.channel === 'Speed' ? 'Speed' : 'Load';
  const specs = panelSpecs(load);
  const element = h('div', { class: 'panel-grid' });
  const timeLines = specs
    .filter((s) => s.x === 'time')
    .flatMap((s) => s.series.map((x) => lineOf(series, x.name)))
    .filter((l): l is Line => l !== null);
  const fullRange: [number, number] = timeLines.length ? [Math.min(...timeLines.map((l) => l.t[0])), Math.max(...timeLines.map((l) => l.t[l.t.length - 1]))] : [0, 1];
  const panels: Panel[] = [];
  let syncing = false;
  let drawn = 0;
  performance.mark('cpet:nine-panels:start');

  const timePanels = () => panels.filter((p) => p.spec.x === 'time' && p.chart).map((p) => p.chart as uPlot);
  const markRange = (u: uPlot, figure: HTMLElement) => {
    const { min, max } = u.scales.x;
    if (min === undefined || max === undefined) return;
    figure.dataset.xMin = String(min);
    figure.dataset.xMax = String(max);
  };

  specs.forEach((spec, index) => {
    const figure = h('figure', {
      class: 'panel',
      'data-panel': spec.id,
      'data-x': spec.x === 'time' ? 'time' : spec.x,
      'aria-labelledby': `panel-${spec.id}-title`,
      'aria-describedby': `panel-${spec.id}-text`,
    });
    figure.appendChild(h('figcaption', { id: `panel-${spec.id}-title` }, h('span', { class: 'panel-no', 'aria-hidden': 'true' }, String(index + 1)), ` ${spec.title}`));
    element.appendChild(figure);
    const isTime = spec.x === 'time';
    const xLine = isTime ? null : lineOf(series, spec.x);
    const lines = spec.series.map((s) => lineOf(series, s.name));
    const xOf: XOf = isTime ? (t) => t : (t, vo2) => (spec.x === 'VO2' && vo2 !== null ? vo2 : xLine ? meanAround(xLine, t, XY_MEAN_HALF_WIDTH_S) : null);
    const panel: Panel = { spec, figure, chart: null, xOf };
    panels.push(panel);
    if ((!isTime && !xLine) || lines.every((l) => l === null)) {
      figure.appendChild(h('p', { class: 'panel-empty', id: `panel-${spec.id}-text` }, missingReason(summary, [...(isTime ? [] : [spec.x]), ...spec.series.map((s) => s.name)])));
      drawn++;
      return;
    }
    figure.appendChild(
      h(
        'p',
        { class: 'chart-text', id: `panel-${spec.id}-text` },
        chartText(
          spec.title,
          lines,
          spec.series.map((x) => x.label),
          state,
        ),
      ),
    );
    const absent = spec.series.filter((_, i) => !lines[i]);
    if (absent.length)
      figure.appendChild(
        h(
          'p',
          { class: 'panel-note' },
          missingReason(
            summary,
            absent.map((s) => s.name),
          ),
        ),
      );
    // Flagged samples (implausible HR and what derives from it) are drawn apart, as hollow points in their own colour.
    const flagged = spec.series.flatMap((x, i) => {
      const bad = lines[i]?.implausible;
      return bad && isTime ? [{ spec: x, line: { name: `${x.name} implausible`, unit: (lines[i] as Line).unit, t: bad.t, v: bad.v } }] : [];
    });
    const flaggedNote = spec.series.flatMap((x, i) => {
      const bad = lines[i]?.implausible;
      return bad
        ? [`${x.label}: ${bad.t.length} samples flagged as implausible (${bad.reason})${isTime ? ', drawn as hollow purple points' : ''} and left out of the line and of every value read from it`]
        : [];
    });
    if (flaggedNote.length) figure.appendChild(h('p', { class: 'panel-note warning', 'data-implausible': 'true' }, `⚠ ${flaggedNote.join('; ')}.`));
    const data = isTime ? timeColumns([...lines, ...flagged.map((f) => f.line)]) : xyColumns(xLine as Line, lines);
    const hasY2 = spec.series.some((s, i) => s.axis === 'y2' && lines[i]);
    const xUnit = xLine?.unit;
    const opts: uPlot.Options = {
      width: 400,
      height: PANEL_HEIGHT_PX,
      scales: { x: { time: false, ...(isTime ? { range: (_u, min, max) => [min, max] } : {}) } },
      axes: [
        isTime
          ? { scale: 'x', size: AXIS_PX + BAND_GAP_PX + BAND_PX, incrs: TIME_STEPS, values: (_u, splits) => splits.map((v) => clock(v)) }
          : { scale: 'x', label: `${spec.xLabel} (${xUnit})`, labelSize: 16, size: 28 },
        { scale: 'y', label: axisLabel(lines, spec.series, 'y'), labelSize: 16, size: Y_AXIS_PX },
        ...(hasY2 ? [{ scale: 'y2', side: 1 as const, label: axisLabel(lines, spec.series, 'y2'), labelSize: 16, size: Y_AXIS_PX, grid: { show: false } }] : []),
      ],
      series: [
        { label: isTime ? 'time' : spec.xLabel, value: (_u, v) => (v === null ? '–' : isTime ? clock(v) : num(v)) },
        ...spec.series.map((s, i) => ({
          label: s.label,
          scale: s.axis,
          stroke: s.color,
          width: 1,
          show: lines[i] !== null,
          spanGaps: true,
          value: (_u: uPlot, v: number | null) => (v === null ? '–' : num(v)),
          ...(isTime ? { points: { show: false } } : { paths: () => null, points: { show: true, size: 3, width: 0, fill: s.color, stroke: s.color } }),
        })),
        ...flagged.map((f) => ({
          label: `${f.spec.label} (implausible)`,
          scale: f.spec.axis,
          stroke: IMPLAUSIBLE,
          paths: () => null,
          points: { show: true, size: 6, width: 1.5, fill: '#ffffff', stroke: IMPLAUSIBLE },
          value: (_u: uPlot, v: number | null) => (v === null ? '–' : num(v)),
        })),
      ],
      cursor: isTime ? { sync: { key: 'cpet-time', setSeries: false }, drag: { x: true, y: false } } : { drag: { x: true, y: false } },
      legend: { show: true, live: true },
      plugins: [overlayPlugin(state, xOf, isTime)],
      hooks: {
        draw: [
          () => {
            if (figure.dataset.drawn) return;
            figure.dataset.drawn = 'true';
            if (++drawn === specs.length) performance.measure('cpet:nine-panels', 'cpet:nine-panels:start');
          },
        ],
        setScale: [
          (u, key) => {
            if (key !== 'x' || !isTime) return;
            markRange(u, figure);
            if (syncing) return;
            const { min, max } = u.scales.x;
            if (min === undefined || max === undefined) return;
            syncing = true;
            for (const other of timePanels()) if (other !== u) other.setScale('x', { min, max });
            syncing = false;
            options.onRange(min, max);
          },
        ],
      },
    };
    const host = h('div', { class: 'panel-plot' });
    figure.appendChild(host);
    const chart = new uPlot(opts, data, host);
    panel.chart = chart;
    if (isTime) {
      chart.setScale('x', { min: fullRange[0], max: fullRange[1] });
      enableLineDrag(chart, state, options.onReadingDrag);
    }
  });
  if (drawn === specs.length) performance.measure('cpet:nine-panels', 'cpet:nine-panels:start');

  const resize = new ResizeObserver(() => {
    for (const p of panels) {
      if (!p.chart) continue;
      const width = Math.max(240, Math.floor(p.figure.clientWidth));
      if (Math.abs(width - p.chart.width) > 1) p.chart.setSize({ width, height: PANEL_HEIGHT_PX });
    }
  });
  resize.observe(element);

  const first = () => timePanels()[0];
  return {
    element,
    panels,
    fullRange,
    range() {
      const u = first();
      return u ? [u.scales.x.min ?? fullRange[0], u.scales.x.max ?? fullRange[1]] : fullRange;
    },
    setRange(min, max) {
      const lo = Math.max(fullRange[0], min);
      const hi = Math.min(fullRange[1], max);
      first()?.setScale('x', { min: lo, max: Math.max(hi, lo + 1) });
    },
    redraw() {
      for (const p of panels) p.chart?.redraw(false, false);
    },
    destroy() {
      resize.disconnect();
      for (const p of panels) p.chart?.destroy();
    },
  };
}

/**
 * Dragging a threshold line (or the reading line) on a time panel moves the reading line; elsewhere
 * the panel's own drag-to-zoom applies. Listeners run in the capture phase so a grab never zooms.
 */
function enableLineDrag(u: uPlot, state: OverlayState, onDrag: (t_s: number) => void): void {
  const grabbable = (xCss: number): boolean => [...state.thresholds.map((m) => m.t_s), ...(state.reading === null ? [] : [state.reading])].some((t) => Math.abs(u.valToPos(t, 'x') - xCss) <= GRAB_PX);
  const localX = (e: MouseEvent): number => e.clientX - u.over.getBoundingClientRect().left;
  u.over.addEventListener('mousemove', (e) => {
    u.over.style.cursor = grabbable(localX(e)) ? 'ew-resize' : '';
  });
  u.root.addEventListener(
    'mousedown',
    (e) => {
      const x = localX(e);
      if (e.button !== 0 || !grabbable(x)) return;
      e.stopPropagation();
      e.preventDefault();
      const width = u.over.getBoundingClientRect().width;
      const move = (ev: MouseEvent) => onDrag(Math.round(u.posToVal(Math.min(width, Math.max(0, localX(ev))), 'x')));
      const up = () => {
        window.removeEventListener('mousemove', move);
        window.removeEventListener('mouseup', up);
      };
      window.addEventListener('mousemove', move);
      window.addEventListener('mouseup', up);
      move(e);
    },
    true,
  );
}
