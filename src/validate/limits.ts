/**
 * Text and github output list this many diagnostics of one code; the rest
 * are counted in one line (docs/validation.md, "Long reports"), unless
 * `--verbose`. JSON and SARIF always hold every one. (Its own small module:
 * the command's help reads it without loading a formatter.)
 */
export const LISTED_PER_CODE = 20;
