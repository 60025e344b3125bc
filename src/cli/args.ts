/**
 * Command-line arguments through node:util's parseArgs (strict: an unknown option or a missing
 * value is a usage mistake, exit code 2, never a silent default).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A usage mistake: printed with a pointer to --help, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** Parses `args` against `options` (plus --help); positionals are allowed only when `positionals` is set. */
export function parseCommand<O extends Options>(args: string[], options: O, positionals = false) {
  try {
    return parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: positionals, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
}

/** A whole number of at least `min` from an option's text. */
export function wholeNumber(text: string | undefined, option: string, min: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min) throw new UsageError(`--${option} must be a whole number of at least ${min}, not "${text}"`);
  return Number(text);
}

/** A comma-separated list, without empty items. */
export function list(text: string | undefined): string[] | undefined {
  return text === undefined
    ? undefined
    : text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
}
