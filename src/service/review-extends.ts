// The policy sources of each side of `invariant diff` (docs/extends.md, "Review"):
// which commit each side pins, the inherited invariants there (from the cache),
// and what moved.
import { diffInvariantFiles } from '../core/diff.ts';
import type { Diagnostic } from '../core/diagnostics.ts';
import { DEFAULT_SOURCE_PATH, EXTENDS_LOCK_FILE, mayExtend, type ExtendsLock, type LockEntry } from '../core/extends.ts';
import { parseExtendsLock } from '../core/extends-lock.ts';
import type { ExtendsSource, ScopedInvariant } from '../core/model.ts';
import { parseConfig } from '../core/parse-core.ts';
import { hideCredentials } from '../core/plain-text.ts';
import { MAX_FILE_BYTES } from '../core/limits.ts';
import { tooLarge } from '../core/yaml-file.ts';
import { catFileBatch } from '../git/object-reader.ts';
import { actorApart } from '../store/config.ts';
import { notFetchedAt, pinsFor, readInherited, REVISION_FILE_HINT, SOURCE_FILE_HINT } from '../store/extends.ts';
import { emptySnapshot } from '../store/read.ts';
import { WorkingTreeSource } from '../store/tree-source.ts';
import { parseYamlDocument } from '../store/yaml-document.ts';
import { requireValid } from './invariant-service.ts';
import { pinnedTemplates } from './invariants/source-actions.ts';

/** One source whose pin differs between the sides: "policy source X moved from v3 to v4", and what entered and left. */
export interface PolicyMove {
  name: string;
  /**
   * `path`: the source's store folder, which decides what is inherited as much as the commit. `url`: where the source
   * is fetched from, which decides what the next `extends update` pins, with its credentials shown as `***`.
   */
  before: { ref: string; commit: string; path: string; url: string } | null;
  after: { ref: string; commit: string; path: string; url: string } | null;
  /** Both sides pin the same url and ref at different commits: the lock was edited, not updated (a ref the source moved, or a hand edit). */
  refUnchanged: boolean;
  /**
   * Why a side whose config.yaml names the source reads it without it: no pin matches (a `ref` edited without
   * `extends update`), so that side is no removal or addition of the source. Null where the side pins it or names none.
   */
  notPinned: { before: string | null; after: string | null };
  /** The source's invariants added, removed and edited between the two commits. */
  entered: ScopedInvariant[];
  left: ScopedInvariant[];
  edited: ScopedInvariant[];
}

export interface InheritedSides {
  before: ScopedInvariant[];
  after: ScopedInvariant[];
  /** The inherited invariants of the sources that moved, on each side (the "changed files" of the diff). */
  changedBefore: ScopedInvariant[];
  changedAfter: ScopedInvariant[];
  moves: PolicyMove[];
  /** The sources pinned on each side, in `extends` order, when the sources both sides pin are in another order. */
  order?: { before: string[]; after: string[] };
}

/** Where a side's files are: a commit, the index, or the working tree. */
export type SideWhere = { kind: 'revision'; commit?: string } | { kind: 'index' } | { kind: 'working tree' };

const FILES = ['config.yaml', EXTENDS_LOCK_FILE] as const;

async function sideFiles(storeRoot: string, top: string, prefix: string, where: SideWhere): Promise<(Uint8Array | number | undefined)[]> {
  if (where.kind === 'working tree') {
    const read = await new WorkingTreeSource(storeRoot).read(FILES);
    return FILES.map((f) => {
      const r = read.get(f);
      return r?.ok ? r.bytes : undefined;
    });
  }
  if (where.kind === 'revision' && where.commit === undefined) return FILES.map(() => undefined);
  const at = where.kind === 'index' ? ':' : `${where.commit}:`;
  const names = FILES.map((f) => `${at}${prefix === '' ? f : `${prefix}/${f}`}`);
  // A file over the limit comes as its size, never held: a revision can hold one of any size.
  const blobs = await catFileBatch(top, names, MAX_FILE_BYTES);
  return names.map((n) => blobs.get(n) ?? undefined);
}

/** A side's sources with the pins that match them (a stale pin is left out: that side pins nothing for it). */
async function sidePins(
  storeRoot: string,
  top: string,
  prefix: string,
  where: SideWhere,
): Promise<{ pins: { source: ExtendsSource; pin: LockEntry }[]; notPinned: Map<string, string> }> {
  const [config, lock] = await sideFiles(storeRoot, top, prefix, where);
  // The side is named: a revision's config.yaml may be invalid while the working tree's is not.
  // A revision side without a commit is the empty side of a branch with no commit yet: it holds no file to name.
  const side =
    where.kind !== 'revision'
      ? `the ${where.kind}`
      : where.commit === undefined
        ? 'no commit yet'
        : `the revision ${where.commit.slice(0, 12)}`;
  const hint = where.kind === 'revision' ? REVISION_FILE_HINT : undefined;
  // Too large to read, so whether it extends a source cannot be known: refused, as an invalid file is.
  const large = (['config.yaml', EXTENDS_LOCK_FILE] as const).flatMap((file, i) => {
    const f = [config, lock][i];
    return typeof f === 'number' ? [tooLarge(file, f)] : [];
  });
  requireValid({ ...emptySnapshot(), diagnostics: large }, `diff the policy sources of ${side}`, hint);
  // The same test as the reading commands': a flow-style config.yaml (`{"extends": […]}`) declares sources too.
  if (!(config instanceof Uint8Array) || !mayExtend(new TextDecoder().decode(config))) return { pins: [], notPinned: new Map() };
  const diagnostics: Diagnostic[] = [];
  const c = await parseYamlDocument((syntax) => parseConfig('config.yaml', config, syntax));
  // A diff runs no actor: config.yaml's actor lacking a key it needs does not stop it (ADR 0702).
  diagnostics.push(...actorApart(c.diagnostics).diagnostics);
  let l: ExtendsLock | undefined;
  if (lock instanceof Uint8Array) {
    const p = await parseYamlDocument((syntax) => parseExtendsLock(EXTENDS_LOCK_FILE, lock, syntax));
    diagnostics.push(...p.diagnostics);
    l = p.value;
  }
  requireValid({ ...emptySnapshot(), diagnostics }, `diff the policy sources of ${side}`, hint);
  // A source without a matching pin is read as absent on this side, as `extends fetch --rev` leaves it out; why is kept.
  const notPinned = new Map<string, string>();
  const pins = pinsFor({ sources: c.value?.extends ?? [], ...(l ? { lock: l } : {}), diagnostics: [] }, undefined, (name, why) =>
    notPinned.set(name, why),
  );
  return { pins, notPinned };
}

