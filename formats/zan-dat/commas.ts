/**
 * Counting the commas of a breath row's unused fields, which is most of what a row costs past the
 * fields the reader converts. A string has no word access, so where the text is the file's bytes
 * one for one (single-byte text: ASCII, or cp1252 as ZAN writes it) the count runs over the bytes
 * four at a time; elsewhere it runs over the characters.
 */
import type { FileView } from 'cpet-analysis-service/plugin';

const COMMA = 44;
/** A comma in each byte of a word. */
const COMMAS = 0x2c2c2c2c;
const LOW_SEVEN = 0x7f7f7f7f;

/** Counts the commas in text[from, to): over the bytes when they stand one for one for the characters. */
export type CommaCounter = (from: number, to: number) => number;

/**
 * The counter for `text` (the file's `text()`): over `file.bytes` when character i is byte i (UTF-8
 * that is all ASCII, or cp1252, with nothing stripped from the end), else over the characters.
 */
export function commaCounter(file: FileView, text: string): CommaCounter {
  const encoding = file.encoding();
  const bytes = file.bytes;
  if ((encoding === 'utf-8' || encoding === 'windows-1252') && bytes.length === text.length) return byteCounter(bytes);
  return (from, to) => commasInText(text, from, to);
}

/** The commas in text[from, to), character by character. */
export function commasInText(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === COMMA) count++;
  return count;
}

/**
 * Counts over the bytes: the unaligned ends one byte at a time, the aligned middle as 32-bit words
 * (native byte order does not matter for a count). In a word XORed with four commas a comma is a
 * zero byte; `~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f)` sets the top bit of exactly the
 * zero bytes (no carry crosses a byte), and multiplying those bits, shifted to the bottom, by
 * 0x01010101 sums them into the top byte.
 */
export function byteCounter(bytes: Uint8Array): CommaCounter {
  // Word w covers bytes [4w - lead, 4w - lead + 4) of `bytes`, lead being how far bytes[0] sits past a word boundary.
  const lead = bytes.byteOffset & 3;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset - lead, (lead + bytes.length) >> 2);
  return (from, to) => {
    let count = 0;
    let i = from;
    const firstWord = (i + lead + 3) >> 2;
    const endWord = (to + lead) >> 2;
    if (firstWord >= endWord) {
      for (; i < to; i++) if (bytes[i] === COMMA) count++;
      return count;
    }
    const alignedFrom = 4 * firstWord - lead;
    for (; i < alignedFrom; i++) if (bytes[i] === COMMA) count++;
    for (let w = firstWord; w < endWord; w++) {
      const x = words[w] ^ COMMAS;
      const zeros = ~(((x & LOW_SEVEN) + LOW_SEVEN) | x | LOW_SEVEN);
      count += Math.imul(zeros >>> 7, 0x01010101) >>> 24;
    }
    for (i = 4 * endWord - lead; i < to; i++) if (bytes[i] === COMMA) count++;
    return count;
  };
}
