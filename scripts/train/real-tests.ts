/**
 * The two real labelled tests (test/fixtures/vt/, pyoxynet samples, MIT), read through the
 * service's own upload path (format detection and the pyoxynet-csv and exercise-threshold-app-json
 * plugins), with their expert thresholds.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readUpload } from '../../src/formats/read-upload.js';
import { loadPlugins } from '../../src/plugins.js';
import type { ModelCard } from '../../analyses/vt/card.js';
import type { Recording } from '../../src/recording/recording.js';

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/vt');

export interface RealTest {
  id: string;
  recording: Recording;
  /** Expert thresholds; time is null where the source labels VO2 only. */
  vt1: { time_s: number | null; vo2_ml_min: number };
  vt2: { time_s: number | null; vo2_ml_min: number };
  /** True when the test may be in the training data of the card's model. */
  inTrainingOf?(card: Pick<ModelCard, 'pipeline'>): boolean;
}

/**
 * pyoxynet ships data_test.csv beside the Oxynet weights and its README says it may be one of the
 * training tests, so it is not unseen for any model built on those weights.
 */
const OXYNET_ENGINES = ['oxynet-cnn', 'oxynet-upstream'];

/** data_test.csv labels: the first second of the `domain` column's heavy (0) and severe (1) values. */
function oxynetLabels(text: string): { vt1: RealTest['vt1']; vt2: RealTest['vt2'] } {
  const lines = text.trim().split(/\r?\n/);
  const header = lines[0].split(',');
  const rows = lines.slice(1).map((l) => l.split(',').map(Number));
  const [t, d, v] = ['time', 'domain', 'VO2_I'].map((c) => header.indexOf(c));
  const first = (domain: number) => rows.find((r) => r[d] === domain)!;
  const heavy = first(0);
  const severe = first(1);
  return { vt1: { time_s: heavy[t], vo2_ml_min: Math.round(heavy[v]) }, vt2: { time_s: severe[t], vo2_ml_min: Math.round(severe[v]) } };
}

/** Both real tests, parsed by the project's format plugins. */
export async function realTests(): Promise<RealTest[]> {
  const { formats } = await loadPlugins();
  const csvName = 'data_test.csv';
  const csv = readFileSync(join(FIXTURES, csvName));
  const etaName = 'exercise_threshold_app_test.json';
  const eta = readFileSync(join(FIXTURES, etaName));
  const [etaTest] = JSON.parse(eta.toString('utf8')) as { id: string; LT: number; RCP: number }[];
  return [
    {
      id: `pyoxynet ${csvName}`,
      recording: (await readUpload(csvName, csv, formats)).recording,
      ...oxynetLabels(csv.toString('utf8')),
      inTrainingOf: (card) => OXYNET_ENGINES.includes(card.pipeline.engine),
    },
    {
      id: `exercise threshold app ${etaTest.id}`,
      recording: (await readUpload(etaName, eta, formats)).recording,
      vt1: { time_s: null, vo2_ml_min: etaTest.LT },
      vt2: { time_s: null, vo2_ml_min: etaTest.RCP },
    },
  ];
}
