/**
 * Real recordings whose exercise onset is known, stripped so that only the gases can place it: the
 * cases the onset tests (test/signal/onset.test.ts) and the shared-onset test hold the detector to.
 * Every case starts from a file copied into the project and is read through the upload path
 * (readUpload with the project's format plugins); the transforms below are the only changes.
 *
 * | case | source file | transform | truth (s from the first sample) and where it comes from |
 * |---|---|---|---|
 * | app: no markers | test/fixtures/vt/exercise_threshold_app_test.json | every t + 240 (all t >= 0, so the parser infers no rest marker) | 240: the app counts t from the start of exercise (file t = 0) |
 * | app: first minute lowered | same | as above, then VO2, VCO2, VE x 0.7 over the first 60 s (a subject settling on the mouthpiece) | 240, as above |
 * | app: first minute much lower | same | as above with x 0.5 | 240, as above |
 * | app: rest doubled | same | the 240 s of rest breaths repeated once before themselves, then t shifted to start at 0 | 480: file t = 0 after 480 s of rest |
 * | app: rest cut to 60 s | same | breaths before file t = -60 dropped, t + 60 | 60 |
 * | app: no rest | same | breaths before file t = 0 dropped | 0: the test starts in exercise |
 * | app: unloaded warm-up added | same | as "no markers", plus a first-order step (tau 30 s) from t = 120 s to the end of +300 mL/min VO2, with VCO2 and VE raised in the rest's own VCO2/VO2 and VE/VCO2 ratios: unloaded pedalling (Wasserman: VO2 unloaded ~ 150 + 6 x body mass mL/min, ~300 mL/min above rest at 70 kg) | 240 |
 * | cortex step | formats/cortex-metasoft/fixtures/xlsx-de-anonymised | none (the file has no markers and no load) | 120: 120 s rest baseline then steps from 50 W, as its publisher states in whippr's own test of this file (tests/testthat/test-incremental.R: baseline_length = 120) |
 * | cosmed kinetics | formats/cosmed-xlsx/fixtures/pft-suite-en-breath-by-breath | none (no markers, no load) | 360: three moderate transitions after 360 s of baseline, as its publisher states (whippr tests/testthat/test-vo2_kinetics.R: protocol_baseline_length = 360) |
 * | mgc treadmill | formats/mgc-breeze-txt/fixtures/gasexchanger-aaron | markers, Speed and Grade removed | 54: the file's exercise marker (Speed leaves 0 there) |
 * | zan treadmill stages | formats/zan-dat/fixtures/spiro-zan-gxt | markers, Speed and Grade removed | 59: the file's exercise marker (Speed steps to 7.2 km/h there); stages separated by pauses |
 * | parvo intervals, breath by breath | formats/parvo-trueone/fixtures/csv-breath-by-breath | event markers removed | 240: the file's `Start Exercise` event (five bouts) |
 * | parvo intervals, 15-s bins | formats/parvo-trueone/fixtures/csv-binned | event markers removed | 240: same test, same event |
 * | parvo ramp, 30-s bins | formats/parvo-trueone/fixtures/xlsx-30s-bins | event markers and Load removed | 570.4: the file's `Start Exercise` event, after 8.5 min of uneven rest and 60 s of unloaded pedalling (`Warm Up` at 510.4) |
 *
 * Left out: test/fixtures/vt/data_test.csv (1 Hz). It starts already loaded (HR 129 at t = 5 s, VO2
 * rising from the first row), has no marker and no work rate, and its publisher states no protocol,
 * so its onset cannot be established independently of a detector.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readUpload } from '../../src/formats/read-upload.js';
import { loadPlugins, PROJECT_ROOT } from '../../src/plugins.js';
import type { ChannelName, Recording } from '../../src/recording/recording.js';

export interface OnsetCase {
  name: string;
  /** Time of the true exercise onset in the recording's own clock, s. */
  truth_s: number;
  /** How the truth was established (for the failure message and the report). */
  truth_from: string;
  recording: Recording;
}

/** Channels a case keeps: the gases and what the cart derives from them, nothing that marks work. */
const GAS_CHANNELS: readonly ChannelName[] = ['VO2', 'VCO2', 'VE', 'RF', 'VT', 'PetO2', 'PetCO2', 'RER'];

const APP_FILE = join(PROJECT_ROOT, 'test', 'fixtures', 'vt', 'exercise_threshold_app_test.json');

interface Breath {
  t: number;
  VO2?: number;
  VCO2?: number;
  VE?: number;
  [key: string]: unknown;
}

/** Parses bytes the way an upload is parsed. */
async function read(filename: string, bytes: Buffer): Promise<Recording> {
  const { formats } = await loadPlugins();
  return (await readUpload(filename, bytes, formats)).recording;
}

/** Only the gas channels, and no phase markers. */
export function gasesOnly(rec: Recording): Recording {
  const copy = structuredClone(rec);
  copy.phases = [];
  for (const name of Object.keys(copy.channels) as ChannelName[]) if (!GAS_CHANNELS.includes(name)) delete copy.channels[name];
  return copy;
}

/** The app test's breaths, with a transform applied to the array, re-serialised and read back as an upload. */
async function appVariant(transform: (breaths: Breath[]) => Breath[]): Promise<Recording> {
  const doc = JSON.parse(readFileSync(APP_FILE, 'utf8')) as { data: Breath[] }[];
  doc[0].data = transform(doc[0].data.map((b) => ({ ...b })));
  const rec = await read('exercise_threshold_app_test.json', Buffer.from(JSON.stringify(doc)));
  if (rec.phases.length) throw new Error('an app variant must carry no phase marker');
  return rec;
}

