/**
 * The printable one-page report (browser print to PDF): the recording, the plot, both engines'
 * thresholds with provenance, EOV, substrate and the main metrics, and every note that must travel
 * with the numbers, under the research-software disclaimer. Hidden on screen; the only thing printed.
 */
import type { EovFindings, SubstrateFindings, VtFindings } from '../../client/index.js';
import { h, replace } from '../dom.js';
import { at, num, words } from '../format.js';
import { DISCLAIMER, READING_RULES, resultNotes } from '../notes.js';
import { engines, vtFindings } from '../overlay-state.js';
import { envelopeOf, type Results } from '../results.js';
import { oscillationCaveat } from './thresholds-view.js';
import { plain } from './error-view.js';
import { keyWords, valueText } from './metrics-view.js';

/** Metrics the report names when the registry has them (the full table is in the exports). */
const REPORT_METRICS = ['vo2max', 'vemax', 'rermax', 'o2_pulse', 've_vco2_slope', 'gas_quality'];

function thresholdRow(label: string, run: Results['analyses']): HTMLElement | null {
  const e = envelopeOf(run, 'vt');
  if (!e) return null;
  const name = `${e.provenance.model} ${e.provenance.model_version ?? ''}`;
  if (e.status !== 'ok') return h('tr', {}, h('th', { scope: 'row' }, `${label}: ${name}`), h('td', { colspan: 6 }, plain(e.message ?? 'not analysable')));
  const f = e.findings as VtFindings;
  return h(
    'tr',
    {},
    h('th', { scope: 'row' }, `${label}: ${name}`),
    h('td', {}, at(f.vt1_time_s)),
    h('td', {}, f.vt1_vo2_ml_min === null ? '–' : `${num(f.vt1_vo2_ml_min)} mL/min`),
    h('td', {}, f.vt1_pct_vo2peak == null ? '–' : `${num(f.vt1_pct_vo2peak, 1)} %`),
    h('td', {}, at(f.vt2_time_s)),
    h('td', {}, f.vt2_vo2_ml_min === null ? '–' : `${num(f.vt2_vo2_ml_min)} mL/min`),
    h('td', {}, f.vt2_pct_vo2peak == null ? '–' : `${num(f.vt2_pct_vo2peak, 1)} %`),
  );
}

function eovLine(results: Results): string {
  const e = envelopeOf(results.analyses, 'eov');
  if (!e) return 'not run (not licensed)';
  if (e.status !== 'ok') return plain(e.message ?? 'not analysable');
  const f = e.findings as EovFindings;
  const fired = (f.definitions ?? []).filter((d) => d.fired).map((d) => d.name);
  const event = f.event ? `, period ${num(f.event.period_peak_s)} s, amplitude ${num(f.event.amplitude_l_min)} L/min` : '';
  return `grade ${f.grade}${event}; ${fired.length ? `definitions fired: ${fired.join(', ')}` : 'no published definition fired'}.`;
}

function substrateLine(results: Results): string {
  const e = envelopeOf(results.analyses, 'substrate');
  if (!e) return 'not run (not licensed)';
  if (e.status !== 'ok') return plain(e.message ?? 'not analysable');
  const f = e.findings as SubstrateFindings;
  const fatmax = f.fatmax.found
    ? `FATMAX ${num(f.fatmax.fat_g_min)} g/min at ${num(f.fatmax.pct_vo2peak)} % VO2peak${f.fatmax.load != null ? ` (${num(f.fatmax.load)} W)` : ''} (fitted)`
    : `no FATMAX: ${f.fatmax.reason ?? ''}`;
  const crossover = f.crossover?.found ? `crossover at ${num(f.crossover.pct_vo2peak)} % VO2peak` : `no crossover${f.crossover?.reason ? `: ${f.crossover.reason}` : ''}`;
  return `${fatmax}; ${crossover}; ${f.protocol ?? ''} protocol${f.steady_state ? '' : ', no steady state'}.`;
}

