import {
  buildRecording,
  nameKey,
  parseNumber,
  parserError,
  readTable,
  textSource,
  textTable,
  vendorNames,
  type FileView,
  type ParserFlag,
  type Recording,
  type Subject,
} from 'cpet-analysis-service/plugin';

const FORMAT_ID = 'pyoxynet-csv';

/**
 * pyoxynet's own names: the interpolated channels (`_I`), and the columns deliberately left:
 * `VEVO2_I`/`VEVCO2_I` (ratios, computed downstream), `domain` (evaluation ground truth, which must
 * never reach a recording), `age_group`/`fitness_group` (labels), `gender` (its -1/1 coding is
 * undocumented); age, height and weight repeat the subject on every row.
 */
const NAMES = vendorNames({
  VO2_I: 'VO2',
  VCO2_I: 'VCO2',
  VE_I: 'VE',
  HR_I: 'HR',
  RF_I: 'RF',
  PetO2_I: 'PetO2',
  PetCO2_I: 'PetCO2',
  VEVO2_I: { quantity: 'not_read', note: 'a ratio, computed downstream' },
  VEVCO2_I: { quantity: 'not_read', note: 'a ratio, computed downstream' },
  domain: { quantity: 'not_read', note: 'evaluation ground truth, never read' },
  age_group: { quantity: 'not_read', note: 'a label' },
  fitness_group: { quantity: 'not_read', note: 'a label' },
  gender: { quantity: 'not_read', note: 'coded -1/1 with no documented key' },
  age: { quantity: 'not_read', note: 'subject age, kept in the subject' },
  height: { quantity: 'not_read', note: 'subject height, kept in the subject' },
  weight: { quantity: 'not_read', note: 'subject body mass, kept in the subject' },
});

/** Reads a pyoxynet CSV: one header line, data from line 2, `time` in seconds at 1 Hz. */
export function parse(file: FileView): Recording {
  const text = textTable(file);
  if (!text) throw parserError('the file is not text');
  const table = readTable(textSource(text), { header_row: 0, units_row: null, first_column: 0, data_start: 1 }, { names: NAMES, units: { time: { unit: 's', reason: 'pyoxynet writes seconds' } } });
  const flags: ParserFlag[] = [
    ...table.flags,
    { code: 'interpolated_upstream', detail: 'pyoxynet interpolated the breaths to 1 Hz before writing the file; breath timing and breath-to-breath noise are lost' },
    { code: 'columns_not_read', detail: 'VEVO2_I/VEVCO2_I (ratios, computed downstream) and domain/age_group/fitness_group (labels) were not read' },
  ];
  const first = (name: string): number | null => {
    const at = table.column((n) => nameKey(n.header) === name);
    if (at < 0) return null;
    for (const row of table.data) {
      const v = parseNumber(row[at]);
      if (v !== null) return v;
    }
    return null;
  };
  const height = first('height');
  const subject: Subject = {
    age_years: first('age'),
    // Height is written in metres (1.77); a value above 3 is already centimetres.
    height_cm: height === null ? null : height < 3 ? Math.round(height * 1000) / 10 : height,
    body_mass_kg: first('weight'),
  };
  return buildRecording({
    format: FORMAT_ID,
    time_s: table.time_s,
    channels: table.channels,
    absent: table.absent,
    sampling_hint: { method: 'averaged', averaging_s: 1 },
    subject,
    flags,
  });
}
