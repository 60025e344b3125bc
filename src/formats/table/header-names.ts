/**
 * Reads one header cell as the dictionary sees it. A header may carry more than a name: a unit
 * (`VO2 (L/min)`, `time_s`, `vo2_ml_kg_min`), a qualifier (`V'E (BTPS)`, `vt.btps`), or the suffix a
 * tool adds to a repeated name (readr's `VO2...4`, pandas' `VO2.1`, janitor's `vo2_2`).
 */
import { lookupKey, nameKey, type DictionaryEntry, type Quantity } from './dictionary.js';
import { unitMeaning } from './unit-words.js';

type VendorEntry = Quantity | { quantity: 'not_read'; note: string };
/** Vendor names layered over the dictionary for one read: key to quantity, with a note for the ones left unread. */
export type VendorNames = ReadonlyMap<string, VendorEntry>;

/** Vendor names as the vendor writes them (`VO2_I`), keyed as the dictionary compares them. */
export function vendorNames(spec: Readonly<Record<string, VendorEntry>>): VendorNames {
  return new Map(Object.entries(spec).map(([name, entry]) => [nameKey(name), entry]));
}

export interface HeaderName {
  /** The header as written, trimmed. */
  header: string;
  /** What the name says the column holds; null when neither the dictionary nor the vendor knows it. */
  quantity: Quantity | null;
  /** For `not_read` columns: what the column is. */
  note?: string;
  /** Position of the matched name within its entry (0 = the entry's best name). */
  rank: number;
  /** A name too short to trust without a unit (`P`, `v`, `f`). */
  weak: boolean;
  /** A unit written inside the header (`(L/min)`, `_s`), or null. */
  unit: string | null;
  qualifier: 'btps' | 'stpd' | 'atps' | null;
  /** The name carries a tool's duplicate suffix (`...4`, `.1`, `_2`). */
  renamed_duplicate: boolean;
  /** The name says the value is absolute (`vo2_abs`), as against per kg. */
  absolute: boolean;
}

const NO_VENDOR_NAMES: VendorNames = new Map();
const QUALIFIERS = new Set(['btps', 'stpd', 'atps']);
/** readr's repair of repeated names: `VO2...4` (the column's position after three dots). */
const READR_SUFFIX = /\.\.\.\d+$/;
/** pandas, R's make.unique and janitor: `VO2.1`, `vo2_2`. */
const COUNTER_SUFFIX = /[._]\d+$/;
/** A trailing group in brackets: `V'E (BTPS)`, `VO2 [mL/min]`. */
const BRACKETED = /^(.*?)\s*[([]([^)\]]*)[)\]]\s*$/;

/** Headers read without vendor names, by their text: detectors and parsers read the same header rows again and again. */
const MEMO = new Map<string, Readonly<HeaderName>>();
const MEMO_LIMIT = 10_000;

/** Reads a header cell; `vendor` names are tried before the dictionary's. The result is shared: never change it. */
export function readHeaderName(cell: unknown, vendor: VendorNames = NO_VENDOR_NAMES): Readonly<HeaderName> {
  if (vendor !== NO_VENDOR_NAMES || typeof cell !== 'string') return resolveHeader(cell, vendor);
  let name = MEMO.get(cell);
  if (!name) {
    if (MEMO.size >= MEMO_LIMIT) MEMO.clear();
    name = Object.freeze(resolveHeader(cell, vendor));
    MEMO.set(cell, name);
  }
  return name;
}

function resolveHeader(cell: unknown, vendor: VendorNames): HeaderName {
  const header = cell === null || cell === undefined ? '' : String(cell).trim();
  const out: HeaderName = { header, quantity: null, rank: 0, weak: false, unit: null, qualifier: null, renamed_duplicate: false, absolute: false };
  if (header === '') return out;
  let text = header;
  if (READR_SUFFIX.test(text)) {
    text = text.replace(READR_SUFFIX, '');
    out.renamed_duplicate = true;
  }
  if (resolve(out, nameKey(text), vendor)) return out;

  const bracketed = BRACKETED.exec(text);
  if (bracketed) {
    const inner = bracketed[2].trim();
    if (QUALIFIERS.has(inner.toLowerCase())) out.qualifier = inner.toLowerCase() as HeaderName['qualifier'];
    else if (unitMeaning(inner)) out.unit = inner;
    if ((out.qualifier || out.unit) && resolve(out, nameKey(bracketed[1]), vendor)) return out;
    out.qualifier = null;
    out.unit = null;
  }

  if (resolveWithoutTrailing(out, nameKey(text), vendor)) return out;

  const counted = COUNTER_SUFFIX.exec(text);
  if (counted && !out.renamed_duplicate) {
    const base = text.slice(0, counted.index);
    if (resolve(out, nameKey(base), vendor) || resolveWithoutTrailing(out, nameKey(base), vendor)) {
      out.renamed_duplicate = true;
      return out;
    }
  }
  return out;
}

/** Looks a key up, vendor names first; fills `out` and says whether it matched. */
function resolve(out: HeaderName, key: string, vendor: VendorNames): boolean {
  const own = vendor.get(key);
  if (own !== undefined) {
    if (typeof own === 'string') out.quantity = own;
    else {
      out.quantity = own.quantity;
      out.note = own.note;
    }
    return true;
  }
  const hit = lookupKey(key);
  if (!hit) return false;
  fill(out, hit.entry, hit.rank, hit.weak);
  out.absolute = /\babs/.test(key);
  return true;
}

function fill(out: HeaderName, entry: DictionaryEntry, rank: number, weak: boolean): void {
  out.quantity = entry.quantity;
  out.note = entry.note;
  out.rank = rank;
  out.weak = weak;
}

/**
 * Drops trailing qualifier and unit words (`vt btps`, `time s`, `vo2 ml kg min`) until the rest
 * is a known name; units of several words are tried joined by `/` (`l min` is `l/min`).
 */
function resolveWithoutTrailing(out: HeaderName, key: string, vendor: VendorNames): boolean {
  const words = key.split(' ');
  let end = words.length;
  let qualifier: HeaderName['qualifier'] = null;
  let unit: string | null = null;
  while (end > 1) {
    const last = words[end - 1];
    if (QUALIFIERS.has(last) && qualifier === null) {
      qualifier = last as HeaderName['qualifier'];
      end--;
    } else if (unit === null) {
      const span = [3, 2, 1].find((n) => end - n >= 1 && unitMeaning(words.slice(end - n, end).join('/')));
      if (span === undefined) return false;
      unit = words.slice(end - span, end).join('/');
      end -= span;
    } else {
      return false;
    }
    if (resolve(out, words.slice(0, end).join(' '), vendor)) {
      out.qualifier = qualifier;
      out.unit = unit;
      return true;
    }
  }
  return false;
}
