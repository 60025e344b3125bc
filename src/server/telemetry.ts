/**
 * Prometheus metrics (prom-client) of one service: requests by route template and status, their
 * latency, analysis latency by analysis and model, the worker pool's queue, store errors and uploads
 * by format. Each service has its own registry, so tests can start several in one process. Labels
 * are route templates and codes, never ids, keys or file names: the series stay few.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Envelope } from '../analyses/run.js';

export interface Telemetry {
  readonly registry: Registry;
  request(method: string, route: string, status: number, seconds: number): void;
  observeAnalyses(envelopes: readonly Envelope[]): void;
  uploadStored(format: string): void;
  uploadRefused(code: string): void;
  storeError(operation: string): void;
  /** Reads the pool's queue on every scrape. */
  watchWorkers(load: () => { waiting: number; running: number }): void;
}

export function createTelemetry(): Telemetry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'cpet_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'cpet_http_request_duration_seconds',
    help: 'Time from request to the last byte of the answer, by method, route template and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const analyses = new Histogram({
    name: 'cpet_analysis_duration_seconds',
    help: 'Time one analysis took in its worker (provenance.latency_ms), by analysis, model and status.',
    labelNames: ['analysis', 'model', 'status'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const uploads = new Counter({ name: 'cpet_uploads_total', help: 'Uploads stored, by detected format.', labelNames: ['format'], registers: [registry] });
  const refused = new Counter({ name: 'cpet_upload_refusals_total', help: 'Uploads refused by the reader, by error code.', labelNames: ['code'], registers: [registry] });
  const storeErrors = new Counter({ name: 'cpet_store_errors_total', help: 'Store operations that failed, by operation.', labelNames: ['operation'], registers: [registry] });
  let load: () => { waiting: number; running: number } = () => ({ waiting: 0, running: 0 });
  new Gauge({
    name: 'cpet_worker_queue_depth',
    help: 'Tasks waiting for a worker thread.',
    registers: [registry],
    collect() {
      this.set(load().waiting);
    },
  });
  new Gauge({
    name: 'cpet_worker_tasks_running',
    help: 'Tasks running on worker threads.',
    registers: [registry],
    collect() {
      this.set(load().running);
    },
  });

  return {
    registry,
    request(method, route, status, seconds) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    observeAnalyses(envelopes) {
      for (const e of envelopes) {
        analyses.observe({ analysis: e.analysis, model: String(e.provenance.model ?? 'none'), status: e.status }, Number(e.provenance.latency_ms) / 1000);
      }
    },
    uploadStored: (format) => uploads.inc({ format }),
    uploadRefused: (code) => refused.inc({ code }),
    storeError: (operation) => storeErrors.inc({ operation }),
    watchWorkers(fn) {
      load = fn;
    },
  };
}
