/**
 * The upload summary (spec 2.1): detected format and how sure, every channel present or absent with
 * its reason, sampling, load, parser flags and the thresholds the cart embedded in the file.
 */
import type { UploadSummary } from '../../client/index.js';
import { facts, h, heading, replace, table } from '../dom.js';
import { at, bytes, num, pct, words } from '../format.js';

const SAMPLING: Record<UploadSummary['sampling']['method'], string> = {
  breath_by_breath: 'breath by breath',
  averaged: 'averaged',
  unknown: 'unknown',
};

function sampling(s: UploadSummary['sampling']): string {
  const interval = s.raw_interval_s === null ? 'interval unknown' : `every ${num(s.raw_interval_s)} s${s.interval_known ? '' : ' (estimated)'}`;
  const averaging = s.averaging_s ? `, ${num(s.averaging_s)}-s averages` : '';
  return `${SAMPLING[s.method]}, ${interval}${averaging}; ${s.n_raw} samples over ${at(s.duration_s)}`;
}

function subject(s: UploadSummary['subject']): string {
  const parts = [
    s.sex,
    s.age_years !== null ? `${num(s.age_years, 0)} years` : null,
    s.body_mass_kg !== null ? `${num(s.body_mass_kg)} kg` : null,
    s.height_cm !== null ? `${num(s.height_cm, 0)} cm` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'none in the file';
}

export function renderSummary(section: HTMLElement, summary: UploadSummary): void {
  const src = summary.source;
  const runnerUp = src.runner_up ? `; runner-up ${src.runner_up.format} at ${num(src.runner_up.score, 2)}` : '';
  const load = summary.load.available ? `${summary.load.channel} channel` : `not available: ${summary.load.reason ?? 'no work-rate channel'}`;
  const clock = summary.clock;
  const channels = Object.entries(summary.channels).map(([name, c]) => [
    name,
    c.present ? 'present' : h('strong', {}, 'absent'),
    c.present ? `${c.unit}${c.unit_in && c.unit_in !== c.unit ? ` (file: ${c.unit_in})` : ''}` : c.unit,
    c.present ? pct(c.coverage) : '–',
    c.present ? '' : (c.reason ?? ''),
  ]);
  replace(
    section,
    heading('summary-title', 'Recording'),
    facts([
      ['File', `${src.filename} (${bytes(src.bytes)})`],
      ['Format', `${src.format}, ${src.format_confidence} from its content (score ${num(src.detection_score, 2)}${runnerUp})`],
      ['Sampling', sampling(summary.sampling)],
      ['Load', load],
      ['Phases', summary.phases.map((p) => `${p.phase} ${at(p.t_start_s)}–${at(p.t_end_s)} (${p.source === 'file' ? 'from the file' : 'inferred'})`).join('; ') || 'none found'],
      ['Subject', subject(summary.subject)],
      [
        'Clock',
        clock.monotonic_as_read && !clock.repair_applied
          ? 'strictly increasing as read; nothing repaired'
          : `repaired (${clock.repair_applied ?? 'reordered'}), ${clock.samples_dropped} samples dropped`,
      ],
      ['Kept until', `${new Date(summary.retention.expires_at).toLocaleString()} (${summary.retention.retain_hours} h after upload; only the parsed record is kept)`],
      ['Recording id', h('code', {}, summary.cpet_id)],
    ]),
    table('Channels', ['Channel', 'Status', 'Unit', 'Coverage', 'Why absent'], channels, 'data channels'),
    h('h3', {}, 'Thresholds embedded in the file'),
    summary.embedded_thresholds.length
      ? table(
          null,
          ['Name', 'Label in the file', 'Time', 'VO2'],
          summary.embedded_thresholds.map((t) => [t.name, t.label, at(t.time_s), t.vo2_ml_min === null ? '–' : `${num(t.vo2_ml_min)} mL/min`]),
        )
      : h('p', {}, 'None: the cart stored no thresholds in this file.'),
    h('h3', {}, 'Parser flags'),
    summary.parser_flags.length
      ? // A flag's detail quotes the file's own column names, which stay as the file spells them.
        h(
          'ul',
          { class: 'flags', 'data-quotes-file': 'true' },
          summary.parser_flags.map((f) => h('li', {}, h('strong', {}, words(f.code)), `: ${f.detail}`)),
        )
      : h('p', {}, 'None: nothing was repaired or assumed while reading.'),
  );
  section.hidden = false;
}
