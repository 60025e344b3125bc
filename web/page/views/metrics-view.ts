/**
 * Every metric of the registry with its unit and reading notes; an `unavailable` one with its
 * reason and what was needed (spec 2.3: never a bare null).
 */
import type { MetricInfo, MetricResult } from '../../client/index.js';
import { h, heading, replace } from '../dom.js';
import { num, words } from '../format.js';
import type { Results } from '../results.js';
import { contextView, errorBox } from './error-view.js';

/** A metric value in words: numbers as numbers, records as short lists, deeper structure on demand. */
export function valueText(value: unknown): string {
  if (typeof value === 'number') return num(value);
  if (typeof value === 'string' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return '–';
  if (Array.isArray(value)) return value.map(valueText).join('; ');
  return Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== null && typeof v !== 'object')
    .map(([k, v]) => `${words(k)} ${valueText(v)}`)
    .join(', ');
}

function valueCell(result: MetricResult, info: MetricInfo): HTMLElement {
  if (result.status !== 'ok') {
    return h('div', { class: 'unavailable' }, h('strong', {}, 'unavailable'), ' ', h('code', {}, result.error), ` ${result.message}`, contextView(result.error, (result.context ?? {}) as Record<string, unknown>));
  }
  const value = result.value as unknown;
  if (typeof value === 'number') return h('span', { class: 'value' }, `${num(value)}${info.unit && info.unit !== 'ratio' ? ` ${info.unit}` : ''}`);
  const shown = Array.isArray(value) ? h('ul', { class: 'plain' }, value.map((v) => h('li', {}, valueText(v)))) : h('span', { class: 'value' }, valueText(value));
  return h('div', {}, shown, h('details', {}, h('summary', {}, 'All fields'), h('pre', { tabindex: 0 }, JSON.stringify(value, null, 2))));
}

export function renderMetrics(section: HTMLElement, results: Results): void {
  section.hidden = false;
  const title = heading('metrics-title', 'Metrics');
  if (!results.registry.ok) return replace(section, title, errorBox('The metric registry could not be read', results.registry.error));
  if (!results.metrics.ok) return replace(section, title, errorBox('The metrics could not be computed', results.metrics.error));
  const computed = results.metrics.value.metrics;
  const rows = results.registry.value.map((info) => {
    const result = computed[info.name];
    return h(
      'tr',
      { 'data-metric': info.name, 'data-status': result?.status ?? 'missing' },
      h('th', { scope: 'row' }, h('code', {}, info.name), h('div', { class: 'help' }, info.returns)),
      h('td', {}, result ? valueCell(result, info) : 'not computed'),
      h('td', {}, info.unit ?? '–'),
      h('td', {}, info.notes),
    );
  });
  replace(
    section,
    title,
    h('div', { class: 'table-wrap' }, h('table', { class: 'data metrics', id: 'metrics-table' }, h('thead', {}, h('tr', {}, ['Metric', 'Value', 'Unit', 'Reading notes'].map((c) => h('th', { scope: 'col' }, c)))), h('tbody', {}, rows))),
  );
}
