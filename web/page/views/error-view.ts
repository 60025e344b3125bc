/**
 * Errors as the service states them: the code, the message, and what `context` says would have
 * worked; for UNSUPPORTED_FORMAT the canonical shape to convert the file into (spec 7).
 */
import { CpetApiError, type Envelope } from '../../client/index.js';
import { h } from '../dom.js';
import { words } from '../format.js';
import { plain } from '../plain.js';

export { plain };

type Context = Record<string, unknown>;

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

function recoveryView(context: Context): HTMLElement[] {
  const recovery = context.recovery as { format?: string; filename_extension?: string; description?: string; schema?: unknown; example?: unknown } | undefined;
  const candidates = (context.candidates as { format: string; score: number; reasons: string[] }[] | undefined) ?? [];
  const out: HTMLElement[] = [];
  if (candidates.length) {
    out.push(
      h('p', {}, 'Closest formats the service tried:'),
      h(
        'ul',
        {},
        candidates.map((c) => h('li', {}, `${c.format} (score ${c.score.toFixed(2)}): ${c.reasons.join('; ') || 'no clue matched'}`)),
      ),
    );
  }
  if (recovery) {
    out.push(
      h(
        'p',
        { class: 'recovery-lead' },
        `What would work: convert the recording into the canonical JSON shape (format ${recovery.format ?? 'canonical-json'}, a ${recovery.filename_extension ?? '.json'} file) and upload that.`,
      ),
    );
    if (recovery.description) out.push(h('p', {}, plain(recovery.description)));
    out.push(
      h('details', { class: 'recovery', open: true }, h('summary', {}, 'Example of the canonical shape'), h('pre', { tabindex: 0, 'data-code-sample': 'true' }, json(recovery.example))),
      h('details', { class: 'recovery' }, h('summary', {}, 'JSON Schema of the canonical shape'), h('pre', { tabindex: 0 }, json(recovery.schema))),
    );
  }
  return out;
}

/** What `context` says would have worked, in words where the code has a known shape. */
export function contextView(code: string, context: Context): HTMLElement[] {
  if (code === 'UNSUPPORTED_FORMAT') return recoveryView(context);
  const out: HTMLElement[] = [];
  const errors = context.errors as { loc: (string | number)[]; msg: string }[] | undefined;
  if (Array.isArray(errors))
    out.push(
      h(
        'ul',
        {},
        errors.map((e) => h('li', {}, plain(e.msg))),
      ),
    );
  if (Array.isArray(context.missing))
    out.push(
      h('p', {}, `Missing: ${(context.missing as string[]).map(named).join(', ')}${Array.isArray(context.required) ? `; needed: ${(context.required as string[]).map(named).join(', ')}` : ''}.`),
    );
  if (Array.isArray(context.available))
    out.push(
      h(
        'p',
        {},
        `Available: ${(context.available as unknown[])
          .map((a) => (typeof a === 'string' ? a : ((a as { name?: string }).name ?? '')))
          .filter(Boolean)
          .join(', ')}.`,
      ),
    );
  if (typeof context.retry_after_s === 'number') out.push(h('p', {}, `Try again in ${context.retry_after_s} s.`));
  if (typeof context.monthly_limit === 'number')
    out.push(h('p', {}, `Monthly limit ${context.monthly_limit} units; used ${String(context.units_used ?? '?')} in ${String(context.month ?? 'this month')}.`));
  return out;
}

/** A missing or needed item as a reader names it: channels (VO2, PetCO2) as they are, request fields (body_mass_kg) in words. */
function named(item: string): string {
  return /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(item) ? words(item) : item;
}

/** The code and the whole context as the API sent them, folded away: for a bug report, not for reading. */
function technical(code: string, context: Context): HTMLElement {
  return h('details', { class: 'context' }, h('summary', {}, 'Technical details'), h('pre', { tabindex: 0 }, json({ error: code, context })));
}

/** A failed request: its code, message and context; anything else (the network) by its message. */
export function errorBox(title: string, error: unknown): HTMLElement {
  if (error instanceof CpetApiError) {
    return h(
      'div',
      { class: 'error-box', 'data-error': error.code },
      h('h3', {}, title),
      h('p', {}, plain(error.message)),
      contextView(error.code, error.context),
      technical(error.code, error.context),
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return h('div', { class: 'error-box', 'data-error': 'NETWORK' }, h('h3', {}, title), h('p', {}, message));
}

/** An analysis that refused inside the 200 (status not_analysable). */
export function refusalBox(envelope: Envelope): HTMLElement {
  const code = envelope.error ?? 'NOT_ANALYSABLE';
  return h(
    'div',
    { class: 'error-box refusal', 'data-error': code },
    h('p', {}, plain(envelope.message ?? 'The recording cannot support this analysis.')),
    contextView(code, (envelope.context ?? {}) as Context),
    technical(code, (envelope.context ?? {}) as Context),
  );
}