const shift = (breaths: Breath[], by_s: number): Breath[] => breaths.map((b) => ({ ...b, t: b.t + by_s }));

/** VO2, VCO2 and VE scaled by `factor` over the first `span_s` of the (shifted) record. */
function lowered(breaths: Breath[], span_s: number, factor: number): Breath[] {
  const t0 = breaths[0].t;
  return breaths.map((b) => {
    if (b.t - t0 >= span_s) return b;
    const out = { ...b };
    for (const key of ['VO2', 'VCO2', 'VE'] as const) if (typeof b[key] === 'number') out[key] = (b[key] as number) * factor;
    return out;
  });
}

/** Unloaded pedalling VO2 above rest, mL/min (Wasserman: ~150 + 6 x body mass in all, at 70 kg). */
const UNLOADED_VO2_RISE_ML_MIN = 300;
/** Phase II time constant of a moderate step, s (Whipp et al., J Appl Physiol 1982: ~20-45 s). */
const STEP_TAU_S = 30;

/**
 * A first-order step of unloaded pedalling from `from_s` on, in the rest's own gas ratios; it stays
 * to the end, since the ramp then starts from unloaded pedalling rather than from rest.
 */
function withUnloadedWarmup(breaths: Breath[], from_s: number): Breath[] {
  const rest = breaths.filter((b) => b.t < from_s);
  const mean = (key: 'VO2' | 'VCO2' | 'VE') => rest.reduce((s, b) => s + (b[key] as number), 0) / rest.length;
  const rer = mean('VCO2') / mean('VO2');
  const veVco2 = mean('VE') / (mean('VCO2') / 1000);
  return breaths.map((b) => {
    if (b.t < from_s) return b;
    const dVo2 = UNLOADED_VO2_RISE_ML_MIN * (1 - Math.exp(-(b.t - from_s) / STEP_TAU_S));
    const dVco2 = dVo2 * rer;
    return { ...b, VO2: (b.VO2 as number) + dVo2, VCO2: (b.VCO2 as number) + dVco2, VE: (b.VE as number) + (veVco2 * dVco2) / 1000 };
  });
}

/** A vendor fixture read through the upload path. */
async function vendor(format: string, fixture: string, input: string): Promise<Recording> {
  return read(input, readFileSync(join(PROJECT_ROOT, 'formats', format, 'fixtures', fixture, input)));
}

/** Start of the file's first exercise marker, s (fails loudly when the file has none). */
function markedOnset(rec: Recording): number {
  const ex = rec.phases.filter((p) => p.phase === 'exercise' && p.source === 'file');
  if (!ex.length) throw new Error('the fixture was expected to mark its exercise phase');
  return Math.min(...ex.map((p) => p.t_start_s));
}

/** Every case, read fresh (callers may mutate them). */
export async function onsetCases(): Promise<OnsetCase[]> {
  const cases: OnsetCase[] = [];
  const app = async (name: string, truth_s: number, transform: (b: Breath[]) => Breath[]) => {
    cases.push({ name, truth_s, truth_from: 'the app counts t from the start of exercise', recording: await appVariant(transform) });
  };
  await app('app: no markers', 240, (b) => shift(b, 240));
  await app('app: first minute lowered (x0.7)', 240, (b) => lowered(shift(b, 240), 60, 0.7));
  await app('app: first minute much lower (x0.5)', 240, (b) => lowered(shift(b, 240), 60, 0.5));
  await app('app: rest doubled', 480, (b) => {
    const rest = b.filter((x) => x.t < 0);
    return shift([...shift(rest, -240), ...b], 480);
  });
  await app('app: rest cut to 60 s', 60, (b) =>
    shift(
      b.filter((x) => x.t >= -60),
      60,
    ),
  );
  await app('app: no rest', 0, (b) => b.filter((x) => x.t >= 0));
  await app('app: unloaded warm-up added', 240, (b) => withUnloadedWarmup(shift(b, 240), 120));

  cases.push({
    name: 'cortex step test',
    truth_s: 120,
    truth_from: 'whippr test-incremental.R: baseline_length = 120',
    recording: gasesOnly(await vendor('cortex-metasoft', 'xlsx-de-anonymised', 'input.xlsx')),
  });
  cases.push({
    name: 'cosmed kinetics',
    truth_s: 360,
    truth_from: 'whippr test-vo2_kinetics.R: protocol_baseline_length = 360',
    recording: gasesOnly(await vendor('cosmed-xlsx', 'pft-suite-en-breath-by-breath', 'input.xlsx')),
  });
  for (const [name, format, fixture, input] of [
    ['mgc treadmill', 'mgc-breeze-txt', 'gasexchanger-aaron', 'input.txt'],
    ['zan treadmill stages', 'zan-dat', 'spiro-zan-gxt', 'input.dat'],
    ['parvo intervals, breath by breath', 'parvo-trueone', 'csv-breath-by-breath', 'input.csv'],
    ['parvo intervals, 15-s bins', 'parvo-trueone', 'csv-binned', 'input.csv'],
    ['parvo ramp, 30-s bins', 'parvo-trueone', 'xlsx-30s-bins', 'input.xlsx'],
  ] as const) {
    const rec = await vendor(format, fixture, input);
    cases.push({ name, truth_s: markedOnset(rec), truth_from: "the file's own exercise marker", recording: gasesOnly(rec) });
  }
  return cases;
}
