/**
 * Progress of a batch run on stderr: on a terminal, one bar redrawn in place with the count, the
 * failures so far and the time left (estimated from the files done); otherwise (a log, CI) one
 * plain line per file, so nothing is overwritten.
 */
import type { FileOutcome } from './outcome.js';

export interface ProgressSink {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

const BAR_WIDTH = 24;

export class Progress {
  private done = 0;
  private failed = 0;
  private readonly startedMs: number;

  constructor(
    private readonly total: number,
    private readonly sink: ProgressSink,
    private readonly now: () => number = Date.now,
  ) {
    this.startedMs = now();
    if (sink.isTTY) this.draw();
  }

  /** One file finished. */
  tick(outcome: FileOutcome): void {
    this.done++;
    if (outcome.status === 'failed') this.failed++;
    if (this.sink.isTTY) {
      this.draw();
      return;
    }
    const width = String(this.total).length;
    const what = outcome.status === 'ok' ? `ok      ${outcome.file} (${outcome.summary?.source.format})` : `failed  ${outcome.file}: ${outcome.error?.error}`;
    this.sink.write(`[${String(this.done).padStart(width)}/${this.total}] ${what}\n`);
  }

  /** Ends the bar's line. */
  finish(): void {
    if (this.sink.isTTY) this.sink.write('\n');
  }

  private draw(): void {
    const filled = this.total === 0 ? BAR_WIDTH : Math.round((this.done / this.total) * BAR_WIDTH);
    const bar = `${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}`;
    const failures = this.failed > 0 ? `, ${this.failed} failed` : '';
    const line = `[${bar}] ${this.done}/${this.total}${failures}  ${this.eta()}`;
    this.sink.write(`\r${line.slice(0, Math.max(20, (this.sink.columns ?? 80) - 1)).padEnd(Math.min(line.length + 4, (this.sink.columns ?? 80) - 1))}`);
  }

  /** `ETA 2m05s` from the mean time per file so far; `ETA --` before the first file is done. */
  eta(): string {
    if (this.done === 0) return 'ETA --';
    if (this.done === this.total) return `done in ${duration((this.now() - this.startedMs) / 1000)}`;
    const left = ((this.now() - this.startedMs) / this.done) * (this.total - this.done);
    return `ETA ${duration(left / 1000)}`;
  }
}

function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
