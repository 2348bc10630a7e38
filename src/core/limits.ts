/** Files larger than this are refused without being parsed. */
export const MAX_FILE_BYTES = 1024 * 1024;
/**
 * The most bytes of UTF-8 a plan's context holds: `plan strategize --context FILE` reads no more, and the MCP
 * `reconcile_plan` prompt's `context` is measured so too, so that a context one takes the other takes.
 */
export const MAX_CONTEXT_BYTES = MAX_FILE_BYTES;
/** Aliases allowed in one document: none of our files need any, so a bomb stops early. */
export const MAX_ALIAS_COUNT = 100;
export const MAX_TEXT_LENGTH = 2000;
/** YAML tokens (scalars, indicators, spaces, line breaks) allowed in one file (./yaml-guard.ts). */
export const MAX_YAML_TOKENS = 50_000;
/** Nesting levels of a client's settings file the install reads (./guard-install.ts): the JSON parser recurses once per level. */
export const MAX_SETTINGS_NESTING = 256;
/** The longest path a system takes (Linux's PATH_MAX): no process names a file or enters a folder by a longer one. */
export const LONGEST_PATH = 4096;
