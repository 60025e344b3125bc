/** Where a batch run analyses its files: in this process, or on a service at a URL. */
import type { FileOutcome } from './outcome.js';

export interface Engine {
  /** Where the files are analysed, in words for the report ("in process", or the service's URL). */
  where: string;
  /** Reads and analyses one file; never throws (a failure is an outcome). `display` names it in the outcome. */
  analyze(path: string, display: string): Promise<FileOutcome>;
  close(): Promise<void>;
}

/** What the user chose for every file of the run. */
export interface AnalyzeChoices {
  /** Analyses to run; undefined: every one (in process) or every one the key allows (on a service). */
  analyses?: string[];
  model?: string;
  model_version?: string;
  /** Files analysed at once. */
  jobs: number;
}
