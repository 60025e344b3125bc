import type { FormatMeta } from 'cpet-analysis-service/plugin';

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
    "Built on two German files: an Excel 2003 XML export (13 breaths, cut by its publisher) and an xlsx export whose metadata was anonymised. English labels (Administrative Data, V'O2 (STPD), BF, WR) and MetaSoft Performance's Proband/Subject are recognised from peer tools' documentation; no English example file was seen. The .xls (BIFF) container goes through the same sheet reader; no vendor .xls was seen (a BIFF8 re-save of the xlsx is tested). A `W` column in kcal is cumulative energy and is never read as load. XML with entity declarations is refused unread.",
  variants: [
    { name: 'xml2003-de', description: 'Excel 2003 XML spreadsheet, German, metadata and summary above the data table', evidence: 'real_file' },
    { name: 'xlsx-de-anonymised', description: 'xlsx, German, metadata blocks above the data table', evidence: 'real_file' },
    { name: 'xml-data-table-only', description: 'the XML without the metadata and summary rows', evidence: 'generated_from_real_file' },
    { name: 'xml-en', description: 'the XML with English labels (Administrative Data, HR, BF, WR)', evidence: 'generated_from_real_file' },
    { name: 'xml-as-xlsx', description: "the XML's rows in an xlsx", evidence: 'generated_from_real_file' },
    { name: 'xlsx-data-table-only', description: 'the xlsx from its header row down', evidence: 'generated_from_real_file' },
    { name: 'xlsx-en', description: 'the xlsx with English labels (HR, BF, RER)', evidence: 'generated_from_real_file' },
    { name: 'xlsx-data-table-only-en', description: 'the xlsx data table alone, English labels', evidence: 'generated_from_real_file' },
    { name: 'xlsx-as-xls', description: 'the xlsx re-saved as BIFF8 .xls', evidence: 'generated_from_real_file' },
  ],
} as const satisfies FormatMeta;
