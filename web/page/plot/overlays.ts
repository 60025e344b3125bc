/**
 * What the plot draws over the data, on the panels' own canvases (so a PNG export carries it):
 * VT1 and VT2 of each engine in its own colour (the default model solid, alternative engines dashed),
 * a warning beside a line placed implausibly, the landmarks as markers, the reading line (a reading
 * aid, drawn dotted and labelled as such), shaded EOV events, and under the time axis the per-second
 * domain band. Labels are stacked in rows so that no two overlap, on screen and in every export.
 */
import uPlot from 'uplot';
import type { DomainsOk } from '../../client/index.js';
import { DOMAIN, EOV_SHADE, LANDMARK, READING, WARNING } from './colors.js';

export interface ThresholdMark {
  label: string;
  t_s: number;
  vo2_ml_min: number | null;
  color: string;
  dashed: boolean;
  /** A few words drawn beside the label in the warning colour when the line was placed implausibly. */
  warning?: string | null;
}

/** A label as drawn, in CSS px of the panel's canvas (kept on the panel for the layout tests). */
export interface LabelBox {
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface LandmarkMark {
  short: string;
  label: string;
  t_s: number;
  vo2_ml_min: number | null;
}

export interface Shade {
  t_start: number;
  t_end: number;
  strong: boolean;
}

/** Shared by every panel; a change is shown by redrawing the panels. */
export interface OverlayState {
  thresholds: ThresholdMark[];
  landmarks: LandmarkMark[];
  domains: DomainsOk | null;
  /** Time of the reading line, or null before the user places it. */
  reading: number | null;
  shades: Shade[];
}

/** Where a moment of the test falls on a panel's x axis (null when the panel cannot place it). */
export type XOf = (t_s: number, vo2_ml_min: number | null) => number | null;

/** Height of the time axis' ticks and labels, and of the domain band under them (CSS px). */
export const AXIS_PX = 30;
export const BAND_GAP_PX = 2;
export const BAND_PX = 12;

/** Label text in CSS px; a row holds one line of labels with a gap above the next. */
const LABEL_FONT_PX = 10;
const LABEL_ROW_PX = 12;
const LABEL_GAP_PX = 3;

/**
 * Places labels in rows from the top of the plot area: each goes in the first row where it clears
 * every label already there, so no two labels ever share pixels, however close their lines are.
 * `x0`/`x1` bound a label's preferred span; `flip` is the span on the other side of its line, used
 * when the preferred one would run out of the plot area.
 */
class LabelRows {
  private rows: [number, number][][] = [];
  constructor(
    private readonly left: number,
    private readonly right: number,
    private readonly top: number,
    private readonly bottom: number,
  ) {}

  place(span: [number, number], flip: [number, number] | null, gap: number, rowPx: number): { x: number; row: number } | null {
    let [x0, x1] = span;
    if (x1 > this.right && flip) [x0, x1] = flip;
    // Still past an edge (a label near it, or wider than the room beside its line): slide it inside.
    if (x1 > this.right) [x0, x1] = [this.right - (x1 - x0), this.right];
    if (x0 < this.left) [x0, x1] = [this.left, this.left + (x1 - x0)];
    for (let row = 0; this.top + (row + 1) * rowPx <= this.bottom; row++) {
      this.rows[row] ??= [];
      const taken = this.rows[row];
      if (taken.every(([a, b]) => x1 + gap <= a || x0 >= b + gap)) {
        taken.push([x0, x1]);
        return { x: x0, row };
      }
    }
    return null;
  }
}

/** A crisp vertical line centred on x: it starts on a whole pixel, so no column is half-covered. */
function verticalLine(ctx: CanvasRenderingContext2D, x: number, top: number, height: number, width: number, dash: number[] | null): void {
  const left = Math.round(x - width / 2);
  if (!dash) {
    ctx.fillRect(left, top, width, height);
    return;
  }
  const [on, off] = dash;
  for (let y = top; y < top + height; y += on + off) ctx.fillRect(left, y, width, Math.min(on, top + height - y));
}

function drawBand(u: uPlot, domains: DomainsOk, px: number): void {
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const y0 = top + height + (AXIS_PX + BAND_GAP_PX) * px;
  const h = BAND_PX * px;
  const xs = domains.t_s.map((t) => u.valToPos(t, 'x', true));
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, y0, width, h);
  ctx.clip();
  ctx.fillStyle = DOMAIN.severe;
  ctx.fillRect(xs[0], y0, xs[xs.length - 1] - xs[0], h);
  // Stacked from the bottom: moderate, then heavy; severe is what remains above them.
  const layers: [string, (i: number) => number][] = [
    [DOMAIN.heavy, (i) => domains.moderate[i] + domains.heavy[i]],
    [DOMAIN.moderate, (i) => domains.moderate[i]],
  ];
  for (const [color, level] of layers) {
    ctx.beginPath();
    ctx.moveTo(xs[0], y0 + h);
    for (let i = 0; i < xs.length; i++) ctx.lineTo(xs[i], y0 + h - h * Math.min(1, level(i)));
    ctx.lineTo(xs[xs.length - 1], y0 + h);
    ctx.closePath();
    ctx.fillStyle = color;
    ctx.fill();
  }
  ctx.restore();
  ctx.save();
  ctx.fillStyle = '#374151';
  ctx.font = `${10 * px}px system-ui, sans-serif`;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  ctx.fillText('domains', left - 4 * px, y0 + h / 2);
  ctx.restore();
}

