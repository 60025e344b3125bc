/**
 * The run's summary table, one row per file: the format, the thresholds (time and VO2), VO2peak,
 * FATMAX, the EOV grade, the input quality, and every refusal (per analysis, per metric, and the
 * file's own when it failed), so a lab can sort 300 files in a spreadsheet and open the JSON of the
 * ones that need a look.
 */
import { envelopesOf } from '../../../clients/typescript/src/index.js';
import type { FileOutcome } from './outcome.js';

export const SUMMARY_COLUMNS = [
  'file',
  'status',
  'format',
  'format_confidence',
  'quality',
  'vt1_time_s',
  'vt1_vo2_ml_min',
  'vt2_time_s',
  'vt2_vo2_ml_min',
  'vo2peak_ml_min',
  'fatmax_pct_vo2peak',
  'fatmax_fat_g_min',
  'fatmax_load_w',
  'eov_grade',
  'vt_refusal',
  'eov_refusal',
  'substrate_refusal',
  'metrics_unavailable',
  'error',
  'message',
] as const;

type Column = (typeof SUMMARY_COLUMNS)[number];
type Cell = string | number | boolean | null | undefined;

/** One file's row. */
export function summaryRow(outcome: FileOutcome): Record<Column, Cell> {
  const { vt, eov, substrate } = envelopesOf({ results: outcome.analyses });
  const vo2max = outcome.metrics.vo2max;
  const fatmax = substrate?.findings?.fatmax.found ? substrate.findings.fatmax : null;
  const unavailable = Object.entries(outcome.metrics)
    .filter(([, m]) => m?.status === 'unavailable')
    .map(([name, m]) => `${name}:${m?.status === 'unavailable' ? m.error : ''}`);
  return {
    file: outcome.file,
    status: outcome.status,
    format: outcome.summary?.source.format,
    format_confidence: outcome.summary?.source.format_confidence,
    quality: outcome.analyses[0]?.quality,
    vt1_time_s: vt?.findings?.vt1_time_s,
    vt1_vo2_ml_min: vt?.findings?.vt1_vo2_ml_min,
    vt2_time_s: vt?.findings?.vt2_time_s,
    vt2_vo2_ml_min: vt?.findings?.vt2_vo2_ml_min,
    vo2peak_ml_min: vo2max?.status === 'ok' ? vo2max.value : null,
    fatmax_pct_vo2peak: fatmax?.pct_vo2peak,
    fatmax_fat_g_min: fatmax?.fat_g_min,
    fatmax_load_w: fatmax?.load,
    eov_grade: eov?.findings?.grade,
    vt_refusal: vt?.error,
    eov_refusal: eov?.error,
    substrate_refusal: substrate?.error,
    metrics_unavailable: unavailable.join(' '),
    error: outcome.error?.error,
    message: outcome.error?.message,
  };
}

/** A CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break. */
function cell(value: Cell): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The whole table, header first, CRLF line ends as RFC 4180 and spreadsheets expect. */
export function summaryCsv(outcomes: readonly FileOutcome[]): string {
  const lines = [
    SUMMARY_COLUMNS.join(','),
    ...outcomes.map((o) => {
      const row = summaryRow(o);
      return SUMMARY_COLUMNS.map((c) => cell(row[c])).join(',');
    }),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
