/**
 * The column dictionary: every name a CPET table gives a column, in the languages carts export in
 * (EN, DE, IT, FR, ES, NL, SV, NO, DA, FI), mapped to what the column holds. Names are compared as
 * keys (`nameKey`): lower case, accents and primes dropped (`V'O2`, `V̇O2` and `VO2` are one key),
 * `_`, `.` and runs of spaces as one space. Within an entry the earlier name wins when a table has
 * two candidates (`Rf` before `RR`, which COSMED also uses for the ECG R-R interval).
 *
 * Names seen in a real export are marked with the file in a comment; the rest are the words the
 * vendors' software uses in each language, from their documentation and peer readers (spiro,
 * whippr, gasExchangeR, cardiometR's column vocabulary), and are checked only by the tests'
 * translated variants. A header that matches no name as written is tried once more with its spaces
 * and hyphens removed (`HeartRate`, `heart-rate` and `Heart Rate` are one name), so researcher-kept
 * tables that join words differently still read.
 */
import type { ChannelName } from '../../recording/recording.js';

/** What a column holds: a channel, the time axis, VO2 per kg, an end-tidal fraction, the phase label. */
export type ReadQuantity = ChannelName | 'time' | 'VO2/kg' | 'FetO2' | 'FetCO2' | 'phase';
/** A quantity the table layer reads, or one it knows and leaves (ratios, energy, clock time ...). */
export type Quantity = ReadQuantity | 'not_read';

export interface DictionaryEntry {
  quantity: Quantity;
  /** Names as keys (see `nameKey`), best first. */
  names: readonly string[];
  /**
   * Names too short to trust alone (`P`, `v`, `f`): read only when a unit (units row or header)
   * confirms what they measure.
   */
  weak?: readonly string[];
  /** For `not_read` entries: what the column is and why it is left. */
  note?: string;
}

