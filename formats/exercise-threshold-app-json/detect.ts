import type { DetectResult, FileView } from 'cpet-analysis-service/plugin';

/**
 * Ordered rules over the text of the head (not a full JSON parse, so a cut file is still
 * recognised); weights add up to 1. Quoted from the real file's start:
 * `[{"id":"dataset_#001","VO2max":4694.3448,"LT":3150,"LT_vo2max":"67%","RCP":3700,...,"data":[{"t":-240,"VE":31.3,"VO2":1680,...`
 * 1. JSON text: starts with `{` or `[{` (an INI section such as ZAN's `[person]` also starts with `[`).
 * 2. A `"data": [ { "t":` array of breaths.
 * 3. `"LT"` and `"RCP"` keys (the operator's thresholds).
 * 4. `"VO2"` and `"VCO2"` per breath.
 * 5. A `"VO2max"` key.
 * 6. The extension `.json`.
 */
export function detect(file: FileView): DetectResult {
  const head = file.head(20).join('\n').trimStart();
  if (!/^(\[\s*)?\{/.test(head)) return { score: 0, reasons: ['not JSON text'] };
  const reasons = ['JSON text'];
  let score = 0.1;
  if (/"data"\s*:\s*\[\s*\{\s*"t"\s*:/.test(head)) {
    score += 0.35;
    reasons.push('a "data" array of breaths starting with "t"');
  }
  if (/"LT"\s*:/.test(head) && /"RCP"\s*:/.test(head)) {
    score += 0.25;
    reasons.push('"LT" and "RCP" keys');
  }
  if (/"VO2"\s*:/.test(head) && /"VCO2"\s*:/.test(head)) {
    score += 0.15;
    reasons.push('"VO2" and "VCO2" per breath');
  }
  if (/"VO2max"\s*:/.test(head)) {
    score += 0.1;
    reasons.push('a "VO2max" key');
  }
  if (file.extension === 'json') {
    score += 0.05;
    reasons.push('extension .json');
  }
  return { score, reasons };
}
