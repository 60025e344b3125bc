import { MIN_SCORE, type DetectResult, type FileView } from 'cpet-analysis-service/plugin';
import { closestRow, findTable } from './find-table.js';

/**
 * One rule: a header row within the first 80 rows (of the text, or of a sheet) names a time column
 * and VO2 with VCO2, or VE, in any language the column dictionary holds. It scores MIN_SCORE and no
 * more, so any vendor match outranks it; detection consults it only when no vendor format reaches
 * MIN_SCORE. Never throws: an unreadable file is no table.
 */
export function detect(file: FileView): DetectResult {
  if (file.container === 'binary') return { score: 0, reasons: ['no table could be read: the content is neither text nor a workbook'] };
  try {
    const found = findTable(file, true);
    if (found) {
      const names = [...new Set(found.layout.recognised.values())].join(', ');
      return {
        score: MIN_SCORE,
        reasons: [`a table header on ${found.where} names ${names}`, 'read as a last resort: no vendor format recognised the file'],
      };
    }
    const closest = closestRow(file);
    return {
      score: 0,
      reasons: [
        `no table could be read: no header row in the first 80 rows names a time column and VO2 with VCO2, or VE${closest ? ` (the closest, ${closest.where}, names ${closest.names.join(', ')})` : ''}`,
      ],
    };
  } catch (err) {
    return { score: 0, reasons: [`no table could be read: ${(err as Error).message}`] };
  }
}
