/**
 * The static part of the two model cards built on each conversion of the Oxynet weights, generated
 * with it (an evaluation run adds `evaluation`, `replay` and the status; nothing is edited by hand):
 * - `oxynet-cnn <version>`: pyoxynet's own pipeline, kept as a named, reproducible variant;
 * - `gandalf <version>`: the same weights read as per-second curves, with the project's corroborated
 *   decision rule.
 * Both take the conversion's version (v1.0.0: the 1-D graph; v1.1.0: the faster 2-D graph).
 */
import type { ModelCard } from '../../analyses/vt/card.js';
import type { OxynetReading } from '../../analyses/vt/engines/oxynet/curves.js';
import { BREATH_FILTER_SIZE, SMOOTHING_LAMBDA } from '../../analyses/vt/engines/oxynet/upstream.js';
import { WINDOW_S } from '../../analyses/vt/engines/oxynet/windows.js';
import { CONVERTER_COMMAND, INPUT_CHANNELS, MODEL_NAME, UPSTREAM, type ConversionRecord } from './convert.js';

/** The default model's name; each of its v1 versions reads the oxynet-cnn weights of the same version, checked by hash at load. */
const GANDALF = 'gandalf';

/** What each graph layout is, for the cards. */
const LAYOUTS: Record<ConversionRecord['onnx']['layout'], string> = {
  conv1d: 'ONNX graph in the 1-D layout ([N, C, T]) of the first conversion',
  conv2d:
    "ONNX graph in the 2-D layout ([N, C, 1, T], 1 x k kernels), which ONNX Runtime runs with its blocked convolution kernels, about twice as fast as v1.0.0's 1-D layout; the same weights and arithmetic, outputs within 1e-5 of v1.0.0 (float32 summation order: 2e-6 at most on 2,000 seeded windows), the same findings on every test of the evaluation",
};

/**
 * How the service reads the model. The output columns are the model's own order, as pyoxynet's
 * column rule finds it on both labelled tests (test/analyses/vt/engines/oxynet/ checks it); a row
 * describes its window's first second, the convention of pyoxynet's inference code (which moves
 * each crossing row back by one window), the only evidence of how the windows were labelled.
 */
export const GANDALF_V1_READING: OxynetReading = {
  stride_s: 2,
  row_time_offset_s: 0,
  output_columns: { moderate: 2, heavy: 0, severe: 1 },
  output_reading: 'entered_domain',
};

type StaticCard = Pick<ModelCard, 'name' | 'version' | 'tier' | 'status' | 'engine' | 'description' | 'inputs' | 'surfaces' | 'pipeline' | 'weights'> & {
  preprocessing: Record<string, unknown>;
  source: Record<string, unknown>;
  limitations?: string[];
};

function source(conversion: ConversionRecord) {
  return {
    weights: `${UPSTREAM.repository} at ${UPSTREAM.commit} (pyoxynet/pyoxynet/regressor/)`,
    licence: `${UPSTREAM.licence} (weights only; no upstream code is in this project)`,
    attribution: UPSTREAM.attribution,
    trained_by: 'the Oxynet authors, on real expert-labelled incremental tests from several laboratories',
    converted_by: `${CONVERTER_COMMAND} (scripts/oxynet/): the TensorFlow checkpoint read by the project's own code, every tensor checksum verified, the architecture checked against keras_metadata.pb`,
    conversion_record: `models/${MODEL_NAME}/${conversion.model.version}/conversion.json`,
    graph: LAYOUTS[conversion.onnx.layout],
    source_sha256: Object.fromEntries(conversion.sources.map((s) => [s.file, s.sha256])),
  };
}

