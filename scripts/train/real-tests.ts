/**
 * The two real labelled tests (test/fixtures/vt/, pyoxynet samples, MIT) read into Recordings with
 * their expert thresholds. A tiny local reader for exactly these two files, used by the evaluation
 * and the tests; the service itself reads uploads through the format plugins.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRecording } from '../../src/recording/build.js';
import type { ChannelData, ChannelName, Recording } from '../../src/recording/recording.js';

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/vt');

export interface RealTest {
  id: string;
  recording: Recording;
  /** Expert thresholds; time is null where the source labels VO2 only. */
  vt1: { time_s: number | null; vo2_ml_min: number };
  vt2: { time_s: number | null; vo2_ml_min: number };
}

function channels(columns: Partial<Record<ChannelName, number[]>>): Partial<Record<ChannelName, ChannelData>> {
  const out: Partial<Record<ChannelName, ChannelData>> = {};
  for (const [name, values] of Object.entries(columns) as [ChannelName, number[]][]) out[name] = { values, unit_in: 'as in the file' };
  return out;
}

/** data_test.csv: 1-Hz columns; thresholds where the `domain` column steps from -1 to 0 and 0 to 1. */
export function readOxynetCsv(path = join(FIXTURES, 'data_test.csv')): RealTest {
  const lines = readFileSync(path, 'utf8').trim().split(/\r?\n/);
  const header = lines[0].split(',');
  const col = (name: string) => header.indexOf(name);
  const rows = lines.slice(1).map((l) => l.split(',').map(Number));
  const get = (name: string) => rows.map((r) => r[col(name)]);
  const time = get('time');
  const domain = get('domain');
  const vo2 = get('VO2_I');
  const first = (d: number) => domain.findIndex((v) => v === d);
  const i1 = first(0);
  const i2 = first(1);
  const recording = buildRecording({
    format: 'pyoxynet-csv',
    time_s: time,
    channels: channels({ VO2: vo2, VCO2: get('VCO2_I'), VE: get('VE_I'), PetO2: get('PetO2_I'), PetCO2: get('PetCO2_I'), HR: get('HR_I'), RF: get('RF_I') }),
  });
  return {
    id: 'pyoxynet data_test.csv',
    recording,
    vt1: { time_s: time[i1], vo2_ml_min: Math.round(vo2[i1]) },
    vt2: { time_s: time[i2], vo2_ml_min: Math.round(vo2[i2]) },
  };
}

interface EtaBreath {
  t: number;
  VE: number;
  VO2: number;
  VCO2: number;
  PetO2: number;
  PetCO2: number;
}

/** exercise_threshold_app_test.json: breaths from t = -240 s (shifted to start at 0); LT and RCP as VO2. */
export function readExerciseThresholdApp(path = join(FIXTURES, 'exercise_threshold_app_test.json')): RealTest {
  const [test] = JSON.parse(readFileSync(path, 'utf8')) as { id: string; LT: number; RCP: number; data: EtaBreath[] }[];
  const t0 = test.data[0].t;
  const pick = (k: keyof EtaBreath) => test.data.map((b) => b[k]);
  const recording = buildRecording({
    format: 'exercise-threshold-app-json',
    time_s: test.data.map((b) => b.t - t0),
    channels: channels({ VO2: pick('VO2'), VCO2: pick('VCO2'), VE: pick('VE'), PetO2: pick('PetO2'), PetCO2: pick('PetCO2') }),
    sampling_hint: { method: 'breath_by_breath' },
  });
  return {
    id: `exercise threshold app ${test.id}`,
    recording,
    vt1: { time_s: null, vo2_ml_min: test.LT },
    vt2: { time_s: null, vo2_ml_min: test.RCP },
  };
}

/** Both real tests. */
export function realTests(): RealTest[] {
  return [readOxynetCsv(), readExerciseThresholdApp()];
}
