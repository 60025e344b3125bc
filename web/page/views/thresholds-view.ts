/**
 * VT1 and VT2 of the default model and of the alternative engine side by side, each with its
 * provenance, notes and evidence. Neither overrides the other, and landmarks corroborate a model
 * without overriding it (spec 1, rule 2).
 */
import type { Envelope, EovFindings, VtFindings, WebModel } from '../../client/index.js';
import { badge, h, heading, replace } from '../dom.js';
import { at, num, words } from '../format.js';
import { engines, type Engine } from '../overlay-state.js';
import { envelopeOf, type Outcome, type Results } from '../results.js';
import type { AnalyzeResponse } from '../../client/index.js';
import { errorBox, plain, refusalBox } from './error-view.js';

interface Column {
  engine: Engine | undefined;
  title: string;
  role: string;
  model: WebModel | null;
  run: Outcome<AnalyzeResponse>;
}

function pctText(v: number | null | undefined): string {
  return v === null || v === undefined ? '–' : `${num(v, 1)} %`;
}

interface Criterion {
  criterion?: string;
  time_s?: number | null;
  accepted?: boolean;
  why?: string;
}

/** One criterion in words: what it is, where it broke, and whether it counted. */
function criterionText(c: Criterion): string {
  const where = typeof c.time_s === 'number' ? ` at ${at(c.time_s)}` : '';
  const why = c.why ? ` (${c.why})` : '';
  return `${c.criterion ?? 'criterion'}${where}: ${c.accepted ? 'accepted' : 'not accepted'}${why}`;
}

/** The criteria an engine read, per threshold, when its evidence lists them (the classic engine does). */
function criteriaRan(findings: VtFindings): HTMLElement | null {
  const ev = (findings.evidence ?? {}) as Record<string, unknown>;
  const groups = (['vt1', 'vt2'] as const).map((k) => [k.toUpperCase(), ev[`${k}_criteria`]] as const).filter(([, v]) => Array.isArray(v) && v.length);
  if (!groups.length) return null;
  return h(
    'ul',
    { class: 'plain criteria-ran' },
    groups.map(([line, list]) =>
      h(
        'li',
        {},
        h('strong', {}, `${line}: `),
        h(
          'ul',
          {},
          (list as Criterion[]).map((c) => h('li', {}, criterionText(c))),
        ),
      ),
    ),
  );
}

/** The criteria that could not run and the channels they lacked, in any of the shapes an engine may list them. */
function criteriaNotRun(findings: VtFindings): HTMLElement | null {
  const list = ((findings.evidence ?? {}) as Record<string, unknown>).criteria_not_run;
  if (!Array.isArray(list) || !list.length) return null;
  const text = (c: unknown): string => {
    if (typeof c === 'string') return c;
    const o = (c ?? {}) as Record<string, unknown>;
    const name = String(o.criterion ?? o.name ?? 'criterion');
    const missing = [o.missing, o.missing_channels, o.channels].find(Array.isArray) as string[] | undefined;
    return missing?.length ? `${name}: needs ${missing.join(', ')}, not in this recording` : name;
  };
  return h(
    'ul',
    { class: 'plain criteria-not-run' },
    list.map((c) => h('li', {}, text(c))),
  );
}

/** Every other field of the evidence, collapsed: numbers and words only, lists already shown above. */
function evidence(findings: VtFindings): HTMLElement | null {
  const ev = findings.evidence as Record<string, unknown> | undefined;
  if (!ev) return null;
  const items: HTMLElement[] = [];
  for (const [key, value] of Object.entries(ev)) {
    if (['vt1_criteria', 'vt2_criteria', 'criteria_not_run', 'implausible'].includes(key)) continue;
    if (Array.isArray(value))
      items.push(
        h(
          'li',
          {},
          h('strong', {}, words(key)),
          h(
            'ul',
            {},
            value.map((c: Criterion) => h('li', {}, typeof c === 'object' && c ? criterionText(c) : String(c))),
          ),
        ),
      );
    else if (value === null || typeof value !== 'object') items.push(h('li', {}, h('strong', {}, words(key)), `: ${typeof value === 'number' ? num(value) : String(value)}`));
  }
  return items.length ? h('details', { class: 'evidence' }, h('summary', {}, 'More of what the engine read'), h('ul', {}, items)) : null;
}

/** The page's plausibility warnings for one engine, beside its numbers. */
function warnings(engine: Engine | undefined): HTMLElement | string {
  if (!engine?.findings) return '–';
  if (!engine.implausible.length) return 'no warning';
  return h(
    'ul',
    { class: 'warnings' },
    engine.implausible.map((x) => h('li', { class: 'warning', 'data-code': x.code }, `⚠ ${x.detail}`)),
  );
}

