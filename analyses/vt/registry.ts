/**
 * The threshold model registry: every models/<name>/<version>/card.json, checked once per
 * process. A card that claims `production` without clearing the promotion gate on an unseen
 * cohort (spec rule 4) is refused and never served; a learned model whose weights are missing or
 * do not match the card's sha256 stays listed but cannot run (INFERENCE_FAILED), so one bad file
 * never takes the service down.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TIER_RANK, type ModelSummary, type Surface, type Tier } from '../../src/analyses/analysis-plugin.js';
import { PROJECT_ROOT } from '../../src/plugins.js';
import { CHANNEL_NAMES } from '../../src/recording/recording.js';
import { averagedRowsOf, averagedSmoothingOf, breathDespikingOf, compensationSearchOf, gateFailures, scalingRangeOf, type ModelCard } from './card.js';
import { vt1LandmarksOf } from './decision/unanimous-vt1.js';
import { pipelineOf } from './pipeline.js';

/** The model an omitted `model` selects. */
export const DEFAULT_MODEL = 'gandalf';
/** The models folder of the project. */
export const DEFAULT_MODELS_DIR = join(PROJECT_ROOT, 'models');

export interface RegisteredModel {
  card: ModelCard;
  dir: string;
  /** Absolute path of the weights, for learned models. */
  weights_path: string | null;
  /** Why the model cannot run (missing or altered weights); null when it can. */
  problem: string | null;
}

export interface RejectedCard {
  path: string;
  reason: string;
}

const VERSION_RE = /^v(\d+)\.(\d+)\.(\d+)$/;

/** Orders versions `vMAJOR.MINOR.PATCH` numerically (negative when a is older). */
export function compareVersions(a: string, b: string): number {
  const pa = VERSION_RE.exec(a)!;
  const pb = VERSION_RE.exec(b)!;
  for (let i = 1; i <= 3; i++) {
    const d = Number(pa[i]) - Number(pb[i]);
    if (d !== 0) return d;
  }
  return 0;
}

export class ModelRegistry {
  readonly models: readonly RegisteredModel[];
  readonly rejected: readonly RejectedCard[];

  constructor(readonly modelsDir: string) {
    const models: RegisteredModel[] = [];
    const rejected: RejectedCard[] = [];
    for (const cardPath of findCards(modelsDir)) {
      try {
        models.push(loadModel(cardPath));
      } catch (err) {
        rejected.push({ path: cardPath, reason: (err as Error).message });
      }
    }
    models.sort((a, b) => a.card.name.localeCompare(b.card.name) || compareVersions(a.card.version, b.card.version));
    this.models = Object.freeze(models);
    this.rejected = Object.freeze(rejected);
  }

  /** Versions of a model, oldest first. */
  versions(name: string): RegisteredModel[] {
    return this.models.filter((m) => m.card.name === name);
  }

  /**
   * `latest` is the newest production version; when a model has no production version, its newest
   * version of any status (the plugin then says in the notes that it is a research model).
   */
  find(name: string, version: string): RegisteredModel | undefined {
    const all = this.versions(name);
    if (version !== 'latest') return all.find((m) => m.card.version === version);
    const production = all.filter((m) => m.card.status === 'production');
    return (production.length ? production : all).at(-1);
  }

  /** Every model and version served on a surface (GET /v1/capabilities lists `api`); `default` marks what an omitted model runs. */
  summaries(surface: Surface): ModelSummary[] {
    const def = this.find(DEFAULT_MODEL, 'latest');
    return this.models
      .filter((m) => servedOn(m, surface))
      .map((m) => ({
        name: m.card.name,
        version: m.card.version,
        tier: m.card.tier,
        status: m.card.status,
        default: m === def,
        surfaces: surfacesOf(m.card),
      }));
  }
}

