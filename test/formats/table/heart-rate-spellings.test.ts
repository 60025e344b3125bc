import { expect } from 'chai';
import { readUpload } from '../../../src/formats/read-upload.js';
import { loadPlugins } from '../../../src/plugins.js';

/** A researcher-kept table, 10 minutes at 5 s, with the heart-rate column spelled `header`. */
function table(header: string): string {
  const rows = [`time_s,VO2,VCO2,VE,${header}`];
  for (let t = 0; t <= 600; t += 5) rows.push(`${t},${800 + 4 * t},${700 + 4.2 * t},${20 + 0.1 * t},${70 + t / 6}`);
  return `${rows.join('\n')}\n`;
}

describe('a populated heart-rate column is read whatever the table calls it (issue 19)', () => {
  for (const header of ['heartrate', 'HeartRate', 'Heart Rate', 'HR (bpm)', 'FC', 'heart_rate']) {
    it(`reads a CSV column ${JSON.stringify(header)} as HR`, async () => {
      const { formats } = await loadPlugins();
      const { recording } = await readUpload('field.csv', Buffer.from(table(header)), formats);
      expect(recording.channels.HR, JSON.stringify(recording.absent)).to.not.equal(undefined);
      expect(recording.channels.HR!.values[0]).to.be.closeTo(70, 1e-9);
    });
  }
});