/** A header as a dictionary key: lower case, no accents or primes, `_`/`.`/spaces as one space. */
export function nameKey(text: unknown): string {
  if (text === null || text === undefined) return '';
  return String(text)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’‘´`]/g, '')
    .replace(/[_.\s]+/g, ' ')
    .trim()
    .replace(/:$/, '');
}

export const DICTIONARY: readonly DictionaryEntry[] = [
  {
    quantity: 'time',
    // t: COSMED, Cortex; Time: MGC; Tid: Vyntus (NO); TIME: Parvo; time: pyoxynet.
    names: ['t', 'time', 'zeit', 'tid', 'temps', 'tempo', 'tiempo', 'tijd', 'aika', 'elapsed time', 'test time', 'testzeit', 'time elapsed'],
  },
  {
    quantity: 'VO2',
    // VO2: COSMED, Parvo, MGC; V'O2: Cortex, Vyntus; V'O2 (STPD): Cortex xlsx.
    // oxygen consumption, consommation d'oxygene, vo2 absolue: cardiometR's vocabulary (EN, FR).
    names: [
      'vo2',
      'vo2 abs',
      'vo2 absolute',
      'vo2abs',
      'abs vo2',
      'o2 uptake',
      'oxygen uptake',
      'sauerstoffaufnahme',
      'vo2 stpd',
      'oxygen consumption',
      'consommation doxygene',
      'consommation oxygene',
      'vo2 absolue',
    ],
  },
  {
    quantity: 'VO2/kg',
    // VO2/Kg: COSMED; V'O2/kg: Cortex, Vyntus; VO2/kg: Parvo.
    names: ['vo2/kg', 'vo2 kg', 'vo2kg', 'vo2/kg/min', 'vo2 rel', 'vo2 relative', 'relative vo2', 'rel vo2'],
  },
  { quantity: 'VCO2', names: ['vco2', 'vco2 abs', 'co2 output', 'co2 production', 'kohlendioxidabgabe', 'vco2 stpd', 'carbon dioxide output', 'production de co2', 'production co2', 'rejet de co2'] },
  {
    quantity: 'VE',
    // VE: COSMED, Parvo; V'E: Cortex, Vyntus; VE BTPS: MGC.
    // debit ventilatoire, ventilation par minute: cardiometR (FR).
    names: [
      've',
      'minute ventilation',
      'ventilation',
      'atemminutenvolumen',
      'ventilazione',
      'ventilacion',
      'ventilatie',
      'ventilasjon',
      'ventilation minute',
      'vent',
      'debit ventilatoire',
      'ventilation par minute',
      'minute volume',
    ],
  },
  {
    quantity: 'VT',
    // VT: COSMED, Cortex; Vt: Parvo; Vt BTPS: MGC; VTex: Vyntus.
    names: ['vt', 'vtex', 'vte', 'vtin', 'tidal volume', 'atemzugvolumen', 'volume courant', 'volume corrente', 'volumen corriente', 'teugvolume', 'tidalvolym', 'tidalvolum'],
  },
  {
    quantity: 'RF',
    // Rf: COSMED PFT; Af: COSMED Omnia DE; AF: Cortex; BF: Vyntus; RR: Parvo, MGC.
    names: [
      'rf',
      'af',
      'bf',
      'rr',
      'fr',
      'fb',
      'br rate',
      'resp rate',
      'respiratory rate',
      'respiration rate',
      'breathing frequency',
      'breathing rate',
      'atemfrequenz',
      'frequenza respiratoria',
      'frequence respiratoire',
      'frecuencia respiratoria',
      'ademfrequentie',
      'andningsfrekvens',
      'respirasjonsfrekvens',
      'respirationsfrekvens',
      'hengitystiheys',
      'breath rate',
      'f resp',
      'freq resp',
      'rythme respiratoire',
    ],
    weak: ['f'],
  },
  {
    quantity: 'PetO2',
    // PetO2: COSMED PFT, Cortex; PeO2: COSMED Omnia DE; PETO2: MGC.
    // et o2, po2 telexpiratoire: cardiometR (EN, FR).
    names: ['peto2', 'pet o2', 'peo2', 'eto2', 'end tidal o2', 'endtidal o2', 'po2 telexpiratoire', 'o2 tele expiratoire'],
  },
  { quantity: 'PetCO2', names: ['petco2', 'pet co2', 'peco2', 'etco2', 'end tidal co2', 'endtidal co2', 'pco2 telexpiratoire', 'co2 tele expiratoire'] },
  {
    quantity: 'FetO2',
    // FetO2: COSMED PFT; FEetO2: Cortex xlsx. An end-tidal fraction, read as PetO2 only when no PetO2 column exists.
    names: ['feto2', 'feeto2', 'fet o2', 'fe et o2'],
  },
  { quantity: 'FetCO2', names: ['fetco2', 'feetco2', 'fet co2', 'fe et co2'] },
  {
    quantity: 'HR',
    // HR: COSMED PFT, MGC, Parvo, ZAN; HF: COSMED DE, Cortex, Vyntus (spiro reads both); heartrate,
    // HeartRate: researcher-kept tables (issue 19); cardiac frequency, freq cardiaque:
    // cardiometR (EN, FR); pulse rate, heart frequency: watch and ergometer exports.
    names: [
      'hr',
      'hf',
      'fc',
      'puls',
      'pulse',
      'heart rate',
      'herzfrequenz',
      'frequenza cardiaca',
      'frequence cardiaque',
      'frecuencia cardiaca',
      'hartfrequentie',
      'hjartfrekvens',
      'hjertefrekvens',
      'syke',
      'sydamen syke',
      'cardiac frequency',
      'freq cardiaque',
      'heart frequency',
      'pulse rate',
      'pulsfrequenz',
    ],
  },
  {
    quantity: 'Load',
    // Load1 and Power: COSMED; P: Cortex; Last: Vyntus (NO), ZAN; WorkR: Parvo.
    names: [
      'load',
      'load1',
      'power',
      'work',
      'workr',
      'wr',
      'work rate',
      'workload',
      'watt',
      'watts',
      'last',
      'leistung',
      'belastung',
      'charge',
      'puissance',
      'carico',
      'potenza',
      'carga',
      'potencia',
      'belasting',
      'vermogen',
      'belastning',
      'effekt',
      'kuorma',
      'teho',
    ],
    weak: ['p', 'w'],
  },
  {
    quantity: 'Speed',
    names: ['speed', 'geschwindigkeit', 'geschw', 'vitesse', 'velocita', 'velocidad', 'snelheid', 'hastighet', 'hastighed', 'nopeus', 'belt speed', 'treadmill speed'],
    weak: ['v'],
  },
  {
    quantity: 'Grade',
    names: [
      'grade',
      'incline',
      'elevation',
      'steigung',
      'steig',
      'pente',
      'inclinaison',
      'pendenza',
      'inclinazione',
      'pendiente',
      'inclinacion',
      'helling',
      'stigning',
      'lutning',
      'haeldning',
      'hældning',
      'kaltevuus',
      'nousu',
    ],
  },
  {
    quantity: 'RER',
    // R: COSMED DE, Cortex xlsx; RQ: COSMED EN; RER: Cortex, Parvo, Vyntus, MGC.
    names: ['rer', 'r', 'rq', 'qr', 'cr', 'respiratory exchange ratio', 'respiratorischer quotient', 'quoziente respiratorio', 'quotient respiratoire', 'cociente respiratorio'],
  },
  // oxygen saturation: cardiometR. Not SaO2: COSMED writes the arterial blood-gas value beside SpO2.
  { quantity: 'SpO2', names: ['spo2', 'sp o2', 'oxygen saturation', 'o2 saturation'] },
  { quantity: 'phase', names: ['phase', 'fase', 'phase name', 'stage name'] },
  {
    quantity: 'not_read',
    note: 'wall-clock time, not the time axis',
    names: ['time (clock)', 'time clock', 'clock', 'clock time', 'uhrzeit', 'time of day', 'ora', 'heure', 'hora', 'klokkeslett', 'klockslag'],
  },
  {
    quantity: 'not_read',
    note: 'a second clock (from exercise or phase start), not the time axis',
    names: ['ex time', 'extime', 'exercise time', 't rel', 'phase time', 'phasenzeit', 'stage time', 'belastungszeit', 't-1000'],
  },
  { quantity: 'not_read', note: 'event markers', names: ['marker', 'mark', 'event', 'events', 'marcatore', 'markierung', 'mark speed', 'mark dist', 'mark geschwindigkeit', 'mark geschw'] },
  {
    quantity: 'not_read',
    note: 'a ratio computed here from VO2, VCO2, VE and HR, never read from the file',
    names: [
      've/vo2',
      've/vco2',
      'vevo2',
      'vevco2',
      'eqo2',
      'eqco2',
      'veq o2',
      'veq co2',
      'vo2/hr',
      'vo2/hf',
      'vo2/fc',
      'o2 pulse',
      'o2 puls',
      'o2-puls',
      'o2 pulse ml/beat',
      'vd/vt',
      'vd/vt (est)',
      'ti/ttot',
      'vo2/p',
      'vo2/v',
      'vo2/work rate',
    ],
  },
  { quantity: 'not_read', note: 'a gas fraction other than end-tidal', names: ['feo2', 'feco2', 'fio2', 'fico2', 'fe o2', 'fe co2', 'fi o2', 'fi co2'] },
  { quantity: 'not_read', note: 'breathing reserve', names: ['br', 'atemreserve', '%ar', 'ar'] },
  { quantity: 'not_read', note: 'metabolic equivalents', names: ['mets', 'met'] },
  {
    quantity: 'not_read',
    note: 'energy and substrate estimates (computed here by the substrate analysis)',
    names: [
      'ee',
      'eu',
      'eekc',
      'eeh',
      'eem',
      'eetot',
      'eekg',
      'eebsa',
      'ee/kg lean',
      'eu/kg',
      'fat',
      'fett',
      'cho',
      'kh',
      'pro',
      'fatmin',
      'chomin',
      'fat g/d',
      'fett g/d',
      'cho g/d',
      'nprq',
      'eff',
      'eufett',
      'eukh',
      'prog',
      'prokc',
      'fatg',
      'fatkc',
      'chog',
      'chokc',
      'pro%',
      'fat%',
      'cho%',
      'fett%',
      'kh%',
      'o2 cost',
    ],
  },
  { quantity: 'not_read', note: 'breath timing', names: ['ti', 'te', 'ttot', 'tin', 'tex'] },
  { quantity: 'not_read', note: 'cadence', names: ['rpm', 'cadence', 'revolution', 'trittfrequenz'] },
  { quantity: 'not_read', note: 'breath or stage counter', names: ['breath#', 'breath', 'stage', 'stufe', 'step'] },
  { quantity: 'not_read', note: 'blood lactate', names: ['la', 'la-', 'lactate', 'laktat', 'lattato'] },
  { quantity: 'not_read', note: 'a second or third ergometer channel', names: ['load2', 'load3'] },
];

/** A key with its word separators dropped: `heart rate`, `heart-rate` and `heartrate` are one compact key. */
export function compactKey(key: string): string {
  return key.replace(/[\s-]+/g, '');
}

type Hit = { entry: DictionaryEntry; rank: number; weak: boolean };

/** Resolved once: key to entry, and whether the key is one of the entry's weak names. */
const BY_KEY: ReadonlyMap<string, Hit> = (() => {
  const map = new Map<string, Hit>();
  for (const entry of DICTIONARY) {
    entry.names.forEach((name, rank) => {
      map.set(nameKey(name), { entry, rank, weak: false });
    });
    entry.weak?.forEach((name, k) => {
      map.set(nameKey(name), { entry, rank: entry.names.length + k, weak: true });
    });
  }
  return map;
})();

/**
 * Compact key to entry, for names written with other separators. A compact key two entries share
 * is left out (never guessed) and listed in `ambiguous`; the dictionary's test asserts there is none.
 * Weak names stay exact.
 */
const COMPACT: { map: ReadonlyMap<string, Hit>; ambiguous: readonly string[] } = (() => {
  const map = new Map<string, Hit>();
  const ambiguous = new Set<string>();
  for (const [key, hit] of BY_KEY) {
    if (hit.weak) continue;
    const c = compactKey(key);
    const seen = map.get(c);
    if (seen && seen.entry !== hit.entry) ambiguous.add(c);
    else if (!seen || hit.rank < seen.rank) map.set(c, hit);
  }
  for (const c of ambiguous) map.delete(c);
  return { map, ambiguous: [...ambiguous].sort() };
})();

/** The dictionary entry a key names, its rank within the entry (0 = best) and whether it is a weak name. */
export function lookupKey(key: string): Hit | undefined {
  return BY_KEY.get(key) ?? COMPACT.map.get(compactKey(key));
}

/** Compact keys that two dictionary entries share (and so are never matched compactly); empty when the dictionary is consistent. */
export function ambiguousCompactKeys(): readonly string[] {
  return COMPACT.ambiguous;
}