function findCards(modelsDir: string): string[] {
  if (!existsSync(modelsDir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(modelsDir, { withFileTypes: true })) {
    if (!name.isDirectory()) continue;
    for (const version of readdirSync(join(modelsDir, name.name), { withFileTypes: true })) {
      const card = join(modelsDir, name.name, version.name, 'card.json');
      if (version.isDirectory() && existsSync(card)) out.push(card);
    }
  }
  return out.sort();
}

/** Reads and checks one card; throws with the reason when it must be refused. */
export function loadModel(cardPath: string): RegisteredModel {
  const dir = join(cardPath, '..');
  const card = JSON.parse(readFileSync(cardPath, 'utf8')) as ModelCard;
  const folderVersion = dir.split(/[\\/]/).at(-1);
  const folderName = dir.split(/[\\/]/).at(-2);
  if (card.name !== folderName || card.version !== folderVersion) {
    throw new Error(`card names ${card.name} ${card.version} but sits in ${folderName}/${folderVersion}`);
  }
  if (!VERSION_RE.test(card.version)) throw new Error(`version ${card.version} is not vMAJOR.MINOR.PATCH`);
  if (!(card.tier in TIER_RANK)) throw new Error(`tier ${String(card.tier)} is not one of ${Object.keys(TIER_RANK).join(', ')}`);
  if (card.status !== 'production' && card.status !== 'research') throw new Error(`status ${String(card.status)} is not production or research`);
  if (card.engine !== 'learned' && card.engine !== 'classic') throw new Error(`engine ${String(card.engine)} is not learned or classic`);
  if (!Array.isArray(card.inputs) || !card.inputs.every((c) => (CHANNEL_NAMES as readonly string[]).includes(c))) {
    throw new Error('inputs must list canonical channel names');
  }
  pipelineOf(card);
  averagedRowsOf(card);
  averagedSmoothingOf(card);
  scalingRangeOf(card);
  compensationSearchOf(card);
  vt1LandmarksOf(card);
  breathDespikingOf(card);
  if (card.surfaces !== undefined && (!Array.isArray(card.surfaces) || card.surfaces.length === 0 || !card.surfaces.every((s) => s === 'api' || s === 'web'))) {
    throw new Error('surfaces must list api and/or web');
  }
  if (card.status === 'production') {
    const reasons = gateFailures(card);
    if (reasons.length) throw new Error(`card claims production but its evaluation does not clear the promotion gate: ${reasons.join('; ')}`);
  }
  let weightsPath: string | null = null;
  let problem: string | null = null;
  if (card.engine === 'learned') {
    if (!card.weights?.file || !card.weights.sha256) throw new Error('a learned model needs weights.file and weights.sha256');
    weightsPath = join(dir, card.weights.file);
    if (!existsSync(weightsPath)) problem = `weights file ${card.weights.file} is missing`;
    else {
      const sha = createHash('sha256').update(readFileSync(weightsPath)).digest('hex');
      if (sha !== card.weights.sha256) problem = `weights file ${card.weights.file} does not match the card's sha256`;
    }
  }
  return { card, dir, weights_path: weightsPath, problem };
}

/** Where a card's model is served: both surfaces unless the card narrows it. */
export function surfacesOf(card: Pick<ModelCard, 'surfaces'>): Surface[] {
  return card.surfaces ? [...card.surfaces] : ['api', 'web'];
}

/** True when the model may be run for a request from `surface`. */
export function servedOn(model: RegisteredModel, surface: Surface): boolean {
  return surfacesOf(model.card).includes(surface);
}

/** True when a key of tier `keyTier` reaches a model of tier `modelTier`. */
export function tierReaches(keyTier: Tier, modelTier: Tier): boolean {
  return TIER_RANK[keyTier] >= TIER_RANK[modelTier];
}

const registries = new Map<string, ModelRegistry>();

/** The registry of a models folder, loaded once per process (per worker thread). */
export function registryFor(modelsDir: string = DEFAULT_MODELS_DIR): ModelRegistry {
  let reg = registries.get(modelsDir);
  if (!reg) {
    reg = new ModelRegistry(modelsDir);
    registries.set(modelsDir, reg);
  }
  return reg;
}
