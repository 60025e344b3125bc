/**
 * Phase labels as carts write them in a `Phase` column, in the languages of the column dictionary.
 * COSMED writes `REST`, `WARMUP`, `EXERCISE`, `RECOVERY` (German exports too); MetaSoft `Ruhe`,
 * `Unbelastetes Treten`, `Erwärmung`, `Belastung`, `Erholung`.
 */
import type { PhaseName } from '../../recording/recording.js';
import { nameKey } from './dictionary.js';

const LABELS: Readonly<Record<PhaseName, readonly string[]>> = {
  rest: ['rest', 'baseline', 'pre-test', 'ruhe', 'riposo', 'repos', 'reposo', 'rust', 'vila', 'hvile', 'lepo'],
  warmup: [
    'warmup',
    'warm up',
    'warm-up',
    'unloaded',
    'unloaded pedalling',
    'aufwarmen',
    'erwarmung',
    'unbelastetes treten',
    'riscaldamento',
    'echauffement',
    'calentamiento',
    'opwarming',
    'uppvarmning',
    'oppvarming',
    'opvarmning',
    'lammittely',
  ],
  exercise: ['exercise', 'load', 'test', 'belastung', 'esercizio', 'exercice', 'ejercicio', 'inspanning', 'belastning', 'arbete', 'arbeid', 'kuormitus'],
  recovery: ['recovery', 'cool down', 'cooldown', 'erholung', 'recupero', 'recuperation', 'recuperacion', 'herstel', 'aterhamtning', 'restitusjon', 'restitution', 'palautuminen'],
};

const BY_KEY: ReadonlyMap<string, PhaseName> = new Map(
  (Object.entries(LABELS) as [PhaseName, readonly string[]][]).flatMap(([phase, labels]) => labels.map((label) => [nameKey(label), phase] as const)),
);

/** The phase a label names, or null (numbers, blanks and unknown words are no phase). */
export function phaseOf(label: unknown): PhaseName | null {
  if (typeof label !== 'string') return null;
  return BY_KEY.get(nameKey(label)) ?? null;
}
