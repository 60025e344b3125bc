/**
 * What a vendor format plugin is: plain metadata (read by GET /v1/formats and the spec's enum
 * without loading a parser), a detector over a bounded view of the file, and a parser.
 */
import type { Recording } from '../recording/recording.js';
import type { FileView } from './file-view.js';

export interface FormatMeta {
  /** Kebab-case id, e.g. `cosmed-omnia-xlsx`; reported as `source.format`. */
  id: string;
  /** What the file is, in words a lab user recognises. */
  label: string;
  vendor: string;
  software: string;
  /** Lower-case extensions without the dot. One clue among several, never the whole answer. */
  extensions: string[];
  media_types: string[];
  /** How detection recognises this format, in one or two sentences. */
  detection: string;
  /** Number of real example files the plugin was built and tested on (0: built from documentation). */
  example_files: number;
  /** Caveats a user should know: variants not seen, languages covered. */
  notes?: string;
  /**
   * A format of last resort (the generic table): consulted only when no other format reaches the
   * minimum score, and never scored above it, so any vendor match outranks it.
   */
  last_resort?: boolean;
  /** The layouts this plugin reads, and what each rests on; listed by GET /v1/formats. */
  variants?: readonly FormatVariant[];
}

/** What a variant rests on: a real vendor file, one generated from a real file by the tests, a synthetic file, or documentation only. */
export type VariantEvidence = 'real_file' | 'generated_from_real_file' | 'synthetic' | 'documentation';

/** One layout of a format (language, container, header block or not, units row or not). */
export interface FormatVariant {
  name: string;
  description: string;
  evidence: VariantEvidence;
}

/** A detector's verdict: a score in [0, 1] and the evidence for it. */
export interface DetectResult {
  score: number;
  reasons: string[];
}

export interface FormatPlugin {
  meta: FormatMeta;
  /** Scores the file from its content; must not throw and must read only a bounded head. */
  detect(file: FileView): DetectResult;
  /** Reads the file into a Recording; throws ServiceError PARSER_ERROR saying where it stopped. */
  parse(file: FileView): Recording | Promise<Recording>;
}
