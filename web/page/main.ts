/**
 * The web application: a key for the tab, an upload (file, drop or the public sample), then every
 * answer the service gives for the recording, shown where it belongs. All calls go through the typed
 * client in web/client; the domain curves and the alternative engine through its web session.
 */
import './styles.css';
import { createCpetClient, type UploadSummary } from '../client/index.js';
import { byId, replace } from './dom.js';
import { engines, landmarkMarks, overlayState } from './overlay-state.js';
import { compositeCanvas, type LegendEntry } from './plot/composite.js';
import { DOMAIN, WARNING } from './plot/colors.js';
import { alternativeModels, settle, type Results } from './results.js';
import { DISCLAIMER } from './notes.js';
import { errorBox } from './views/error-view.js';
import { renderEov } from './views/eov-view.js';
import { renderExport } from './views/export-view.js';
import { renderMetrics } from './views/metrics-view.js';
import { renderPlot, type PlotView } from './views/plot-view.js';
import { buildReport } from './views/report-view.js';
import { renderSubstrate } from './views/substrate-view.js';
import { renderSummary } from './views/summary-view.js';
import { renderThresholds } from './views/thresholds-view.js';
import { seriesNames } from './plot/panel-specs.js';

const KEY_ITEM = 'cpet.apiKey';
/** The most points the series route gives per channel. */
const MAX_POINTS = 5000;

const app = byId('app');
const keyInput = byId<HTMLInputElement>('api-key');
const keyStatus = byId('key-status');
const fileInput = byId<HTMLInputElement>('file-input');
const dropZone = byId('drop-zone');
const progress = byId('progress');
const progressBar = byId<HTMLProgressElement>('upload-progress');
const progressLabel = byId('progress-label');
const progressText = byId('progress-text');
const errors = byId('errors');
const report = byId('report');
const sections = ['summary', 'plot', 'thresholds', 'eov', 'substrate', 'metrics', 'export'].map((id) => byId(id));
const controls = [fileInput, byId<HTMLButtonElement>('load-sample'), byId<HTMLButtonElement>('load-sample-oscillating')];

let apiKey: string | null = sessionStorage.getItem(KEY_ITEM);
const client = createCpetClient({ apiKey: () => apiKey });
let current: { results: Results; plot: PlotView | null; destroy: () => void } | null = null;

if (apiKey) {
  keyInput.value = apiKey;
  keyStatus.textContent = 'Key kept for this tab.';
}

function setState(state: 'idle' | 'busy' | 'ready' | 'error'): void {
  app.dataset.state = state;
  for (const c of controls) c.disabled = state === 'busy';
}
setState('idle');

async function useKey(value: string): Promise<void> {
  await client.web.end().catch(() => undefined);
  apiKey = value;
  sessionStorage.setItem(KEY_ITEM, value);
  try {
    const caps = await client.capabilities();
    replace(keyStatus, `Key ${caps.key.name} (${caps.key.tier} tier; ${caps.key.products.join(', ')}), kept for this tab; ${caps.usage.units_used} units used in ${caps.usage.month}.`);
  } catch (err) {
    replace(keyStatus, errorBox('This key was not accepted', err));
  }
}

byId('key-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const value = keyInput.value.trim();
  if (value) void useKey(value);
  else keyStatus.textContent = 'Enter a key.';
});
byId('forget-key').addEventListener('click', () => {
  void client.web.end().catch(() => undefined);
  apiKey = null;
  sessionStorage.removeItem(KEY_ITEM);
  keyInput.value = '';
  keyStatus.textContent = 'Key forgotten.';
});

/** The key to use; a key typed but not yet confirmed counts. */
function haveKey(): boolean {
  const typed = keyInput.value.trim();
  if (typed && typed !== apiKey) {
    apiKey = typed;
    sessionStorage.setItem(KEY_ITEM, typed);
  }
  if (apiKey) return true;
  replace(errors, errorBox('No API key', new Error('Enter your API key first: every call of the service needs one.')));
  keyInput.focus();
  return false;
}

function showProgress(label: string, fraction: number | null): void {
  progress.hidden = false;
  progressLabel.textContent = label;
  if (fraction === null) progressBar.removeAttribute('value');
  else progressBar.value = Math.round(fraction * 100);
  progressText.textContent = fraction === null ? `${label}…` : `${label}: ${Math.round(fraction * 100)} %`;
}

function clearResults(): void {
  current?.destroy();
  current = null;
  for (const s of sections) {
    s.hidden = true;
    s.replaceChildren();
  }
  report.replaceChildren();
  errors.replaceChildren();
}

async function upload(run: (onProgress: (f: number) => void) => Promise<UploadSummary>): Promise<void> {
  if (!haveKey()) return;
  clearResults();
  setState('busy');
  showProgress('Uploading', 0);
  let summary: UploadSummary;
  try {
    summary = await run((f) => showProgress('Uploading', f));
  } catch (err) {
    progress.hidden = true;
    replace(errors, errorBox('The upload was refused', err));
    setState('error');
    return;
  }
  showProgress('Analysing', null);
  await analyse(summary);
  showProgress('Done', 1);
  progressText.textContent = 'Done: the results are below.';
  setState('ready');
}

