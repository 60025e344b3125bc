/**
 * The results as files: JSON (every answer as the service gave it), CSV (one row per number), and the
 * plot as PNG. The reading line is never part of them.
 */
import type { EovFindings, SubstrateFindings, VtFindings } from '../client/index.js';
import { CpetApiError } from '../client/index.js';
import { DISCLAIMER, READING_RULES, resultNotes } from './notes.js';
import { envelopeOf, type Outcome, type Results } from './results.js';
import { valueText } from './views/metrics-view.js';

function outcome<T>(o: Outcome<T>): T | { error: unknown } {
  if (o.ok) return o.value;
  return { error: o.error instanceof CpetApiError ? o.error.body : String(o.error) };
}

export function resultsJson(results: Results): string {
  return JSON.stringify(
    {
      generated_at: new Date().toISOString(),
      disclaimer: DISCLAIMER,
      reading_rules: READING_RULES,
      recording: results.summary,
      analyses: outcome(results.analyses),
      alternative_engines: results.alternatives.map((a) => ({ model: a.model, analyses: outcome(a.run) })),
      metric_registry: outcome(results.registry),
      metrics: outcome(results.metrics),
      notes: resultNotes(results),
    },
    null,
    2,
  );
}

function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function resultsCsv(results: Results): string {
  const rows: unknown[][] = [['section', 'item', 'value', 'unit', 'note']];
  const s = results.summary;
  rows.push(
    ['recording', 'cpet_id', s.cpet_id, '', ''],
    ['recording', 'filename', s.source.filename, '', ''],
    ['recording', 'format', s.source.format, '', `detected, score ${s.source.detection_score}`],
    ['recording', 'duration', s.sampling.duration_s, 's', s.sampling.method],
  );
  const vtRows = (label: string, run: Results['analyses']) => {
    const e = envelopeOf(run, 'vt');
    if (!e) return;
    const model = `${label} ${e.provenance.model} ${e.provenance.model_version ?? ''}`.trim();
    if (e.status !== 'ok') {
      rows.push(['thresholds', model, '', '', `${e.error}: ${e.message}`]);
      return;
    }
    const f = e.findings as VtFindings;
    rows.push(
      ['thresholds', `${model} VT1 time`, f.vt1_time_s, 's', ''],
      ['thresholds', `${model} VT1 VO2`, f.vt1_vo2_ml_min, 'mL/min', ''],
      ['thresholds', `${model} VT1 %VO2peak`, f.vt1_pct_vo2peak ?? '', '%', ''],
      ['thresholds', `${model} VT2 time`, f.vt2_time_s, 's', ''],
      ['thresholds', `${model} VT2 VO2`, f.vt2_vo2_ml_min, 'mL/min', ''],
      ['thresholds', `${model} VT2 %VO2peak`, f.vt2_pct_vo2peak ?? '', '%', ''],
    );
  };
  vtRows('default', results.analyses);
  for (const a of results.alternatives) vtRows('alternative', a.run);
  const eov = envelopeOf(results.analyses, 'eov');
  if (eov?.status === 'ok') {
    const f = eov.findings as EovFindings;
    rows.push(
      ['eov (research, beta)', 'grade', f.grade, '', f.headline ?? ''],
      ['eov (research, beta)', 'period', f.event?.period_peak_s ?? '', 's', ''],
      ['eov (research, beta)', 'amplitude', f.event?.amplitude_l_min ?? '', 'L/min', ''],
      ['eov (research, beta)', 'burden', f.burden ?? '', 'fraction of exercise', ''],
    );
  } else if (eov) rows.push(['eov (research, beta)', 'refused', '', '', `${eov.error}: ${eov.message}`]);
  const sub = envelopeOf(results.analyses, 'substrate');
  if (sub?.status === 'ok') {
    const f = sub.findings as SubstrateFindings;
    rows.push(
      ['substrate', 'FATMAX fat', f.fatmax.found ? f.fatmax.fat_g_min : '', 'g/min', f.fatmax.found ? 'fitted point, not a measured sample' : (f.fatmax.reason ?? '')],
      ['substrate', 'FATMAX intensity', f.fatmax.found ? f.fatmax.pct_vo2peak : '', '% VO2peak', ''],
      ['substrate', 'crossover', f.crossover?.found ? f.crossover.pct_vo2peak : '', '% VO2peak', f.crossover?.found ? '' : (f.crossover?.reason ?? '')],
    );
  } else if (sub) rows.push(['substrate', 'refused', '', '', `${sub.error}: ${sub.message}`]);
  if (results.metrics.ok && results.registry.ok) {
    for (const info of results.registry.value) {
      const m = results.metrics.value.metrics[info.name];
      if (!m) continue;
      if (m.status === 'ok') rows.push(['metrics', info.name, typeof m.value === 'number' ? m.value : valueText(m.value), info.unit ?? '', '']);
      else rows.push(['metrics', info.name, '', info.unit ?? '', `unavailable: ${m.error}: ${m.message}`]);
    }
  }
  for (const n of resultNotes(results)) rows.push(['note', n.source, '', '', n.text]);
  for (const rule of READING_RULES) rows.push(['note', 'reading rule', '', '', rule]);
  rows.push(['note', 'disclaimer', '', '', DISCLAIMER]);
  return `${rows.map((r) => r.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** Offers a blob as a download named `filename`. */
export function download(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
