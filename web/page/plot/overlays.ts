/**
 * What the plot draws over the data, on the panels' own canvases (so a PNG export carries it):
 * VT1 and VT2 of the default model (solid) and of the alternative engine (dashed), the landmarks as
 * markers, the reading line (a reading aid, drawn dotted and labelled as such), shaded EOV events,
 * and under the time axis the per-second domain band.
 */
import uPlot from 'uplot';
import type { DomainsOk } from '../../client/index.js';
import { DOMAIN, EOV_SHADE, LANDMARK, READING } from './colors.js';

export interface ThresholdMark {
  label: string;
  t_s: number;
  vo2_ml_min: number | null;
  color: string;
  dashed: boolean;
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
        ctx.font = `${10 * px}px system-ui, sans-serif`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'top';
        state.landmarks.forEach((m, i) => {
          const x = pos(m.t_s, m.vo2_ml_min);
          if (x === null) return;
          ctx.fillStyle = LANDMARK;
          ctx.beginPath();
          ctx.moveTo(x - 4 * px, top);
          ctx.lineTo(x + 4 * px, top);
          ctx.lineTo(x, top + 7 * px);
          ctx.closePath();
          ctx.fill();
          ctx.fillText(m.short, x, top + (8 + (i % 3) * 10) * px);
        });
        ctx.textAlign = 'left';
        // The alternative engine's dashed lines first, so the default model's line stays whole on top.
        for (const m of [...state.thresholds].sort((a, b) => Number(b.dashed) - Number(a.dashed))) {
          const x = pos(m.t_s, m.vo2_ml_min);
          if (x === null) continue;
          ctx.fillStyle = m.color;
          verticalLine(ctx, x, top, height, 2 * px, m.dashed ? [6 * px, 4 * px] : null);
          ctx.textBaseline = m.dashed ? 'bottom' : 'top';
          ctx.fillText(m.label, x + 3 * px, m.dashed ? top + height - 2 * px : top + 2 * px);
        }
        if (state.reading !== null) {
          const x = pos(state.reading, null);
          if (x !== null) {
            ctx.fillStyle = READING;
            verticalLine(ctx, x, top, height, 1 * px, [2 * px, 3 * px]);
            ctx.textBaseline = 'bottom';
            ctx.fillText('reading aid', x + 3 * px, top + height - 14 * px);
          }
        }
        ctx.restore();
        if (band && state.domains && state.domains.t_s.length > 1) drawBand(u, state.domains, px);
      },
    },
  };
}
