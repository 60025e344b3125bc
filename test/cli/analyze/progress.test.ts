import { expect } from 'chai';
import { failed, type FileOutcome } from '../../../src/cli/analyze/outcome.js';
import { Progress } from '../../../src/cli/analyze/progress.js';

const ok = { file: 'a.csv', status: 'ok', cpet_id: null, summary: { source: { format: 'generic-table' } }, analyses: [], metrics: {}, error: null } as unknown as FileOutcome;
const refused = failed('b.txt', { error: 'PARSER_ERROR', message: 'row 14 unreadable', context: {} });

describe('batch progress', () => {
  it('on a terminal, redraws one bar with the count, the failures and the time left from the mean so far', () => {
    const written: string[] = [];
    let now = 0;
    const progress = new Progress(4, { isTTY: true, columns: 100, write: (t) => written.push(t) }, () => now);
    expect(written.pop()).to.match(/^\r\[-{24}\] 0\/4 {2}ETA --/);
    now = 10_000;
    progress.tick(ok);
    expect(written.pop()).to.match(/^\r\[#{6}-{18}\] 1\/4 {2}ETA 30s/);
    now = 80_000;
    progress.tick(refused);
    expect(written.pop()).to.match(/^\r\[#{12}-{12}\] 2\/4, 1 failed {2}ETA 1m20s/);
    now = 90_000;
    progress.tick(ok);
    progress.tick(ok);
    expect(written.pop()).to.match(/^\r\[#{24}\] 4\/4, 1 failed {2}done in 1m30s/);
    progress.finish();
    expect(written.pop()).to.equal('\n');
    expect(written.every((t) => !t.includes('\n'))).to.equal(true);
  });

  it('elsewhere, writes one line per file and never a carriage return', () => {
    const written: string[] = [];
    const progress = new Progress(12, { isTTY: false, write: (t) => written.push(t) });
    progress.tick(ok);
    progress.tick(refused);
    progress.finish();
    expect(written).to.deep.equal(['[ 1/12] ok      a.csv (generic-table)\n', '[ 2/12] failed  b.txt: PARSER_ERROR\n']);
  });
});
