/**
 * Shared fixtures of the vt tests: keys of each tier, a recording without one channel, and a
 * temporary models folder built from cards written on the fly.
 */
import { cpSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnalysisRequest, Tier } from '../../../src/analyses/analysis-plugin.js';
import type { ChannelName, Recording } from '../../../src/recording/recording.js';
import { DEFAULT_MODELS_DIR } from '../../../analyses/vt/registry.js';

/** A request with a key of the given tier and optional model restriction. */
export function request(tier: Tier, extra: Partial<AnalysisRequest> = {}, allowed: string[] | null = null): AnalysisRequest {
  return { key: { tier, allowed_models: allowed }, ...extra };
}

/** The recording with one channel taken out, as a parser would leave it. */
export function withoutChannel(rec: Recording, name: ChannelName): Recording {
  const channels = { ...rec.channels };
  delete channels[name];
  return { ...rec, channels, absent: { ...rec.absent, [name]: 'absent from the file' } };
}

/** A fresh models folder; `add` writes a card (and optional weights) under <name>/<version>/. */
export function tempModels(): { dir: string; add: (card: Record<string, unknown>, weights?: Buffer) => void } {
  const dir = mkdtempSync(join(tmpdir(), 'vt-models-'));
  return {
    dir,
    add(card, weights) {
      const folder = join(dir, String(card.name), String(card.version));
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'card.json'), JSON.stringify(card));
      if (weights) writeFileSync(join(folder, 'model.onnx'), weights);
    },
  };
}

/** A minimal classic card. */
export function classicCard(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'wasserman',
    version: 'v1.0.0',
    tier: 'free',
    status: 'research',
    engine: 'classic',
    description: 'test card',
    inputs: ['VO2', 'VCO2', 'VE', 'PetO2', 'PetCO2'],
    pipeline: { engine: 'wasserman' },
    evaluation: null,
    ...overrides,
  };
}

/** An agreement that clears (or, with `fail`, misses) every limit of the gate. */
export function agreementFigures(fail = false) {
  return {
    n: 300,
    missed: 0,
    spurious: 0,
    vo2_bias_ml_min: fail ? 250 : 40,
    vo2_r: 0.95,
    vo2_mae_ml_min: 150,
    time_bias_s: 10,
    time_r: 0.9,
    time_mae_s: 30,
  };
}

/** A copy of the project's models folder whose gandalf `version` card sets the `preprocessing` fields given. */
export function modelsWithPreprocessing(version: string, fields: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'vt-preprocessing-'));
  cpSync(DEFAULT_MODELS_DIR, dir, { recursive: true });
  const path = join(dir, 'gandalf', version, 'card.json');
  const card = JSON.parse(readFileSync(path, 'utf8'));
  writeFileSync(path, JSON.stringify({ ...card, preprocessing: { ...card.preprocessing, ...fields } }));
  return dir;
}

/** A copy of the project's models folder whose gandalf `version` card names the decision rule given. */
export function modelsWithDecision(version: string, decision: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'vt-decision-'));
  cpSync(DEFAULT_MODELS_DIR, dir, { recursive: true });
  const path = join(dir, 'gandalf', version, 'card.json');
  const card = JSON.parse(readFileSync(path, 'utf8'));
  writeFileSync(path, JSON.stringify({ ...card, pipeline: { ...card.pipeline, decision } }));
  return dir;
}
