/**
 * spiro's time to read the real files it reads (ropensci/spiro, MIT), the anchors of the parse
 * goal. spiro is an R package on CRAN, which this machine cannot reach, so it is not run by the
 * bench: these are constants, measured once on this 2-core machine (2026-11-23) by timing
 * `spiro_get(file)` (device guessing, reading, anonymising: what `spiro_raw` does) from spiro's
 * R/spiro_get.R at commit 2ff0ccea and `to_seconds` from R/utils.R at 056a7915, under Debian's
 * R 4.2.2 with readxl 1.4.2, xml2 1.3.3 and digest 0.6.31: the median of 31 calls after one
 * warm-up (proc.time, 1 ms resolution). A second run gave 5, 44, 14, 37 and 106 ms. Issue 15
 * quotes 122 ms for example_cosmed.xlsx from an earlier measurement. spiro cannot read
 * step_cortex.xlsx (the anonymised copy has no patient block; spiro_get stops with "argument of
 * length 0") and reads none of the Parvo, MGC, pyoxynet or Exercise Threshold App files, so those
 * have no anchor.
 */
export const SPIRO_MS: Readonly<Record<string, number>> = {
  'vyntus.txt': 5,
  'cosmed.xlsx': 38,
  'cortex.xml': 12,
  zan_gxt: 34,
  'example_cosmed.xlsx': 101,
};