/** Every answer for the recording, fetched in two rounds (the second needs names from the first). */
async function analyse(summary: UploadSummary): Promise<void> {
  renderSummary(sections[0], summary);
  const id = summary.cpet_id;
  const load = summary.load.channel === 'Speed' ? 'Speed' : 'Load';
  const channels = summary.channels as Record<string, { present: boolean }>;
  const derivable: Record<string, string[]> = { O2pulse: ['VO2', 'HR'], 'VE/VO2': ['VE', 'VO2'], 'VE/VCO2': ['VE', 'VCO2'], RER: ['VO2', 'VCO2'] };
  const wanted = seriesNames(load).filter((n) => channels[n]?.present || (derivable[n]?.every((c) => channels[c]?.present) ?? false));
  const [series, analyses, registry, models, domains] = await Promise.all([
    settle(client.series(id, { channels: wanted.join(','), max_points: MAX_POINTS })),
    settle(client.analyze(id, {})),
    settle(client.metrics()),
    settle(client.web.models()),
    settle(client.web.domains(id)),
  ]);
  const engines = models.ok ? alternativeModels(models.value) : [];
  const [metrics, ...alternativeRuns] = await Promise.all([
    registry.ok
      ? settle(
          client.compute(
            id,
            registry.value.map((m) => m.name),
          ),
        )
      : Promise.resolve(registry as { ok: false; error: unknown }),
    ...engines.map((m) => settle(client.web.analyze(id, { analyses: ['vt'], model: m.name }))),
  ]);
  const results: Results = {
    summary,
    series,
    analyses,
    models,
    alternatives: engines.map((model, i) => ({ model, run: alternativeRuns[i] })),
    domains,
    registry,
    metrics: metrics as Results['metrics'],
  };
  show(results);
}

function legendEntries(results: Results, plot: PlotView): LegendEntry[] {
  const entries: LegendEntry[] = [];
  for (const e of engines(results)) {
    if (!e.findings || (e.findings.vt1_time_s === null && e.findings.vt2_time_s === null)) continue;
    entries.push({ color: e.color, dashed: e.dashed, text: `VT1 / VT2 of the ${e.role === 'default' ? 'default model' : 'alternative engine'} ${e.ran} (${e.dashed ? 'dashed' : 'solid'})` });
    for (const x of e.implausible) entries.push({ color: WARNING, dashed: false, text: `⚠ ${e.ran}: ${x.detail}` });
  }
  const marks = landmarkMarks(results);
  if (marks.length) entries.push({ color: '#374151', dashed: false, text: `Landmarks: ${marks.map((m) => `${m.short} ${m.label}`).join(', ')}` });
  if (plot.state.domains)
    entries.push({
      color: DOMAIN.heavy,
      dashed: false,
      text: `Band under the time axes: moderate (green), heavy (amber), severe (red) probability per second, ${plot.state.domains.model} ${plot.state.domains.model_version}`,
    });
  return entries;
}

function show(results: Results): void {
  const state = overlayState(results);
  const plot = renderPlot(sections[1], results, state);
  renderThresholds(sections[2], results);
  const eov = renderEov(sections[3], results);
  const substrate = renderSubstrate(sections[4], results);
  renderMetrics(sections[5], results);
  const composite = async () => (plot ? compositeCanvas(plot.grid, plot.state, `${results.summary.source.filename}: Wasserman nine-panel plot`, legendEntries(results, plot), DISCLAIMER) : null);
  // The report is prepared as soon as the results are shown, so the browser's own print command has it too.
  const prepareReport = async () => {
    delete report.dataset.ready;
    buildReport(report, results, (await composite())?.toDataURL('image/png') ?? null);
    report.dataset.ready = 'true';
  };
  void prepareReport();
  renderExport(sections[6], results, {
    plotPng: async () => {
      const canvas = await composite();
      return canvas ? new Promise((resolve) => canvas.toBlob((b) => resolve(b), 'image/png')) : null;
    },
    recordingCsv: () => client.exportRecording(results.summary.cpet_id, { format: 'csv' }),
    print: () => void prepareReport().then(() => window.print()),
  });
  current = {
    results,
    plot,
    destroy: () => {
      plot?.destroy();
      eov?.destroy();
      substrate?.destroy();
    },
  };
}

// Printing before the prepared report is ready still prints the numbers and notes (without the image).
window.addEventListener('beforeprint', () => {
  if (current && !report.hasChildNodes()) buildReport(report, current.results, null);
});

fileInput.addEventListener('change', () => {
  const file = fileInput.files?.[0];
  if (file) void upload((onProgress) => client.uploadFile(file, file.name, onProgress));
  fileInput.value = '';
});
dropZone.addEventListener('dragover', (e) => {
  e.preventDefault();
  dropZone.classList.add('dragging');
});
dropZone.addEventListener('dragleave', () => dropZone.classList.remove('dragging'));
dropZone.addEventListener('drop', (e) => {
  e.preventDefault();
  dropZone.classList.remove('dragging');
  const file = e.dataTransfer?.files[0];
  if (file && app.dataset.state !== 'busy') void upload((onProgress) => client.uploadFile(file, file.name, onProgress));
});
for (const [id, oscillating] of [
  ['load-sample', false],
  ['load-sample-oscillating', true],
] as const) {
  byId(id).addEventListener(
    'click',
    () =>
      void upload(async (onProgress) => {
        const sample = await client.sample(oscillating);
        return client.uploadContent({ filename: sample.filename, content: sample.content }, onProgress);
      }),
  );
}
