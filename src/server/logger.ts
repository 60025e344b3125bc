/**
 * Structured JSON logs (pino) on stdout: one access line per request and the errors, each a JSON
 * object a log shipper can index. Never the API key, the session cookie or file content.
 */
import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

/** A logger at `level` (fatal, error, warn, info, debug, trace or silent) writing to `destination` (default stdout). */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options = {
    level,
    base: { service: 'cpet-analysis-service' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  return destination ? pino(options, destination) : pino(options);
}
