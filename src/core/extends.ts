// Policy sources (docs/extends.md): the pure part — names, the lock file's
// shape, and what a move of the pins changes. IO lives in src/store/extends.ts.
import type { Parsed } from './diagnostics.ts';
export { DEFAULT_SOURCE_PATH, defaultSourceName, sourcesFromConfig } from './extends-config.ts';
import { INHERITED_ROOT, type ExtendsSource } from './model.ts';
import { checkSchema, diag, parseYaml, plainTextDiagnostics, type YamlSyntax } from './parse-core.ts';

/** The lock file, at the store's root. */
export const EXTENDS_LOCK_FILE = 'extends.lock.yaml';

/** What a ref named when its pin was taken. */
export type RefKind = 'tag' | 'branch' | 'commit';

/** One pin of `extends.lock.yaml` (schemas/extends-lock.schema.json). */
export interface LockEntry {
  name: string;
  url: string;
  ref: string;
  kind: RefKind;
  commit: string;
  /** An annotated tag's object id when the pin was taken. */
  tag_object?: string;
}

export interface ExtendsLock {
  version: 1;
  sources: LockEntry[];
}

/** The inherited invariants' and actions' paths: `extends/<source>/<path in the source's store>`. */
export function inheritedPath(source: string, rel: string): string {
  return `${INHERITED_ROOT}/${source}/${rel}`;
}

/** A commit id: 40 (SHA-1) or 64 (SHA-256) lower-case hex digits. */
export function isCommitId(value: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(value);
}

/** `source:ns/name` → its parts; a plain `ns/name` has no source. */
export function splitSourceRef(ref: string): { source?: string; local: string } {
  const colon = ref.indexOf(':');
  return colon < 0 ? { local: ref } : { source: ref.slice(0, colon), local: ref.slice(colon + 1) };
}

/**
 * Parses `extends.lock.yaml` (schemas/extends-lock.schema.json), and checks that no name is pinned twice.
 * Without `syntax` it reads only the shape the tool writes and throws YamlSyntaxNotLoaded for
 * anything else, as the other parsers of parse-core.ts do; the caller then passes the full parser.
 */
export function parseExtendsLock(file: string, bytes: Uint8Array, syntax?: YamlSyntax): Parsed<ExtendsLock> {
  const parsed = parseYaml(file, bytes, syntax);
  if (!parsed.value) return { diagnostics: parsed.diagnostics };
  const diagnostics = checkSchema(parsed.value, 'extends-lock.schema.json');
  if (diagnostics.length === 0) diagnostics.push(...plainTextDiagnostics(parsed.value, 'extends-lock.schema.json'));
  if (diagnostics.length > 0) return { diagnostics };
  const lock = parsed.value.data as ExtendsLock;
  const names = new Set<string>();
  for (const s of lock.sources) {
    if (names.has(s.name))
      return {
        diagnostics: [diag(file, 'schema', `the source ${s.name} is pinned twice`, 'Run `agents extends update` to write the lock again.')],
      };
    names.add(s.name);
  }
  return { value: lock, diagnostics: [] };
}

/** Why a source's pin cannot be used as it is, or undefined when the lock matches config.yaml. */
export function staleReason(source: ExtendsSource, pin: LockEntry | undefined): string | undefined {
  if (!pin) return `the policy source ${source.name} has no pin in ${EXTENDS_LOCK_FILE}`;
  if (pin.url !== source.url) return `the pin of ${source.name} is for ${pin.url}, but config.yaml names ${source.url}`;
  if (pin.ref !== source.ref) return `the pin of ${source.name} is for ref ${pin.ref}, but config.yaml names ${source.ref}`;
  return undefined;
}
