/**
 * What an error may echo of the caller's input: a bounded, shallow summary. An error answer never
 * grows with the request (a 20 MB body echoed back) and never fails to serialise (JSON.stringify
 * recurses, and overflows on an object nested a few thousand deep). The walk here is iterative, so
 * the depth of the input costs nothing.
 */

const MAX_STRING = 200;
const MAX_ITEMS = 20;
const MAX_DEPTH = 3;

/** The marker left where something was cut. */
export function truncationMarker(what: string): string {
  return `…[truncated: ${what}]`;
}

/** A string cut to `max` characters with a marker saying how long it was. */
export function boundedString(text: string, max = MAX_STRING): string {
  return text.length <= max ? text : `${text.slice(0, max)}${truncationMarker(`${text.length} characters`)}`;
}

/** A copy of `value` at most MAX_DEPTH deep, MAX_ITEMS wide and MAX_STRING long per string, with markers. */
export function boundedEcho(value: unknown): unknown {
  const root: { v: unknown } = { v: undefined };
  const stack: { from: unknown; into: Record<string | number, unknown>; slot: string | number; depth: number }[] = [{ from: value, into: root as never, slot: 'v', depth: 0 }];
  while (stack.length > 0) {
    const { from, into, slot, depth } = stack.pop() as (typeof stack)[number];
    if (typeof from === 'string') into[slot] = boundedString(from);
    else if (from === null || typeof from !== 'object') into[slot] = typeof from === 'number' && !Number.isFinite(from) ? String(from) : from;
    else if (depth >= MAX_DEPTH) into[slot] = truncationMarker(Array.isArray(from) ? `an array nested deeper than ${MAX_DEPTH}` : `an object nested deeper than ${MAX_DEPTH}`);
    else if (Array.isArray(from)) {
      const out: unknown[] = [];
      into[slot] = out;
      const n = Math.min(from.length, MAX_ITEMS);
      for (let i = 0; i < n; i++) stack.push({ from: from[i], into: out as never, slot: i, depth: depth + 1 });
      if (from.length > MAX_ITEMS) out[MAX_ITEMS] = truncationMarker(`${from.length} items`);
    } else {
      const out: Record<string, unknown> = {};
      into[slot] = out;
      const keys = Object.keys(from);
      for (const k of keys.slice(0, MAX_ITEMS)) stack.push({ from: (from as Record<string, unknown>)[k], into: out, slot: boundedString(k, 64), depth: depth + 1 });
      if (keys.length > MAX_ITEMS) out['…'] = truncationMarker(`${keys.length} keys`);
    }
  }
  return root.v;
}
