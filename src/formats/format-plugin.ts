/**
 * What a vendor format plugin is: plain metadata (read by GET /v1/formats and the spec's enum
 * without loading a parser), a detector over a bounded view of the file, and a parser.
 */
import type { components } from '../generated/api.js';
import type { Recording } from '../recording/recording.js';
import type { FileView } from './file-view.js';

type FormatInfo = components['schemas']['FormatInfo'];

/**
 * A plugin's metadata: the contract's FormatInfo (what GET /v1/formats lists), so a field the
 * contract adds or changes reaches every plugin at compile time. Lists are readonly, so a plugin may
 * write them `as const`; `variants` may be left out (listed as none). `last_resort` marks the generic
 * table: consulted only when no other format reaches the minimum score, and never scored above it.
 */
export interface FormatMeta extends Omit<FormatInfo, 'extensions' | 'media_types' | 'variants'> {
  /** Lower-case extensions without the dot. One clue among several, never the whole answer. */
  extensions: readonly string[];
  media_types: readonly string[];
  variants?: readonly FormatVariant[];
}

/** A plugin's metadata as GET /v1/formats (and `cpet formats`) lists it. */
export function formatInfo(meta: FormatMeta): FormatInfo {
  return { ...meta, extensions: [...meta.extensions], media_types: [...meta.media_types], last_resort: meta.last_resort === true, variants: (meta.variants ?? []).map((v) => ({ ...v })) };
}

/** What a variant rests on: a real vendor file, one generated from a real file by the tests, a synthetic file, or documentation only. */
export type VariantEvidence = components['schemas']['FormatVariant']['evidence'];

/** One layout of a format (language, container, header block or not, units row or not). */
export type FormatVariant = Readonly<components['schemas']['FormatVariant']>;

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
