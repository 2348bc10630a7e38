// Policy sources (docs/extends.md): the pure part — names, the lock file's
// shape, and what a move of the pins changes. IO lives in src/store/extends.ts.
export { DEFAULT_SOURCE_PATH, defaultSourceName, mayExtend, sourcesFromConfig } from './extends-config.ts';
import { DEFAULT_SOURCE_PATH } from './extends-config.ts';
import { hideCredentials } from './plain-text.ts';
import { INHERITED_ROOT, type ExtendsSource, type SourcePlaces } from './model.ts';

/** The lock file, at the store's root. */
export const EXTENDS_LOCK_FILE = 'extends.lock.yaml';

/** What a ref named when its pin was taken. */
export type RefKind = 'tag' | 'branch' | 'commit';

/** One pin of `extends.lock.yaml` (schemas/extends-lock.schema.json). */
export interface LockEntry {
  name: string;
  url: string;
  ref: string;
  /** The store folder inside the source, when it is not `.agents` (absent in locks written before it was recorded). */
  path?: string;
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

/** The source as its pin reads it: the URL, ref and folder the pin was taken for (config.yaml may name others now). */
export function sourceOfPin(source: ExtendsSource, pin: LockEntry): ExtendsSource {
  return { ...source, url: pin.url, ref: pin.ref, path: pin.path ?? DEFAULT_SOURCE_PATH };
}

/** Why a source's pin cannot be used as it is, and the key of its entry in config.yaml that says so; undefined when the lock matches. */
export function stalePin(
  source: ExtendsSource,
  pin: LockEntry | undefined,
): { message: string; key: 'entry' | 'url' | 'ref' | 'path' } | undefined {
  if (!pin) return { message: `the policy source ${source.name} has no pin in ${EXTENDS_LOCK_FILE}`, key: 'entry' };
  if (pin.url !== source.url)
    return {
      message: `the pin of ${source.name} is for ${hideCredentials(pin.url)}, but config.yaml names ${hideCredentials(source.url)}`,
      key: 'url',
    };
  if (pin.ref !== source.ref)
    return { message: `the pin of ${source.name} is for ref ${pin.ref}, but config.yaml names ${source.ref}`, key: 'ref' };
  // The folder decides what is inherited as much as the commit does: a changed path is a new pin, not a silent switch.
  const pinned = pin.path ?? DEFAULT_SOURCE_PATH;
  if (pinned !== source.path)
    return { message: `the pin of ${source.name} is for the folder ${pinned}, but config.yaml names ${source.path}`, key: 'path' };
  return undefined;
}

/**
 * Where config.yaml says `key` of the source (`file:line:col`, and the same as `{file, line, col}` for an error's
 * detail); undefined for a source no config.yaml placed.
 */
export function sourcePlace(
  source: ExtendsSource,
  key: keyof Omit<SourcePlaces, 'file'>,
): { where: string; detail: { file: string; line: number; col: number } } | undefined {
  if (source.at === undefined) return undefined;
  const { line, col } = source.at[key];
  return { where: `${source.at.file}:${line}:${col}`, detail: { file: source.at.file, line, col } };
}

/**
 * The pins of `lock` for sources config.yaml's extends does not list (by name), with their index in the lock: nothing
 * reads them, and `extends update` removes them. A config.yaml emptied or truncated leaves every pin here.
 */
export function unlistedPins(sources: readonly ExtendsSource[], lock: ExtendsLock | undefined): { index: number; name: string }[] {
  return (lock?.sources ?? []).flatMap((p, index) => (sources.some((s) => s.name === p.name) ? [] : [{ index, name: p.name }]));
}

/**
 * The index in `sources` (config.yaml's extends) of the source a policy source's own lock names as `pinned`, by name
 * or URL; -1 when config.yaml lists none of it.
 */
export function listedIndex(sources: readonly ExtendsSource[], pinned: { name: string; url: string }): number {
  return sources.findIndex((s) => s.name === pinned.name || s.url === pinned.url);
}
