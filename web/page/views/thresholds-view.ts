/**
 * VT1 and VT2 of the default model and of the alternative engine side by side, each with its
 * provenance, notes and evidence. Neither overrides the other, and landmarks corroborate a model
 * without overriding it (spec 1, rule 2).
 */
import type { Envelope, VtFindings, WebModel } from '../../client/index.js';
import { badge, h, heading, replace } from '../dom.js';
import { at, num, words } from '../format.js';
import { envelopeOf, type Outcome, type Results } from '../results.js';
import type { AnalyzeResponse } from '../../client/index.js';
import { errorBox, refusalBox } from './error-view.js';

interface Column {
  title: string;
  role: string;
  model: WebModel | null;
  run: Outcome<AnalyzeResponse>;
}

function pctText(v: number | null | undefined): string {
  return v === null || v === undefined ? '–' : `${num(v, 1)} %`;
}

function evidence(findings: VtFindings): HTMLElement | null {
  const ev = findings.evidence as Record<string, unknown> | undefined;
  if (!ev) return null;
  const items: HTMLElement[] = [];
  for (const [key, value] of Object.entries(ev)) {
    if (Array.isArray(value)) {
      items.push(
        h('li', {}, h('strong', {}, words(key)), h('ul', {}, value.map((c: Record<string, unknown>) => h('li', {}, `${String(c.criterion ?? '')}${typeof c.time_s === 'number' ? ` at ${at(c.time_s)}` : ''}: ${c.accepted ? 'accepted' : 'not accepted'}${c.why ? ` (${String(c.why)})` : ''}`)))),
      );
    } else items.push(h('li', {}, h('strong', {}, words(key)), `: ${typeof value === 'number' ? num(value) : String(value)}`));
  }
  return h('details', { class: 'evidence' }, h('summary', {}, 'Evidence the engine read'), h('ul', {}, items));
}

function cell(column: Column, pick: (e: Envelope, f: VtFindings | null) => unknown): HTMLElement | string {
  if (!column.run.ok) return '';
  const e = envelopeOf(column.run, 'vt');
  if (!e) return '';
  const value = pick(e, e.status === 'ok' ? (e.findings as VtFindings) : null);
  return value instanceof HTMLElement ? value : String(value ?? '–');
}

export function renderThresholds(section: HTMLElement, results: Results): void {
  const models = results.models.ok ? results.models.value : [];
  const defaultModel = models.find((m) => m.default) ?? null;
  const columns: Column[] = [
    { title: 'Default model', role: 'default', model: defaultModel, run: results.analyses },
    ...results.alternatives.map((a) => ({ title: 'Alternative engine', role: 'alternative', model: a.model, run: a.run })),
  ];
  const head = (c: Column): HTMLElement => {
    const e = envelopeOf(c.run, 'vt');
    const name = e ? `${e.provenance.model} ${e.provenance.model_version ?? ''}` : c.model ? `${c.model.name} ${c.model.version}` : '';
    return h('th', { scope: 'col', 'data-role': c.role }, c.title, h('br'), h('span', { class: 'model-name' }, name), c.role === 'alternative' ? badge('web only', 'web') : null, c.model?.status === 'research' ? badge('research') : null);
  };
  const rows: [string, (e: Envelope, f: VtFindings | null) => unknown][] = [
    ['Status', (e) => (e.status === 'ok' ? 'ok' : refusalBox(e))],
    ['VT1 time', (_e, f) => (f ? at(f.vt1_time_s) : '–')],
    ['VT1 VO2', (_e, f) => (f?.vt1_vo2_ml_min != null ? `${num(f.vt1_vo2_ml_min)} mL/min` : '–')],
    ['VT1 % of VO2peak', (_e, f) => pctText(f?.vt1_pct_vo2peak)],
    ['VT2 time', (_e, f) => (f ? at(f.vt2_time_s) : '–')],
    ['VT2 VO2', (_e, f) => (f?.vt2_vo2_ml_min != null ? `${num(f.vt2_vo2_ml_min)} mL/min` : '–')],
    ['VT2 % of VO2peak', (_e, f) => pctText(f?.vt2_pct_vo2peak)],
    ['VO2peak', (_e, f) => (f?.vo2peak_ml_min != null ? `${num(f.vo2peak_ml_min)} mL/min` : '–')],
    ['Engine', (_e, f) => f?.engine ?? '–'],
    ['Input quality', (e) => `${e.quality} (the input recording, not a confidence)`],
    ['Provenance', (e) => h('ul', { class: 'plain' }, h('li', {}, `model ${e.provenance.model} ${e.provenance.model_version ?? ''}, tier ${e.provenance.model_tier ?? '–'}`), h('li', {}, `analysis ${e.provenance.analysis_version}, schema ${e.provenance.schema_version}`), h('li', {}, `computed ${e.provenance.computed_at} in ${num(e.provenance.latency_ms)} ms`))],
    ['Notes', (e) => (e.notes.length ? h('ul', { class: 'notes' }, e.notes.map((n) => h('li', {}, n))) : 'none')],
    ['Evidence', (_e, f) => (f ? evidence(f) : '–')],
  ];
  const failed = columns.filter((c) => !c.run.ok);
  replace(
    section,
    heading('thresholds-title', 'Ventilatory thresholds'),
    h('p', { class: 'help' }, 'The default model and the alternative engine side by side; neither overrides the other. Landmarks on the plot corroborate a model and never override it. A line you drag on the plot is a reading aid, not a threshold.'),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'data thresholds', id: 'thresholds-table' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, ''), columns.map(head))),
        h('tbody', {}, rows.map(([label, pick]) => h('tr', {}, h('th', { scope: 'row' }, label), columns.map((c) => h('td', { 'data-role': c.role }, cell(c, pick)))))),
      ),
    ),
    failed.map((c) => errorBox(`${c.title}${c.model ? ` ${c.model.name}` : ''} could not run`, (c.run as { ok: false; error: unknown }).error)),
    results.analyses.ok && !envelopeOf(results.analyses, 'vt') ? h('p', {}, 'Not run: this key is not licensed for the vt analysis.') : null,
    results.alternatives.length === 0 && results.models.ok ? h('p', {}, 'No alternative engine is installed on this service.') : null,
    results.models.ok ? null : errorBox('The models served to the web application could not be listed', results.models.error),
  );
  section.hidden = false;
}
