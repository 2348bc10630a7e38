/**
 * Plain scalars that a YAML 1.1 reader takes for something other than a
 * string (docs/store-format.md, "Line width and quoting"). The store is YAML
 * 1.2, where `yes`, `2026-01-01` and `2026-11-29T12:06:00Z` are strings; PyYAML
 * and js-yaml 3 (as ajv-cli uses it) read the YAML 1.1 types instead: booleans,
 * dates, timestamps, sexagesimal and octal numbers. Writers quote such a value,
 * so every reader gets the string the schema wants. The patterns are those of
 * the YAML 1.1 type repository (yaml.org/type), as PyYAML implements them.
 */

const BOOL = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const NULL = /^(?:~|null|Null|NULL|)$/;
const INT = /^[-+]?(?:0b[01_]+|0[0-7_]+|(?:0|[1-9][0-9_]*)|0x[0-9a-fA-F_]+|[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const FLOAT =
  /^(?:[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9]+|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const TIMESTAMP =
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?$/;

/** Whether `plain`, written as a plain scalar, is read by a YAML 1.1 reader as anything but that string. */
export function yaml11Reads(plain: string): boolean {
  // `<<` (merge) and `=` (value) are keys of their own in YAML 1.1.
  if (plain === '<<' || plain === '=') return true;
  return (
    BOOL.test(plain) ||
    NULL.test(plain) ||
    TIMESTAMP.test(plain) ||
    INT.test(plain) ||
    (plain.includes('.') && FLOAT.test(plain)) ||
    FLOAT.test(plain)
  );
}