export function oxynetCards(conversion: ConversionRecord): StaticCard[] {
  const inputs = [...INPUT_CHANNELS];
  const upstream: StaticCard = {
    name: MODEL_NAME,
    version: conversion.model.version,
    tier: 'research',
    status: 'research',
    engine: 'learned',
    description:
      "The Oxynet CNN (Zignoli et al., Eur J Sport Sci 2022) with pyoxynet's own pipeline, reproduced as a named variant: its preprocessing, its column assignment from each test's first and last rows, its VT rule (VT1 at the first row where heavy reaches moderate, VT2 at the last row where severe is at most heavy, each moved back one window) and its own smoothed VO2. Kept to compare against and to check the port; its known failure modes are kept too (a test that ends soon after VT2 can flip the columns and put VT2 before VT1). Web application only, like every alternative engine.",
    inputs,
    surfaces: ['web'],
    pipeline: { engine: 'oxynet-upstream' },
    preprocessing: {
      series: `breath-by-breath: a ${BREATH_FILTER_SIZE}-breath moving mean ('reflect' edges), then 1-Hz linear interpolation; any other sampling: 1-Hz linear interpolation`,
      span: 'the whole recording',
      scaling: 'min-max per channel over the whole 1-Hz test',
      windows: `${WINDOW_S} s, from index 1, stride 2 s (the upstream web app)`,
      smoothing: `pyoxynet's optimal_filter, lambda ${SMOOTHING_LAMBDA}, on each output column and on VO2`,
    },
    weights: { file: 'model.onnx', sha256: conversion.onnx.sha256 },
    source: source(conversion),
  };
  const gandalf: StaticCard = {
    name: GANDALF,
    version: conversion.model.version,
    tier: 'free',
    status: 'research',
    engine: 'learned',
    description:
      "The Oxynet CNN (Zignoli et al., Eur J Sport Sci 2022; weights trained by its authors on real expert-labelled tests, MIT, converted by scripts/oxynet/) read as per-second probabilities of the moderate, heavy and severe domains, with the project's corroborated decision rule: the curves place VT1 (moderate gives way) and VT2 (beyond moderate, severe overtakes heavy, at least 30 s later); classic landmarks (V-slope, excess CO2, VE/VO2, PetO2 nadir; VE vs VCO2, VE/VCO2, PetCO2) fitted around each crossing join it by median only when they fall inside the zone where the curves are undecided; when the curves end still rising towards severe, the respiratory compensation landmarks place VT2. The findings say which evidence placed each threshold. VO2 at a threshold is the cleaned VO2 there (15-s running median, 21-s centred mean).",
    inputs,
    surfaces: ['api', 'web'],
    pipeline: { engine: 'oxynet-cnn', decision: 'corroborated' },
    preprocessing: {
      series: `the model's own (engines/oxynet/upstream.ts upstreamSeries): breath-by-breath data get a ${BREATH_FILTER_SIZE}-breath moving mean, then 1-Hz linear interpolation`,
      span: 'from the first second to the 30-s VO2 peak; recovery never enters the scaling or the windows',
      scaling: 'min-max per channel over the span',
      window_s: WINDOW_S,
      ...GANDALF_V1_READING,
      row_time:
        "a row describes its window's first second: the convention of pyoxynet's inference code, and on data_test.csv (possibly one of the model's training tests) the crossings then sit within 10 s of the labels; on the synthetic held-out cohort the VT1 crossings then sit on the generator's expert reading on average",
      series_not_breath_by_breath: `a centred mean over the seconds ${BREATH_FILTER_SIZE} breaths took (from RF; 30 breaths/min assumed without it), so an averaged or interpolated export is as smooth as the breath-by-breath input the model was trained on`,
      output_columns_source: "the model's own order, as pyoxynet's column rule finds it on both labelled tests; fixed here so a test that ends soon after VT2 cannot flip it",
      curves:
        'per second, linear between rows, as two nested steps read from the output of the domain each enters: beyond moderate b = h (the heavy output), beyond moderate severe q = s (the severe output); moderate = 1 - b, heavy = b (1 - q), severe = b q',
      output_reading_choice:
        "chosen on the synthetic training cohorts only (npx tsx scripts/oxynet/reading-choice.ts), against pyoxynet's pairwise reading (b = h / (m + h), q = s / (h + s)): realistic training cohort VT1 bias 31.5 s / MAE 43.6 s against 52.1 / 55.8, VT2 MAE 36.4 s against 32.6 with no VT2 missed against 13; v2 training cohort VT1 MAE 64.7 s against 84.0, VT2 bias 22.0 s / MAE 58.2 s against 57.1 / 64.8",
      cleaning_for_vo2: '15-s running median, then 21-s centred mean (analyses/vt/preprocess.ts)',
    },
    weights: { file: `../../${MODEL_NAME}/${conversion.model.version}/model.onnx`, sha256: conversion.onnx.sha256 },
    source: source(conversion),
    limitations: [
      "The model scales every channel over the test, so it reads a threshold against the test's own range: a test that never leaves the moderate domain still shows it a crossing (the plausibility note then flags VT1 near VO2peak), and the longer a test runs past VT2 the later it reads both thresholds.",
      'Its curves describe each window by its first second, so the last 40 s of a test are never described: a VT2 in them is placed by the respiratory compensation landmarks or not at all.',
      'Slow drifts of the end-tidal gases and of VE (the artefact cohort of the evaluation) blur where its heavy output rises: there its VT1 misses the promotion gate.',
    ],
  };
  return [upstream, gandalf];
}

/** The card on disk with its static part replaced by `fresh`; the evaluation, replay and status an evaluation wrote are kept. */
export function mergeCard(existing: ModelCard | null, fresh: StaticCard): ModelCard {
  const kept = existing ? { status: existing.status, evaluation: existing.evaluation, ...(existing.replay !== undefined ? { replay: existing.replay } : {}) } : { evaluation: null };
  return { ...fresh, ...kept };
}
