import { expect } from 'chai';
import { ambiguousCompactKeys, DICTIONARY, nameKey } from '../../../src/formats/table/dictionary.js';
import { readHeaderName, vendorNames } from '../../../src/formats/table/header-names.js';

describe('src/formats/table/header-names.ts and the column dictionary', () => {
  it('reads the names vendors write, in every language the dictionary holds, as the same quantity', () => {
    const cases: [string, string][] = [
      ["V'O2", 'VO2'],
      ['V̇O2', 'VO2'],
      ["V'O2/kg", 'VO2/kg'],
      ['VO2/Kg', 'VO2/kg'],
      ["V'E", 'VE'],
      ['VE BTPS', 'VE'],
      ["V'E (BTPS)", 'VE'],
      ['Rf', 'RF'],
      ['RR', 'RF'],
      ['BF', 'RF'],
      ['AF', 'RF'],
      ['FR', 'RF'],
      ['Atemfrequenz', 'RF'],
      ['PetO2', 'PetO2'],
      ['PETO2', 'PetO2'],
      ['PET O2', 'PetO2'],
      ['PeO2', 'PetO2'],
      ['FetO2', 'FetO2'],
      ['FEetO2', 'FetO2'],
      ['HF', 'HR'],
      ['FC', 'HR'],
      ['Puls', 'HR'],
      ['Last', 'Load'],
      ['Load', 'Load'],
      ['Work', 'Load'],
      ['WorkR', 'Load'],
      ['Watt', 'Load'],
      ['Leistung', 'Load'],
      ['Carico', 'Load'],
      ['Charge', 'Load'],
      ['Carga', 'Load'],
      ['Belasting', 'Load'],
      ['Belastning', 'Load'],
      ['Geschwindigkeit', 'Speed'],
      ['Velocità', 'Speed'],
      ['Vitesse', 'Speed'],
      ['Velocidad', 'Speed'],
      ['Snelheid', 'Speed'],
      ['Hastighet', 'Speed'],
      ['Steigung', 'Grade'],
      ['Pendenza', 'Grade'],
      ['Pente', 'Grade'],
      ['Stigning', 'Grade'],
      ['Tid', 'time'],
      ['Zeit', 'time'],
      ['Temps', 'time'],
      ['Tempo', 'time'],
      ['Tiempo', 'time'],
      ['Tijd', 'time'],
      ['Aika', 'time'],
      ['RQ', 'RER'],
      ['QR', 'RER'],
      ['R', 'RER'],
      ['Phase', 'phase'],
      ['Fase', 'phase'],
    ];
    for (const [header, quantity] of cases) expect(readHeaderName(header).quantity, header).to.equal(quantity);
  });

  it('takes a unit or a qualifier out of the header, and still finds the name', () => {
    expect(readHeaderName('VO2 (L/min)')).to.include({ quantity: 'VO2', unit: 'L/min' });
    expect(readHeaderName('VO2 [mL/min]')).to.include({ quantity: 'VO2', unit: 'mL/min' });
    expect(readHeaderName('time_s')).to.include({ quantity: 'time', unit: 's' });
    expect(readHeaderName('speed_mph')).to.include({ quantity: 'Speed', unit: 'mph' });
    expect(readHeaderName('vo2_ml_kg_min')).to.include({ quantity: 'VO2', unit: 'ml/kg/min' });
    expect(readHeaderName('vt.btps')).to.include({ quantity: 'VT', qualifier: 'btps' });
    expect(readHeaderName("V'O2 (STPD)")).to.include({ quantity: 'VO2', qualifier: 'stpd' });
  });

  it("reads a tool's renamed duplicates (readr VO2...4, pandas VO2.1, janitor vo2_2) as the name they repeat", () => {
    for (const header of ['VO2...4', 'VO2.1', 'vo2_2']) expect(readHeaderName(header), header).to.include({ quantity: 'VO2', renamed_duplicate: true });
    expect(readHeaderName('Load1')).to.include({ quantity: 'Load', renamed_duplicate: false });
  });

  it('tells a name that says absolute (vo2_abs) and knows the clocks and ratios it does not read', () => {
    expect(readHeaderName('vo2_abs')).to.include({ quantity: 'VO2', absolute: true });
    expect(readHeaderName('Time (Clock)').quantity).to.equal('not_read');
    expect(readHeaderName('Ex Time').quantity).to.equal('not_read');
    expect(readHeaderName('VE/VO2').quantity).to.equal('not_read');
    expect(readHeaderName('P(a-et)CO2').quantity).to.equal(null);
    expect(readHeaderName('O2exp').quantity).to.equal(null);
  });

  it('marks names too short to trust alone as weak', () => {
    for (const header of ['P', 'v', 'f', 'W']) expect(readHeaderName(header).weak, header).to.equal(true);
    expect(readHeaderName('t').weak).to.equal(false);
  });

  it("tries a vendor's own names first", () => {
    const names = vendorNames({ VO2_I: 'VO2', domain: { quantity: 'not_read', note: 'labels' } });
    expect(readHeaderName('VO2_I', names).quantity).to.equal('VO2');
    expect(readHeaderName('domain', names)).to.include({ quantity: 'not_read', note: 'labels' });
    expect(readHeaderName('VO2_I').quantity).to.equal(null);
  });

  describe('spellings from the field (issue 19): researcher-kept tables, spiro, whippr, gasExchangeR and cardiometR', () => {
    const spellings: [string, string, string | null][] = [
      ['heartrate', 'HR', null],
      ['HeartRate', 'HR', null],
      ['Heart Rate', 'HR', null],
      ['heart_rate', 'HR', null],
      ['Heart-Rate', 'HR', null],
      ['HEART RATE', 'HR', null],
      ['HR (bpm)', 'HR', 'bpm'],
      ['HR [1/min]', 'HR', '1/min'],
      ['hr_bpm', 'HR', 'bpm'],
      ['Heart Rate (bpm)', 'HR', 'bpm'],
      ['HR', 'HR', null],
      ['HF', 'HR', null],
      ['HF (1/min)', 'HR', '1/min'],
      ['FC', 'HR', null],
      ['FC (bpm)', 'HR', 'bpm'],
      ['Fréquence cardiaque', 'HR', null],
      ['Freq cardiaque', 'HR', null],
      ['Cardiac frequency', 'HR', null],
      ['Pulse Rate', 'HR', null],
      ['PulseRate', 'HR', null],
      ['V.O2', 'VO2', null],
      ['V.CO2', 'VCO2', null],
      ['V.E', 'VE', null],
      ['VO2_ml_min', 'VO2', 'ml/min'],
      ['Oxygen consumption', 'VO2', null],
      ["Consommation d'oxygène", 'VO2', null],
      ['OxygenUptake', 'VO2', null],
      ['Production de CO2', 'VCO2', null],
      ['CO2Output', 'VCO2', null],
      ['ve_btps', 'VE', null],
      ['MinuteVentilation', 'VE', null],
      ['Débit ventilatoire', 'VE', null],
      ['End-tidal O2', 'PetO2', null],
      ['End-Tidal CO2', 'PetCO2', null],
      ['ET O2', 'PetO2', null],
      ['et co2', 'PetCO2', null],
      ['PETCO2', 'PetCO2', null],
      ['TidalVolume', 'VT', null],
      ['Breath rate', 'RF', null],
      ['RespiratoryRate', 'RF', null],
      ['Oxygen saturation', 'SpO2', null],
    ];
    for (const [header, quantity, unit] of spellings) {
      it(`reads ${JSON.stringify(header)} as ${quantity}`, () => {
        expect(readHeaderName(header)).to.include({ quantity, unit });
      });
    }
    it('leaves SaO2 (an arterial blood-gas value, beside SpO2 in COSMED exports) unread', () => {
      expect(readHeaderName('SaO2').quantity).to.equal(null);
    });
  });

  it('never matches a name written without separators to two entries (no compact key is shared)', () => {
    expect(ambiguousCompactKeys()).to.deep.equal([]);
  });

  it('holds every name once, as a key', () => {
    const seen = new Map<string, string>();
    for (const entry of DICTIONARY) {
      for (const name of [...entry.names, ...(entry.weak ?? [])]) {
        const key = nameKey(name);
        expect(seen.has(key), `${name} is listed twice (${seen.get(key)} and ${entry.quantity})`).to.equal(false);
        seen.set(key, entry.quantity);
      }
    }
  });
});
