/**
 * Every metric of the registry with its unit and reading notes; an `unavailable` one with its
 * reason and what was needed (spec 2.3: never a bare null).
 */
import type { MetricInfo, MetricResult } from '../../client/index.js';
import { h, heading, replace } from '../dom.js';
import { clock, num, words } from '../format.js';
import type { Results } from '../results.js';
import { contextView, errorBox, plain } from './error-view.js';

/** A field's name for a reader, where the plain reading of its key would be a key still. */
const FIELD_WORDS: Record<string, string> = {
  n: 'n',
  n_checks: 'checks run',
  n_passed: 'checks passed',
  ventilatory_class: 'ventilatory class',
};

/** Identifiers inside the service's prose (e.g. a check's name) as words. */
export function keyWords(text: string): string {
  return text.replace(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, (m) => FIELD_WORDS[m] ?? words(m));
}

/**
 * A metric value in words: numbers as numbers, records as short lists, deeper structure on demand.
 * A 95 % interval reads as one range, a time (a key ending in _s) as a clock time, a label first.
 */
export function valueText(value: unknown): string {
  if (typeof value === 'number') return num(value);
  if (typeof value === 'string') return keyWords(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (value === null || value === undefined) return '–';
  if (Array.isArray(value)) return value.map(valueText).join('; ');
  const o = value as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof o.ci_low === 'number' && typeof o.ci_high === 'number') parts.push(`95 % interval ${num(o.ci_low)} to ${num(o.ci_high)}`);
  for (const [k, v] of Object.entries(o)) {
    if (v === null || typeof v === 'object' || k === 'label' || k === 'ci_low' || k === 'ci_high') continue;
    if (/_s$/.test(k) && typeof v === 'number') parts.push(`${words(k.replace(/^t_/, '').replace(/_s$/, ''))} at ${clock(v)}`);
    else parts.push(`${FIELD_WORDS[k] ?? words(k)} ${valueText(v)}`);
  }
  const text = parts.join(', ');
  return typeof o.label === 'string' ? `${o.label}: ${text}` : text;
}

function valueCell(result: MetricResult, info: MetricInfo): HTMLElement {
  if (result.status !== 'ok') {
    return h(
      'div',
      { class: 'unavailable', 'data-error': result.error },
      h('strong', {}, 'unavailable'),
      ` ${keyWords(plain(result.message))}`,
      contextView(result.error, (result.context ?? {}) as Record<string, unknown>),
    );
  }
  const value = result.value as unknown;
  if (typeof value === 'number') return h('span', { class: 'value' }, `${num(value)}${info.unit && info.unit !== 'ratio' ? ` ${info.unit}` : ''}`);
  const shown = Array.isArray(value)
    ? h(
        'ul',
        { class: 'plain' },
        value.map((v) => h('li', {}, valueText(v))),
      )
    : h('span', { class: 'value' }, valueText(value));
  return h('div', {}, shown, h('details', {}, h('summary', {}, 'All fields'), h('pre', { tabindex: 0 }, JSON.stringify(value, null, 2))));
}

export function renderMetrics(section: HTMLElement, results: Results): void {
  section.hidden = false;
  const title = heading('metrics-title', 'Metrics');
  if (!results.registry.ok) {
    replace(section, title, errorBox('The metric registry could not be read', results.registry.error));
    return;
  }
  if (!results.metrics.ok) {
    replace(section, title, errorBox('The metrics could not be computed', results.metrics.error));
    return;
  }
  const computed = results.metrics.value.metrics;
  const rows = results.registry.value.map((info) => {
    const result = computed[info.name];
    return h(
      'tr',
      { 'data-metric': info.name, 'data-status': result?.status ?? 'missing' },
      h('th', { scope: 'row' }, words(info.name), h('details', { class: 'help' }, h('summary', {}, 'What it returns'), info.returns)),
      h('td', {}, result ? valueCell(result, info) : 'not computed'),
      h('td', {}, info.unit ?? '–'),
      h('td', {}, keyWords(info.notes)),
    );
  });
  replace(
    section,
    title,
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'data metrics', id: 'metrics-table' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Metric', 'Value', 'Unit', 'Reading notes'].map((c) => h('th', { scope: 'col' }, c)),
          ),
        ),
        h('tbody', {}, rows),
      ),
    ),
  );
}