function metricsLine(results: Results): string {
  if (!results.metrics.ok || !results.registry.ok) return 'not computed';
  return results.registry.value
    .filter((m) => REPORT_METRICS.includes(m.name))
    .map((info) => {
      const m = results.metrics.ok ? results.metrics.value.metrics[info.name] : undefined;
      if (!m) return `${words(info.name)}: not computed`;
      if (m.status !== 'ok') return `${words(info.name)}: unavailable (${keyWords(plain(m.message))})`;
      const value = m.value as unknown;
      // A profile (e.g. the VE/VCO2 slope over 25-100 % of exercise) is summarised by its last entry.
      const shown = typeof value === 'number' ? `${num(value)} ${info.unit ?? ''}` : valueText(Array.isArray(value) ? value.at(-1) : ((value as { verdict?: unknown }).verdict ?? value));
      return `${words(info.name)}: ${shown}`;
    })
    .join(' · ');
}

/** The plot image in words: the lines of every engine and the peak VO2. */
function plotAlt(results: Results): string {
  const lines = engines(results).flatMap((e) => (e.findings ? [`${e.ran}: VT1 ${at(e.findings.vt1_time_s)}, VT2 ${at(e.findings.vt2_time_s)}`] : []));
  const peak = vtFindings(results.analyses)?.vo2peak_ml_min;
  return `Wasserman nine-panel plot. ${lines.length ? `Thresholds: ${lines.join('; ')}.` : 'No threshold placed.'}${peak ? ` VO2peak ${num(peak)} mL/min.` : ''}`;
}

/** Fills the report element; `plotImage` is the nine-panel PNG as a data URL (null without a plot). */
export function buildReport(report: HTMLElement, results: Results, plotImage: string | null): void {
  const s = results.summary;
  const notes = resultNotes(results);
  const caveat = oscillationCaveat(results);
  const warnings = engines(results).flatMap((e) => e.implausible.map((x) => `⚠ ${e.ran}: ${x.detail}`));
  replace(
    report,
    h('h1', {}, 'CPET analysis report'),
    h(
      'p',
      { class: 'report-meta' },
      `${s.source.filename} · ${s.source.format} · ${s.sampling.method.replace(/_/g, ' ')}, ${at(s.sampling.duration_s)} · recording ${s.cpet_id} · printed ${new Date().toISOString()}`,
    ),
    h('p', { class: 'report-disclaimer' }, DISCLAIMER),
    plotImage ? h('img', { class: 'report-plot', src: plotImage, alt: plotAlt(results) }) : h('p', {}, 'No plot: the series could not be read.'),
    h(
      'table',
      { class: 'report-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Thresholds', 'VT1 time', 'VT1 VO2', 'VT1 %pk', 'VT2 time', 'VT2 VO2', 'VT2 %pk'].map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      h(
        'tbody',
        {},
        thresholdRow('default', results.analyses),
        results.alternatives.map((a) => thresholdRow('alternative engine', a.run)),
      ),
    ),
    caveat ? h('p', { class: 'report-caveat' }, `⚠ ${caveat}`) : null,
    warnings.length
      ? h(
          'ul',
          { class: 'report-warnings' },
          warnings.map((w) => h('li', {}, w)),
        )
      : null,
    h('p', {}, h('strong', {}, 'EOV (research, beta): '), eovLine(results)),
    h('p', {}, h('strong', {}, 'Substrate: '), substrateLine(results)),
    h('p', {}, h('strong', {}, 'Metrics: '), metricsLine(results)),
    h('h2', {}, 'Notes that accompany these numbers'),
    h(
      'ul',
      { class: 'report-notes' },
      notes.map((n) => h('li', {}, h('em', {}, `${n.source}: `), n.text)),
      READING_RULES.map((r) => h('li', {}, r)),
    ),
  );
}
