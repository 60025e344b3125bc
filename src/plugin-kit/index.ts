/**
 * The plugin kit: everything a format plugin may use, from one entry point
 * (`import { ... } from 'cpet-analysis-service/plugin'`), so a plugin in a folder under formats/ or
 * in an npm package needs no deep import of the service's sources. It holds the plugin contract,
 * the canonical Recording and how to build one, the refusals a parser throws, the shared table
 * layer (header names, units, time forms, delimited text, sheets), and the checks a plugin's own
 * tests run on its fixtures.
 */

// The contract: what a plugin exports, and the bounded view of a file it reads.
export type { DetectResult, FormatMeta, FormatPlugin, FormatVariant, VariantEvidence } from '../formats/format-plugin.js';
export type { Container, Sheet, TextEncodingName } from '../formats/file-view.js';
export { FileView, READ_LIMITS } from '../formats/file-view.js';
export { MIN_SCORE } from '../formats/detect.js';

// The canonical Recording, in fixed units, and how a parser builds one.
export * from '../recording/recording.js';
export { buildRecording, extent, median, type RawColumns } from '../recording/build.js';
export * from '../recording/units.js';

// How a parser refuses a file it recognised but cannot read (422 PARSER_ERROR, saying where).
export { parserError, ServiceError, type FileLocation } from '../errors.js';

// The canonical JSON shape (the format to convert into when nothing reads a file).
export { CANONICAL_FORMAT_MARKER, CANONICAL_SCHEMA } from '../formats/recovery.js';

// Reading helpers: header matching, bounded XML.
export { findColumn, normaliseHeader } from '../formats/columns.js';
export { readSpreadsheetMl } from '../formats/safe-xml.js';

// The shared table layer: column dictionary, header names, units, time forms, delimited text, sheets.
export * from '../formats/table/body-mass.js';
export * from '../formats/table/delimited-text.js';
export * from '../formats/table/dictionary.js';
export * from '../formats/table/header-names.js';
export * from '../formats/table/locate.js';
export * from '../formats/table/phase-labels.js';
export * from '../formats/table/read-table.js';
export * from '../formats/table/sources.js';
export * from '../formats/table/time-column.js';
export * from '../formats/table/unit-decision.js';
export * from '../formats/table/unit-words.js';

// The checks a plugin's tests run on its fixtures.
export * from './fixtures.js';
