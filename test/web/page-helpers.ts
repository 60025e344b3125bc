/**
 * Reading the page in the browser tests: threshold lines and bands found by colour on a panel's
 * canvas, the label boxes the overlay drew, and the text a reader sees.
 */
import type { Page } from 'playwright-core';

export function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export interface ColumnScan {
  /** Pixel columns (canvas px) where the colour fills most of the plot's height. */
  columns: number[];
  left: number;
  width: number;
  xMin: number;
  xMax: number;
}

/** Reads a panel's canvas: the columns drawn in `color` over at least 60 % of the plot area's height. */
export function scanPanel(page: Page, panel: string, color: [number, number, number]): Promise<ColumnScan> {
  return page.evaluate(
    ([id, [r, g, b]]) => {
      const fig = document.querySelector(`figure[data-panel="${id}"]`) as HTMLElement;
      const canvas = fig.querySelector('canvas') as HTMLCanvasElement;
      const over = (fig.querySelector('.u-over') as HTMLElement).getBoundingClientRect();
      const box = canvas.getBoundingClientRect();
      const k = canvas.width / box.width;
      const left = Math.round((over.left - box.left) * k);
      const top = Math.round((over.top - box.top) * k);
      const width = Math.round(over.width * k);
      const height = Math.round(over.height * k);
      const data = (canvas.getContext('2d') as CanvasRenderingContext2D).getImageData(0, 0, canvas.width, canvas.height).data;
      const columns: number[] = [];
      for (let x = left; x < left + width; x++) {
        let n = 0;
        for (let y = top; y < top + height; y++) {
          const i = (y * canvas.width + x) * 4;
          if (Math.abs(data[i] - r) <= 8 && Math.abs(data[i + 1] - g) <= 8 && Math.abs(data[i + 2] - b) <= 8) n++;
        }
        if (n >= 0.6 * height) columns.push(x);
      }
      return { columns, left, width, xMin: Number(fig.dataset.xMin), xMax: Number(fig.dataset.xMax) };
    },
    [panel, color] as const,
  );
}

/** Pixels of each colour in the band under a panel's time axis. */
export function scanBand(page: Page, panel: string, colors: [number, number, number][]): Promise<number[]> {
  return page.evaluate(
    ([id, wanted]) => {
      const fig = document.querySelector(`figure[data-panel="${id}"]`) as HTMLElement;
      const canvas = fig.querySelector('canvas') as HTMLCanvasElement;
      const over = (fig.querySelector('.u-over') as HTMLElement).getBoundingClientRect();
      const box = canvas.getBoundingClientRect();
      const k = canvas.width / box.width;
      const below = Math.round((over.bottom - box.top) * k);
      const data = (canvas.getContext('2d') as CanvasRenderingContext2D).getImageData(0, below, canvas.width, canvas.height - below).data;
      return wanted.map(([r, g, b]) => {
        let n = 0;
        for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - r) <= 3 && Math.abs(data[i + 1] - g) <= 3 && Math.abs(data[i + 2] - b) <= 3) n++;
        return n;
      });
    },
    [panel, colors] as const,
  );
}

/** The centre (canvas px) of the line nearest to `near`: pixel column c spans c to c + 1. */
export function lineAt(scan: ColumnScan, near: number): number | null {
  const close = scan.columns.filter((c) => Math.abs(c + 0.5 - near) <= 4);
  return close.length ? close.reduce((a, b) => a + b, 0) / close.length + 0.5 : null;
}

export function expectedX(scan: ColumnScan, t: number): number {
  return scan.left + ((t - scan.xMin) / (scan.xMax - scan.xMin)) * scan.width;
}

/** A label as the overlay drew it, in CSS px of its panel's canvas. */
export interface LabelBox {
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface PanelLabels {
  panel: string;
  boxes: LabelBox[];
  /** The plot area in the same CSS px. */
  plot: { left: number; top: number; right: number; bottom: number };
}

/** The label boxes of every drawn chart on the page (the nine panels, EOV, substrate). */
export function chartLabels(page: Page): Promise<PanelLabels[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.uplot')].map((root) => {
      const canvas = root.querySelector('canvas') as HTMLCanvasElement;
      const over = (root.querySelector('.u-over') as HTMLElement).getBoundingClientRect();
      const box = canvas.getBoundingClientRect();
      const figure = root.closest('[data-panel], section') as HTMLElement;
      return {
        panel: figure.dataset.panel ?? figure.id,
        boxes: JSON.parse(root.dataset.labels ?? '[]'),
        plot: { left: over.left - box.left, top: over.top - box.top, right: over.right - box.left, bottom: over.bottom - box.top },
      };
    }),
  );
}

/** Pairs of boxes that share any area. */
export function overlaps(boxes: LabelBox[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h) out.push([a.text, b.text]);
    }
  }
  return out;
}

/**
 * What a reader sees: the page's rendered text (closed details and hidden sections excluded), without
 * the canonical JSON example an unsupported file's error offers to copy (code on purpose) and the
 * parser flags, which quote the file's own column names as the file spells them.
 */
export function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const samples = [...document.querySelectorAll<HTMLElement>('[data-code-sample], [data-quotes-file]')];
    for (const el of samples) el.hidden = true;
    // innerText, not textContent: the check is about what a reader sees (hidden samples excluded, CSS applied).
    // biome-ignore lint/performance/useDomNodeTextContent: rendered text is the point
    const text = document.body.innerText;
    for (const el of samples) el.hidden = false;
    return text;
  });
}

/** API wording that must stay in the API: routes, JSON paths and keys, raw key-value dumps. */
export const API_WORDING: [string, RegExp][] = [
  ['a route', /\b(GET|POST|PUT|PATCH|DELETE)\s+\/|\/v1\//],
  ['a JSON path', /\b(?:context|evidence|findings|provenance)\.\w+|\b[a-z]\w*\.[a-z]\w*\[\d+\]/],
  ['a snake_case key', /\b[a-z][a-z0-9]*_[a-z0-9_]*[a-z0-9]\b/],
  ['an error code', /\b[A-Z]{2,}_[A-Z_]+\b/],
  ['a raw key dump', /\b(ci low|ci high|t end s|n source|slope before|slope after)\b/i],
];

/** Every API wording found in `text`, with a few characters around it. */
export function apiWording(text: string): string[] {
  return API_WORDING.flatMap(([what, re]) => {
    const global = new RegExp(re.source, `${re.flags}g`);
    return [...text.matchAll(global)].map((m) => `${what}: …${text.slice(Math.max(0, (m.index ?? 0) - 30), (m.index ?? 0) + m[0].length + 30).replace(/\s+/g, ' ')}…`);
  });
}
