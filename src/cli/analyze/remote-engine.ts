/**
 * Analyses files on a service at a URL, through the client package: upload unchanged (multipart),
 * analyze, compute every metric of the registry, then delete the record unless asked to keep it.
 * A RATE_LIMITED answer is retried by the client after its Retry-After.
 */
import { createCpetClient } from '../../../clients/typescript/src/node.js';
import type { AnalyzeChoices, Engine } from './engine.js';
import { failed, refusalOf, type FileOutcome } from './outcome.js';

export interface RemoteOptions {
  url: string;
  apiKey: string;
  /** Keep each record on the service (default: delete it once its results are in). */
  keep: boolean;
}

export async function createRemoteEngine(choices: AnalyzeChoices, remote: RemoteOptions): Promise<Engine> {
  const cpet = createCpetClient({ baseUrl: remote.url, apiKey: remote.apiKey });
  await cpet.waitFor({ timeoutMs: 10_000 });
  const metrics = (await cpet.metrics()).map((m) => m.name);
  const body = { analyses: choices.analyses, model: choices.model, model_version: choices.model_version };

  return {
    where: remote.url,
    async analyze(path, display): Promise<FileOutcome> {
      let summary: FileOutcome['summary'] = null;
      let cpetId: string | null = null;
      try {
        const uploaded = await cpet.uploadFile(path);
        cpetId = uploaded.cpet_id;
        // A deleted record has no retention left to report.
        const { cpet_id: _id, retention, ...rest } = uploaded;
        summary = remote.keep ? { ...rest, retention } : rest;
        const analyzed = await cpet.analyze(uploaded.cpet_id, body);
        const computed = await cpet.compute(uploaded.cpet_id, metrics);
        if (!remote.keep) await cpet.deleteRecording(uploaded.cpet_id);
        return { file: display, status: 'ok', cpet_id: remote.keep ? uploaded.cpet_id : null, summary, analyses: analyzed.results, metrics: computed.metrics, error: null };
      } catch (err) {
        if (cpetId && !remote.keep) await cpet.deleteRecording(cpetId).catch(() => undefined);
        return failed(display, refusalOf(err), summary, remote.keep ? cpetId : null);
      }
    },
    close: async () => {},
  };
}