/** The oscillation caveat: an EOV grade other than none makes every engine's thresholds less reliable. */
export function oscillationCaveat(results: Results): string | null {
  const e = envelopeOf(results.analyses, 'eov');
  const grade = e?.status === 'ok' ? (e.findings as EovFindings).grade : null;
  if (!grade || grade === 'none') return null;
  return `Oscillatory ventilation is graded ${grade} in this test (see Oscillatory ventilation below). Its swings in ventilation blur the breakpoints every threshold engine reads, so read these thresholds as less reliable.`;
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
  const all = engines(results);
  const columns: Column[] = [
    { engine: all[0], title: 'Default model', role: 'default', model: defaultModel, run: results.analyses },
    ...results.alternatives.map((a, i) => ({ engine: all[i + 1], title: 'Alternative engine', role: 'alternative', model: a.model, run: a.run })),
  ];
  const head = (c: Column): HTMLElement => {
    const e = envelopeOf(c.run, 'vt');
    const name = e ? `${e.provenance.model} ${e.provenance.model_version ?? ''}` : c.model ? `${c.model.name} ${c.model.version}` : '';
    const swatch = c.engine ? h('span', { class: `swatch${c.engine.dashed ? ' dashed' : ''}`, 'data-color': c.engine.color, 'aria-hidden': 'true' }) : null;
    return h(
      'th',
      { scope: 'col', 'data-role': c.role },
      swatch,
      c.title,
      h('br'),
      h('span', { class: 'model-name' }, name),
      c.role === 'alternative' ? badge('web only', 'web') : null,
      c.model?.status === 'research' ? badge('research') : null,
    );
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
    ['Plausibility', (e) => (e.status === 'ok' ? warnings(columns.find((c) => envelopeOf(c.run, 'vt') === e)?.engine) : '–')],
    ['Criteria that ran', (_e, f) => (f ? (criteriaRan(f) ?? 'not listed by this engine') : '–')],
    ['Criteria that could not run', (_e, f) => (f ? (criteriaNotRun(f) ?? 'none listed') : '–')],
    ['Engine', (_e, f) => f?.engine ?? '–'],
    ['Input quality', (e) => `${e.quality} (the input recording, not a confidence)`],
    [
      'Provenance',
      (e) =>
        h(
          'ul',
          { class: 'plain' },
          h('li', {}, `model ${e.provenance.model} ${e.provenance.model_version ?? ''}, tier ${e.provenance.model_tier ?? '–'}`),
          h('li', {}, `analysis ${e.provenance.analysis_version}, schema ${e.provenance.schema_version}`),
          h('li', {}, `computed ${e.provenance.computed_at} in ${num(e.provenance.latency_ms)} ms`),
        ),
    ],
    [
      'Notes',
      (e) =>
        e.notes.length
          ? h(
              'ul',
              { class: 'notes' },
              e.notes.map((n) => h('li', {}, plain(n))),
            )
          : 'none',
    ],
    ['Evidence', (_e, f) => (f ? evidence(f) : '–')],
  ];
  const failed = columns.filter((c) => !c.run.ok);
  const caveat = oscillationCaveat(results);
  replace(
    section,
    heading('thresholds-title', 'Ventilatory thresholds'),
    caveat ? h('p', { class: 'caveat', id: 'oscillation-caveat' }, `⚠ ${caveat}`) : null,
    h(
      'p',
      { class: 'help' },
      'The default model and the alternative engines side by side, each in its own colour on the plot; neither overrides the other. Landmarks on the plot corroborate a model and never override it. A line you drag on the plot is a reading aid, not a threshold.',
    ),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'data thresholds', id: 'thresholds-table' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, ''), columns.map(head))),
        h(
          'tbody',
          {},
          rows.map(([label, pick]) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row' }, label),
              columns.map((c) => h('td', { 'data-role': c.role }, cell(c, pick))),
            ),
          ),
        ),
      ),
    ),
    failed.map((c) => errorBox(`${c.title}${c.model ? ` ${c.model.name}` : ''} could not run`, (c.run as { ok: false; error: unknown }).error)),
    results.analyses.ok && !envelopeOf(results.analyses, 'vt') ? h('p', {}, 'Not run: this key is not licensed for the vt analysis.') : null,
    results.alternatives.length === 0 && results.models.ok ? h('p', {}, 'No alternative engine is installed on this service.') : null,
    results.models.ok ? null : errorBox('The models served to the web application could not be listed', results.models.error),
  );
  for (const el of section.querySelectorAll<HTMLElement>('.swatch')) el.style.setProperty('--swatch', el.dataset.color ?? '#000');
  section.hidden = false;
}
