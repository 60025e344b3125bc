/**
 * The plugin kit: everything a format plugin may use, from one entry point, so a plugin in a folder
 * under formats/ or in an npm package needs no deep import of the service's sources. It holds the
 * plugin contract, the canonical Recording and how to build one, the refusals a parser throws, the
 * shared table layer (header names, units, time forms, delimited text, sheets), and the checks a
 * plugin's own tests run on its fixtures.
 *
 * One module under two names: `cpet-plugin-kit`, this package (built by build.mjs into a bundle
 * with declarations, what a plugin outside the repository installs), and `cpet-analysis-service/plugin`,
 * the service's export of this file. In a running service both resolve here
 * (src/plugin-kit/resolve-hooks.mjs), so a plugin shares the service's Recording and ParserError.
 */

// The contract: what a plugin exports, and the bounded view of a file it reads.
export type { DetectResult, FormatMeta, FormatPlugin, FormatVariant, VariantEvidence } from '../../../src/formats/format-plugin.js';
export type { Container, Sheet, TextEncodingName } from '../../../src/formats/file-view.js';
export { FileView, READ_LIMITS, UNREAD } from '../../../src/formats/file-view.js';
export { MIN_SCORE } from '../../../src/formats/detect.js';

// The canonical Recording, in fixed units, and how a parser builds one.
export * from '../../../src/recording/recording.js';
export { buildRecording, extent, median, type RawColumns } from '../../../src/recording/build.js';
export * from '../../../src/recording/units.js';

// How a parser refuses a file it recognised but cannot read (422 PARSER_ERROR, saying where).
export { parserError, ServiceError, type FileLocation } from '../../../src/errors.js';

// The canonical JSON shape (the format to convert into when nothing reads a file).
export { CANONICAL_FORMAT_MARKER, CANONICAL_SCHEMA } from '../../../src/formats/recovery.js';

// Reading helpers: header matching, bounded XML.
export { findColumn, normaliseHeader } from '../../../src/formats/columns.js';
export { readSpreadsheetMl } from '../../../src/formats/safe-xml.js';

// The shared table layer: column dictionary, header names, units, time forms, delimited text, sheets.
export * from '../../../src/formats/table/body-mass.js';
export * from '../../../src/formats/table/delimited-text.js';
export * from '../../../src/formats/table/dictionary.js';
export * from '../../../src/formats/table/header-names.js';
export * from '../../../src/formats/table/locate.js';
export * from '../../../src/formats/table/phase-labels.js';
export * from '../../../src/formats/table/read-table.js';
export * from '../../../src/formats/table/sources.js';
export * from '../../../src/formats/table/time-column.js';
export * from '../../../src/formats/table/unit-decision.js';
export * from '../../../src/formats/table/unit-words.js';

// The checks a plugin's tests run on its fixtures.
export * from '../../../src/plugin-kit/fixtures.js';
