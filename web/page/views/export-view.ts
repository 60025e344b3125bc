/** The export buttons: results as JSON and CSV, the plot as PNG, the recording itself as CSV, and the printable one-page report. */
import { h, heading, replace } from '../dom.js';
import { download, resultsCsv, resultsJson } from '../exports.js';
import type { Results } from '../results.js';

export interface ExportActions {
  plotPng(): Promise<Blob | null>;
  /** The stored recording at full resolution from the service (metered like any export). */
  recordingCsv(): Promise<Blob>;
  print(): void;
}

export function renderExport(section: HTMLElement, results: Results, actions: ExportActions): void {
  const base = `cpet-${results.summary.cpet_id.slice(0, 8)}`;
  const status = h('p', { class: 'status', role: 'status' });
  replace(
    section,
    heading('export-title', 'Export'),
    h('p', { class: 'help' }, 'The files carry every note the numbers need and the research-software disclaimer; the reading line is never part of them.'),
    h(
      'div',
      { class: 'toolbar' },
      h('button', { type: 'button', id: 'export-json', onclick: () => download(new Blob([resultsJson(results)], { type: 'application/json' }), `${base}-results.json`) }, 'Results as JSON'),
      h('button', { type: 'button', id: 'export-csv', onclick: () => download(new Blob([resultsCsv(results)], { type: 'text/csv' }), `${base}-results.csv`) }, 'Results as CSV'),
      h(
        'button',
        {
          type: 'button',
          id: 'export-png',
          onclick: async () => {
            const png = await actions.plotPng();
            if (png) download(png, `${base}-plot.png`);
            else status.textContent = 'No plot to export: the series could not be read.';
          },
        },
        'Plot as PNG',
      ),
      h(
        'button',
        {
          type: 'button',
          id: 'export-recording',
          onclick: async () => {
            status.textContent = 'Preparing the recording…';
            try {
              download(await actions.recordingCsv(), `${base}-recording.csv`);
              status.textContent = '';
            } catch (err) {
              status.textContent = `The recording could not be exported: ${err instanceof Error ? err.message : String(err)}`;
            }
          },
        },
        'Recording as CSV (every sample)',
      ),
      h('button', { type: 'button', id: 'print-report', onclick: () => actions.print() }, 'Print the one-page report'),
    ),
    status,
  );
  section.hidden = false;
}
