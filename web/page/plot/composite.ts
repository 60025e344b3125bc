/**
 * One image of the nine panels, for the PNG export and the printed report: each panel's own canvas
 * (data, thresholds, landmarks, domain band) under its title, in the Wasserman order, with a legend
 * and the research-software line drawn under the grid.
 */
import uPlot from 'uplot';
import type { OverlayState } from './overlays.js';
import type { PlotGrid } from './plot-grid.js';

export interface LegendEntry {
  color: string;
  dashed: boolean;
  text: string;
}

const COLUMNS = 3;
/** Each panel's cell in CSS px: the image looks the same whatever the screen the page is on. */
const CELL_W = 420;
const CELL_H = 250;

/** Lines of `text` that fit `width` in the context's current font. */
function wrap(ctx: CanvasRenderingContext2D, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (line && ctx.measureText(next).width > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The composite image. The reading line is a reading aid and never leaves the page, so the panels are
 * redrawn without it for the image (uPlot draws in a microtask) and with it again afterwards.
 */
export async function compositeCanvas(grid: PlotGrid, state: OverlayState, title: string, legend: LegendEntry[], footer: string): Promise<HTMLCanvasElement> {
  const reading = state.reading;
  state.reading = null;
  grid.redraw();
  await new Promise<void>((resolve) => queueMicrotask(resolve));
  try {
    return draw(grid, title, legend, footer);
  } finally {
    state.reading = reading;
    grid.redraw();
  }
}

function draw(grid: PlotGrid, title: string, legend: LegendEntry[], footer: string): HTMLCanvasElement {
  const px = uPlot.pxRatio;
  const cellW = CELL_W * px;
  const cellH = CELL_H * px;
  const titleH = 20 * px;
  const headerH = 28 * px;
  const rows = Math.ceil(grid.panels.length / COLUMNS);
  const canvas = document.createElement('canvas');
  canvas.width = cellW * COLUMNS;
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
  // The legend and footer wrap to the image's width; their lines decide its height.
  ctx.font = `${11 * px}px system-ui, sans-serif`;
  const legendLines = legend.map((entry) => wrap(ctx, entry.text, canvas.width - 44 * px));
  const footerLines = wrap(ctx, footer, canvas.width - 16 * px);
  const legendH = (legendLines.flat().length * 16 + footerLines.length * 15 + 20) * px;
  canvas.height = headerH + rows * (cellH + titleH) + legendH;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#111827';
  ctx.textBaseline = 'middle';
  ctx.font = `600 ${15 * px}px system-ui, sans-serif`;
  ctx.fillText(title, 8 * px, headerH / 2);
  grid.panels.forEach((p, i) => {
    const x = (i % COLUMNS) * cellW;
    const y = headerH + Math.floor(i / COLUMNS) * (cellH + titleH);
    ctx.fillStyle = '#111827';
    ctx.font = `600 ${12 * px}px system-ui, sans-serif`;
    ctx.fillText(`${i + 1}  ${p.spec.title}`, x + 8 * px, y + titleH / 2);
    if (p.chart) {
      const source = p.chart.ctx.canvas;
      const scale = Math.min(cellW / source.width, cellH / source.height);
      ctx.drawImage(source, x, y + titleH, source.width * scale, source.height * scale);
    } else {
      ctx.fillStyle = '#f3f4f6';
      ctx.fillRect(x + 8 * px, y + titleH, cellW - 16 * px, cellH - 8 * px);
      ctx.fillStyle = '#4b5563';
      ctx.font = `${11 * px}px system-ui, sans-serif`;
      ctx.fillText(p.figure.querySelector('.panel-empty')?.textContent?.slice(0, 90) ?? 'not in this recording', x + 16 * px, y + titleH + cellH / 2);
    }
  });
  let y = headerH + rows * (cellH + titleH) + 10 * px;
  ctx.font = `${11 * px}px system-ui, sans-serif`;
  legend.forEach((entry, i) => {
    ctx.fillStyle = entry.color;
    if (entry.dashed) for (let k = 0; k < 3; k++) ctx.fillRect(8 * px + k * 8 * px, y - 1 * px, 5 * px, 3 * px);
    else ctx.fillRect(8 * px, y - 1 * px, 21 * px, 3 * px);
    ctx.fillStyle = '#111827';
    for (const line of legendLines[i]) {
      ctx.fillText(line, 36 * px, y);
      y += 16 * px;
    }
  });
  ctx.fillStyle = '#7f1d1d';
  for (const line of footerLines) {
    ctx.fillText(line, 8 * px, y + 2 * px);
    y += 15 * px;
  }
  return canvas;
}
