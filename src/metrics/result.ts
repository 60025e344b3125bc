/**
 * Builders for metric results, and the rounding every metric applies so that the same recording
 * prints the same JSON in any process.
 */
import type { MetricResult, MetricUnavailableCode } from './metric-entry.js';

/** A successful result. */
export function ok(value: unknown, detail?: Record<string, unknown>): MetricResult {
  return detail ? { status: 'ok', value, detail } : { status: 'ok', value };
}

/** An unmet precondition, with a message a user understands and what would have worked. */
export function unavailable(error: MetricUnavailableCode, message: string, context: Record<string, unknown> = {}): MetricResult {
  return { status: 'unavailable', error, message, context };
}

/** `x` rounded to `digits` decimals (NaN and infinities become null, never a bare number). */
export function round(x: number, digits: number): number | null {
  if (!Number.isFinite(x)) return null;
  const f = 10 ** digits;
  const r = Math.round(x * f) / f;
  return Object.is(r, -0) ? 0 : r;
}
