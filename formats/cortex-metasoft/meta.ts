import type { FormatMeta } from '../../src/formats/format-plugin.js';

export const meta = {
  id: 'cortex-metasoft',
  label: 'Cortex MetaSoft Studio export (xlsx or Excel 2003 XML spreadsheet; breath by breath)',
  vendor: 'Cortex Biophysik',
  software: 'MetaSoft Studio (MetaLyzer 3B, MetaMax)',
  extensions: ['xlsx', 'xls', 'xml'],
  media_types: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/vnd.ms-excel', 'application/xml', 'text/xml'],
  detection:
    'A data table whose header row starts with "t" above a units row starting with "h:mm:ss" or "hh:mm:ss.z", with Cortex primed names (V\'O2, V\'CO2, V\'E) and HF/AF; the metadata blocks "Stammdaten"/"Administrative Data", the worksheet name "MetasoftStudio" and the SpreadsheetML markers add evidence.',
  example_files: 2,
  notes:
    'Built on two German files: an Excel 2003 XML export (13 breaths, cut by its publisher) and an xlsx export whose metadata was anonymised. English labels (Administrative Data, V\'O2 (STPD), BF, WR) and MetaSoft Performance\'s Proband/Subject are recognised from peer tools\' documentation; no English example file was seen. The .xls (BIFF) container goes through the same sheet reader; no vendor .xls was seen (a BIFF8 re-save of the xlsx is tested). A `W` column in kcal is cumulative energy and is never read as load. XML with entity declarations is refused unread.',
} as const satisfies FormatMeta;
