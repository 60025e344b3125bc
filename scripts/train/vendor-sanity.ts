/**
 * The sanity check of the issue on every real vendor file the project holds (the format plugins'
 * committed fixtures): a result must have VT1 < VT2 < end of exercise, VT1 at 40-80 % and VT2 at
 * 65-95 % of VO2peak, or be a refusal with a reason. Read through the service's own upload path.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnalysisOutcome } from '../../src/analyses/analysis-plugin.js';
import { readUpload } from '../../src/formats/read-upload.js';
import { loadPlugins } from '../../src/plugins.js';
import type { Recording } from '../../src/recording/recording.js';
import { detectPhases } from '../../src/signal/phases.js';
import { VT1_PCT_RANGE, VT2_PCT_RANGE } from '../../analyses/vt/plausibility.js';

const FORMATS = resolve(dirname(fileURLToPath(import.meta.url)), '../../formats');

export interface VendorFile {
  id: string;
  recording: Recording;
}

/** This service's own format: its fixtures are generated or hand-made, never a cart's export. */
const NOT_A_VENDOR = new Set(['canonical-json']);

/** Every formats/<id>/fixtures/<case>/input.* of a vendor format that parses. */
export async function vendorFiles(): Promise<VendorFile[]> {
  const { formats } = await loadPlugins();
  const out: VendorFile[] = [];
  for (const format of readdirSync(FORMATS).sort()) {
    if (NOT_A_VENDOR.has(format)) continue;
    const fixtures = join(FORMATS, format, 'fixtures');
    if (!existsSync(fixtures)) continue;
    for (const name of readdirSync(fixtures).sort()) {
      const dir = join(fixtures, name);
      if (!statSync(dir).isDirectory()) continue;
      const input = readdirSync(dir).find((f) => f.startsWith('input.'));
      if (!input) continue;
      const { recording } = await readUpload(input, readFileSync(join(dir, input)), formats);
      out.push({ id: `${format}/${name}`, recording });
    }
  }
  return out;
}

/** 'pass', the refusal, or the rules the result breaks. */
export function sanity(rec: Recording, out: AnalysisOutcome): string {
  if (out.status !== 'ok') return `refused ${out.error}: ${out.message}`;
  const f = out.findings as Record<string, number | null>;
  const broken: string[] = [];
  const end = detectPhases(rec)?.exercise.t_end_s ?? rec.t_s[rec.t_s.length - 1];
  const t1 = f.vt1_time_s;
  const t2 = f.vt2_time_s;
  if (t1 !== null && t2 !== null && !(t1 < t2)) broken.push('VT1 not before VT2');
  if ((t2 ?? t1) !== null && !((t2 ?? t1)! < end)) broken.push('threshold not before the end of exercise');
  const inRange = (v: number | null, [lo, hi]: readonly [number, number], label: string) => {
    if (v !== null && (v < lo || v > hi)) broken.push(`${label} at ${v} % of VO2peak, outside ${lo}-${hi} %`);
  };
  inRange(f.vt1_pct_vo2peak, VT1_PCT_RANGE, 'VT1');
  inRange(f.vt2_pct_vo2peak, VT2_PCT_RANGE, 'VT2');
  const show = (t: number | null, pct: number | null) => (t === null ? 'none' : `${t} s (${pct} %)`);
  const found = `VT1 ${show(t1, f.vt1_pct_vo2peak)}, VT2 ${show(t2, f.vt2_pct_vo2peak)}`;
  return broken.length ? `${found}: ${broken.join('; ')}` : `${found}: pass`;
}
