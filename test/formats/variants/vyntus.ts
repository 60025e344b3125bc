/**
 * Vyntus / SentrySuite layouts generated from the one real export (Norwegian words: `ID-nummer`,
 * `Tid`, `g/dag`): the same file with SentrySuite's German, English and French labels.
 */
import { fixtureInput } from '../summary-snapshot.js';
import type { Variant } from './variant.js';

const FAMILY = 'vyntus-sentrysuite-txt';
const REAL = 'spiro-vyntus';

/** The real file's labels, and their German, English and French counterparts. */
const LABELS: Record<'de' | 'en' | 'fr', Record<string, string>> = {
  de: { 'ID-nummer:': 'ID-Nummer:', Tid: 'Zeit', Last: 'Last', RPM: 'Drehzahl', HF: 'HF', BF: 'AF', 'FETT g/d': 'FETT g/d', 'CHO g/d': 'KH g/d', 'g/dag': 'g/Tag' },
  en: { 'ID-nummer:': 'ID-number:', Tid: 'Time', Last: 'Load', RPM: 'RPM', HF: 'HR', BF: 'BF', 'FETT g/d': 'FAT g/d', 'CHO g/d': 'CHO g/d', 'g/dag': 'g/day' },
  fr: { 'ID-nummer:': 'N° ID:', Tid: 'Temps', Last: 'Charge', RPM: 'RPM', HF: 'FC', BF: 'FR', RER: 'QR', 'FETT g/d': 'LIPIDES g/j', 'CHO g/d': 'GLUCIDES g/j', 'g/dag': 'g/j' },
};

/** The real file with every tab-separated label cell translated; data cells untouched. */
function translated(language: keyof typeof LABELS): Buffer {
  const names = LABELS[language];
  const text = fixtureInput(FAMILY, REAL).bytes.toString('latin1');
  const out = text
    .split('\r\n')
    .map((line) =>
      line
        .split('\t')
        .map((cell) => names[cell] ?? cell)
        .join('\t'),
    )
    .join('\r\n');
  return Buffer.from(out, 'latin1');
}

export const VYNTUS_VARIANTS: readonly Variant[] = (['de', 'en', 'fr'] as const).map((language) => ({
  family: FAMILY,
  name: `${language}-txt`,
  filename: `vyntus-${language}.txt`,
  bytes: () => translated(language),
  original: REAL,
  format: FAMILY,
  time: 'same',
}));