/**
 * The inherited invariants of both sides, read from the cache at each side's
 * pins, and the moves between them; undefined when neither side extends a
 * source (then the diff is exactly what it was without policy sources).
 */
export async function inheritedSides(
  storeRoot: string,
  top: string,
  prefix: string,
  before: SideWhere,
  after: SideWhere,
): Promise<InheritedSides | undefined> {
  const [bSide, aSide] = [await sidePins(storeRoot, top, prefix, before), await sidePins(storeRoot, top, prefix, after)];
  const [bPins, aPins] = [bSide.pins, aSide.pins];
  if (bPins.length === 0 && aPins.length === 0 && bSide.notPinned.size === 0 && aSide.notPinned.size === 0) return undefined;
  const read = async (pins: typeof bPins, where: SideWhere) => {
    let r: Awaited<ReturnType<typeof readInherited>>;
    try {
      r = await readInherited(storeRoot, pins);
    } catch (error) {
      // Each side has its own pins: a revision's are fetched with `--rev`.
      throw where.kind === 'revision' && where.commit ? notFetchedAt(error, where.commit) : error;
    }
    requireValid({ ...emptySnapshot(), diagnostics: r.diagnostics }, 'read the policy sources', SOURCE_FILE_HINT);
    return r.invariants;
  };
  const bInv = await read(bPins, before);
  const aInv = await read(aPins, after);
  const of = (list: readonly ScopedInvariant[], name: string) =>
    list.filter((i) => i.scope.kind === 'inherited' && i.scope.source === name);
  // A source a side names without its pin is one too: that side is read without it, which the diff must say (a
  // first `extends:` committed without its lock reads as no change else, while every reader of that side refuses it).
  const names = [...new Set([...[...bPins, ...aPins].map((p) => p.source.name), ...bSide.notPinned.keys(), ...aSide.notPinned.keys()])];
  const moves: PolicyMove[] = [];
  const changedBefore: ScopedInvariant[] = [];
  const changedAfter: ScopedInvariant[] = [];
  for (const name of names) {
    const b = bPins.find((p) => p.source.name === name)?.pin;
    const a = aPins.find((p) => p.source.name === name)?.pin;
    // The same commit read from another store folder (`path:`) is other files: a move too. So is one fetched from
    // another URL (a fork, a mirror), or pinned for another ref (v3 to main): the next `extends update` follows
    // that ref, there.
    const folder = (pin: LockEntry) => pin.path ?? DEFAULT_SOURCE_PATH;
    if (b && a && b.commit === a.commit && folder(b) === folder(a) && b.url === a.url && b.ref === a.ref) continue;
    // Named without a pin on both sides for the same reason: nothing of it changed between them.
    if (!b && !a && bSide.notPinned.get(name) === aSide.notPinned.get(name)) continue;
    const files = diffInvariantFiles(of(bInv, name), of(aInv, name));
    changedBefore.push(...of(bInv, name));
    changedAfter.push(...of(aInv, name));
    // Its action templates are files of the move too: the plans made from them drift when they change.
    changedBefore.push(...(await pinnedTemplates(storeRoot, bPins, name)));
    changedAfter.push(...(await pinnedTemplates(storeRoot, aPins, name)));
    moves.push({
      name,
      before: b ? { ref: b.ref, commit: b.commit, path: folder(b), url: hideCredentials(b.url) } : null,
      after: a ? { ref: a.ref, commit: a.commit, path: folder(a), url: hideCredentials(a.url) } : null,
      refUnchanged: b !== undefined && a !== undefined && b.ref === a.ref && b.url === a.url && b.commit !== a.commit,
      notPinned: { before: bSide.notPinned.get(name) ?? null, after: aSide.notPinned.get(name) ?? null },
      entered: files.filter((f) => f.change === 'added').map((f) => f.after!),
      left: files.filter((f) => f.change === 'removed').map((f) => f.before!),
      edited: files.filter((f) => f.change === 'edited').map((f) => f.after!),
    });
  }
  const result: InheritedSides = { before: bInv, after: aInv, changedBefore, changedAfter, moves };
  // Of two sources holding one text the first listed is kept: a new order alone can change every effective set.
  const [bNames, aNames] = [bPins.map((p) => p.source.name), aPins.map((p) => p.source.name)];
  const common = (list: string[], other: string[]) => list.filter((n) => other.includes(n)).join('\n');
  if (common(bNames, aNames) !== common(aNames, bNames)) {
    result.order = { before: bNames, after: aNames };
    // Their texts are what the comparison of each effective set looks at (a move's are already in).
    const moved = new Set(moves.map((m) => m.name));
    for (const name of names.filter((n) => !moved.has(n))) {
      changedBefore.push(...of(bInv, name));
      changedAfter.push(...of(aInv, name));
    }
  }
  return result;
}
