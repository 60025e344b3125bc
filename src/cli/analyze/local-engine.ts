/**
 * Analyses files in this process, with no server and no store: the same reading path, analyses and
 * metric registry as the service, on a pool of worker threads (one per job). The run is the
 * operator's own, so every model is reachable (research tier), on the API's surface: the results
 * are what `analyze` and `compute` would answer.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { AnalysisName } from '../../analyses/analysis-plugin.js';
import { ServiceError } from '../../errors.js';
import { createMetricRegistry } from '../../metrics/registry.js';
import { loadPlugins } from '../../plugins.js';
import { uploadSummary } from '../../server/summary.js';
import { OPERATIONS_DEFAULTS } from '../../config.js';
import { createTaskRunner } from '../../workers/pool.js';
import { unwrap } from '../../workers/tasks.js';
import type { AnalyzeChoices, Engine } from './engine.js';
import { failed, refusalOf, type FileOutcome } from './outcome.js';

export async function createLocalEngine(choices: AnalyzeChoices, packages: string[]): Promise<Engine> {
  const plugins = await loadPlugins({ packages });
  // The order analyze runs them in when none are named (openapi/cpet-api.yaml, analyzeCpet).
  const installed = (['vt', 'eov', 'substrate'] as const).filter((n) => plugins.analyses.some((a) => a.name === n));
  const names = (choices.analyses ?? installed) as AnalysisName[];
  const unknown = names.filter((n) => !(installed as readonly string[]).includes(n));
  if (unknown.length > 0) throw new ServiceError('UNKNOWN_ANALYSIS', `Unknown analysis ${unknown.join(', ')}; known: ${installed.join(', ')}.`, { unknown, available: installed });
  const metrics = createMetricRegistry(plugins.analyses.flatMap((a) => a.metrics ?? []))
    .list()
    .map((m) => m.name);
  // The server's own budgets, so a pathological file fails alone here too; files are fed `jobs` at a time.
  const runner = createTaskRunner({
    workers: choices.jobs,
    taskTimeoutMs: OPERATIONS_DEFAULTS.taskTimeoutMs,
    workerMemoryMb: OPERATIONS_DEFAULTS.workerMemoryMb,
    queueLimit: OPERATIONS_DEFAULTS.workerQueueLimit,
    packages,
  });
  const request = { model: choices.model ?? null, model_version: choices.model_version ?? null, medications: null, key: { tier: 'research' as const, allowed_models: null }, surface: 'api' as const };

  return {
    where: 'in process',
    async analyze(path, display): Promise<FileOutcome> {
      let summary: FileOutcome['summary'] = null;
      try {
        const bytes = new Uint8Array(await readFile(path));
        const size = bytes.length;
        const read = unwrap(await runner.run({ kind: 'parse', filename: basename(path), bytes, packages }), 'parse');
        // A run in process stores nothing: the summary has no handle and no retention.
        const {
          cpet_id: _id,
          retention: _retention,
          ...rest
        } = uploadSummary({
          cpet_id: '',
          key_id: '',
          filename: basename(path),
          bytes: size,
          uploaded_at_ms: 0,
          expires_at_ms: 0,
          retain_hours: 0,
          detection: read.detection,
          summary: read.summary,
          encoded: read.encoded,
        });
        summary = rest;
        // Each task takes its own copy of the block over: a worker owns what it is handed.
        const payload = () => ({ encoded: { ...read.encoded, block: read.encoded.block.slice() } });
        const analyses = unwrap(await runner.run({ kind: 'analyze', recording: payload(), names, request, packages }), 'analyze');
        const computed = unwrap(await runner.run({ kind: 'compute', recording: payload(), names: metrics, packages }), 'compute');
        return { file: display, status: 'ok', cpet_id: null, summary, analyses: analyses as FileOutcome['analyses'], metrics: computed as FileOutcome['metrics'], error: null };
      } catch (err) {
        return failed(display, refusalOf(err), summary);
      }
    },
    close: () => runner.close(),
  };
}