/** The overlay as a uPlot plugin for one panel. `band` draws the domain band (time panels only). */
export function overlayPlugin(state: OverlayState, xOf: XOf, band: boolean): uPlot.Plugin {
  return {
    hooks: {
      draw: (u: uPlot) => {
        const px = uPlot.pxRatio;
        const { ctx } = u;
        const { left, top, width, height } = u.bbox;
        const pos = (t: number, vo2: number | null): number | null => {
          const x = xOf(t, vo2);
          if (x === null) return null;
          const p = Math.round(u.valToPos(x, 'x', true));
          return p >= left && p <= left + width ? p : null;
        };
        ctx.save();
        ctx.beginPath();
        ctx.rect(left, top, width, height);
        ctx.clip();
        for (const s of state.shades) {
          const a = u.valToPos(s.t_start, 'x', true);
          const b = u.valToPos(s.t_end, 'x', true);
          ctx.fillStyle = s.strong ? EOV_SHADE.strong : EOV_SHADE.weak;
          ctx.fillRect(a, top, b - a, height);
        }
        ctx.font = `${LABEL_FONT_PX * px}px system-ui, sans-serif`;
        ctx.textBaseline = 'top';
        ctx.textAlign = 'left';
        // Landmark markers hang from the top edge; every label goes in rows below them.
        const rows = new LabelRows(left, left + width, top + 9 * px, top + height);
        const boxes: LabelBox[] = [];
        const label = (text: string, warning: string | null, span: (w: number) => [number, number], flip: ((w: number) => [number, number]) | null, color: string) => {
          const main = ctx.measureText(text).width;
          const extra = warning ? ctx.measureText(` ${warning}`).width : 0;
          const w = Math.ceil(main + extra);
          const at = rows.place(span(w), flip ? flip(w) : null, LABEL_GAP_PX * px, LABEL_ROW_PX * px);
          if (!at) return;
          const y = top + 9 * px + at.row * LABEL_ROW_PX * px;
          ctx.fillStyle = '#ffffffcc';
          ctx.fillRect(at.x, y, w, LABEL_FONT_PX * px + 1 * px);
          ctx.fillStyle = color;
          ctx.fillText(text, at.x, y);
          if (warning) {
            ctx.fillStyle = WARNING;
            ctx.fillText(` ${warning}`, at.x + main, y);
          }
          boxes.push({ text: warning ? `${text} ${warning}` : text, x: at.x / px, y: y / px, w: w / px, h: LABEL_FONT_PX });
        };
        // Dashed lines first, so the default model's solid line stays whole on top.
        const lines = [...state.thresholds].sort((a, b) => Number(b.dashed) - Number(a.dashed));
        const placed = lines.map((m) => ({ m, x: pos(m.t_s, m.vo2_ml_min) }));
        for (const { m, x } of placed) {
          if (x === null) continue;
          ctx.fillStyle = m.color;
          verticalLine(ctx, x, top, height, 2 * px, m.dashed ? [6 * px, 4 * px] : null);
        }
        const marks = state.landmarks.map((m) => ({ m, x: pos(m.t_s, m.vo2_ml_min) }));
        for (const { x } of marks) {
          if (x === null) continue;
          ctx.fillStyle = LANDMARK;
          ctx.beginPath();
          ctx.moveTo(x - 4 * px, top);
          ctx.lineTo(x + 4 * px, top);
          ctx.lineTo(x, top + 7 * px);
          ctx.closePath();
          ctx.fill();
        }
        // Threshold labels take the top rows (the default model's first), landmarks the rows left.
        const byImportance = [...placed].sort((a, b) => Number(a.m.dashed) - Number(b.m.dashed) || (a.x ?? 0) - (b.x ?? 0));
        for (const { m, x } of byImportance) {
          if (x === null) continue;
          label(
            m.label,
            m.warning ?? null,
            (w) => [x + 3 * px, x + 3 * px + w],
            (w) => [x - 3 * px - w, x - 3 * px],
            m.color,
          );
        }
        for (const { m, x } of [...marks].sort((a, b) => (a.x ?? 0) - (b.x ?? 0))) {
          if (x === null) continue;
          label(m.short, null, (w) => [x - w / 2, x + w / 2], null, LANDMARK);
        }
        if (state.reading !== null) {
          const x = pos(state.reading, null);
          if (x !== null) {
            ctx.fillStyle = READING;
            verticalLine(ctx, x, top, height, 1 * px, [2 * px, 3 * px]);
            label(
              'reading aid',
              null,
              (w) => [x + 3 * px, x + 3 * px + w],
              (w) => [x - 3 * px - w, x - 3 * px],
              READING,
            );
          }
        }
        u.root.dataset.labels = JSON.stringify(boxes);
        ctx.restore();
        if (band && state.domains && state.domains.t_s.length > 1) drawBand(u, state.domains, px);
      },
    },
  };
}
