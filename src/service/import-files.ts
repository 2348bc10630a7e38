// The reading helpers of `agents import` (service/import-service.ts): where a link leads, code blocks set aside,
// front matter parsed, and the refusal of a folder that cannot be listed, of a link to one, or of another repository.
import type { SortedFiles } from '../core/globs.ts';
import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import type { LeftOut } from '../core/import-rules.ts';
import { type ImportKind, instructionKind, lenientFrontMatter, quoteBareGlobs, RULE_FOLDERS } from '../core/import-sources.ts';
import { parseYaml } from '../core/parse-core.ts';
import type { YamlFile } from '../core/yaml-file.ts';
import { type IgnoredPath, ignoredPaths } from '../git/commit.ts';
import { indexHoldsGitlink } from '../git/gitlinks.ts';
import type { ImportFile } from '../core/import-plan.ts';
import type { ScopedInvariant } from '../core/model.ts';
import type { OptionWords } from './option-words.ts';
import { parseYamlDocument } from '../store/yaml-document.ts';
import { shellPath } from '../core/shell-word.ts';
import { pathFromCwd } from '../store/current-folder.ts';
import { exportedEntryIds } from '../core/export.ts';
import { movesRulesOut } from '../core/import-stale.ts';
import { MAX_FILE_BYTES } from '../core/parse-core.ts';
import { readRegularFile } from '../store/read-file.ts';

/** A folder the search outside git could not list, and the system's code for why. */
export interface Unlisted {
  folder: string;
  code: string;
}

/** The refusal of an import that needs the files of a folder it could not list (exit 2, nothing read). */
export function unlistedError(u: Unlisted, searching: boolean): UsageError {
  const folder = u.folder === '' ? '.' : `${u.folder}/`;
  return new UsageError(
    `cannot list ${folder} (${u.code}): the instruction files in it cannot be ${searching ? 'found' : 'read'}`,
    searching
      ? (agents) => `Nothing was read. Make it readable, or name the files to import (${agents} import AGENTS.md).`
      : 'Nothing was read. Make it readable, then run the command again.',
    { folder, code: u.code },
  );
}

/**
 * The refusal of a path named to import (`rel`, from the repository's top) whose files cannot be read as this
 * repository's: in a folder the search outside git could not list, or in a repository of its own within this one.
 */
export function namedPathRefusal(
  /** The path as named, escaped to one line. */
  given: string,
  rel: string,
  top: string,
  unlisted: readonly Unlisted[],
  listed: ReadonlySet<string>,
): UsageError | undefined {
  const blocked = unlisted.find(
    (u) => u.folder === '' || rel === u.folder || rel.startsWith(`${u.folder}/`) || u.folder.startsWith(`${rel}/`) || rel === '',
  );
  if (blocked !== undefined) return unlistedError(blocked, false);
  return rel === '' ? undefined : nestedRepositoryError(given, rel, top, listed);
}

/**
 * The refusal of a path named that is, or is inside, a repository of its own within this one (a submodule, a clone,
 * a worktree), or undefined when it is none. Git lists such a repository as one entry (`listed`), its folder: an
 * entry with something below it, or one that is a folder on disk, is one. Its instruction files are that
 * repository's, read by an agent working there, and go into that repository's own store.
 */
function nestedRepositoryError(given: string, rel: string, top: string, listed: ReadonlySet<string>): UsageError | undefined {
  let repository: string | undefined;
  // A symbolic link is one entry of git's list too (and of the search's), a path through it none of another repository's.
  for (let at = rel.lastIndexOf('/'); at > 0; at = rel.lastIndexOf('/', at - 1))
    if (listed.has(rel.slice(0, at)) && !lstatSync(join(top, rel.slice(0, at)), { throwIfNoEntry: false })?.isSymbolicLink())
      repository = rel.slice(0, at);
  if (repository === undefined && listed.has(rel)) {
    const st = lstatSync(join(top, rel), { throwIfNoEntry: false });
    // Not on disk, it is a file deleted, or a submodule whose folder is not there, which only the index tells apart.
    if (st === undefined ? indexHoldsGitlink(top, rel) : st.isDirectory()) repository = rel;
  }
  if (repository === undefined) return undefined;
  return new UsageError(
    `${given} ${repository === rel ? 'is' : `is inside ${repository}, which is`} a repository of its own (a submodule, or a clone inside this one): its instruction files are that repository's, not this one's`,
    `Nothing was read. Import them into that repository's store from its folder: cd ${shellPath(repository)} && agents import (agents init there first if it has no store).`,
    { repository },
  );
}

/**
 * The repository-relative path of a file named, through the folder a link leads to: `link/AGENTS.md`, `link` a
 * symbolic link to `docs`, is `docs/AGENTS.md`, the file an agent reads for docs/, whose folder names its project
 * (as `agents import link` names docs). A path git lists, or one whose folder leads out of the repository or
 * nowhere, is kept as named.
 */
export function namedRel(top: string, abs: string, listed: readonly string[]): string {
  const rel = relative(top, abs).split(sep).join('/');
  const cut = rel.lastIndexOf('/');
  if (cut < 0 || rel.startsWith('..') || isAbsolute(rel) || listed.includes(rel)) return rel;
  let real: string;
  try {
    real = relative(realpathSync.native(top), realpathSync.native(dirname(abs)))
      .split(sep)
      .join('/');
  } catch {
    return rel;
  }
  if (real.startsWith('..') || isAbsolute(real)) return rel;
  return real === '' ? rel.slice(cut + 1) : `${real}/${rel.slice(cut + 1)}`;
}

/**
 * What a file git lists but deleted from the working tree is, and the git command that brings it back: one wording for
 * a path named (refused) and for a file the search found (skipped).
 */
export function deletedFromTree(rel: string): { said: string; restore: string } {
  return { said: 'git lists it, but it was deleted from the working tree', restore: `git restore -- ${shellPath(rel)}` };
}

/** Where the symbolic link at `abs` leads, or undefined when it is none. */
export function linkTarget(abs: string): string | undefined {
  try {
    return readlinkSync(abs);
  } catch {
    return undefined;
  }
}

/**
 * Refuses a path named that is a symbolic link to a folder (exit 2), which git and the search list as a file of its
 * own; returns when it is none: the import reads the folder it leads to when that folder is named.
 */
export function refuseFolderLink(
  /** the path as named, escaped to one line */ given: string,
  abs: string,
  realTop: string,
  cwd: string,
): void {
  const to = linkTarget(abs);
  if (to === undefined || statSync(abs, { throwIfNoEntry: false })?.isDirectory() !== true) return;
  const rel = relative(realTop, realpathSync.native(abs)).split(sep).join('/');
  const outside = rel.startsWith('..') || isAbsolute(rel);
  // The folder from the current folder, as the command pasted there reads it (the folder's real path: no link in it).
  const folder = outside ? undefined : pathFromCwd(realpathSync.native(cwd), realTop, rel);
  throw new UsageError(
    `${given} is a symbolic link to a folder (${escapeUnsafe(to)}), which import does not follow`,
    folder === undefined
      ? 'It leads out of the repository, whose own files alone are imported.'
      : (agents) => `Name the folder it leads to: ${agents} import ${shellPath(folder)}`,
    { folder: outside ? null : rel },
  );
}

/** A file to read: its path as the agent reads it, its kind, and for one read through a linked rules folder, the file itself. */
export interface Source {
  rel: string;
  kind: ImportKind;
  via?: string;
}

/**
 * The files to read for the repository's entry `rel`: an instruction file, or a rules folder that is a symbolic link
 * (`.cursor/rules` -> `../shared/rules`). One that leads out of the repository or to nothing is itself, said skipped
 * by its reading as a linked CLAUDE.md is; one that leads inside is the rule files git lists in the folder it leads
 * to, named through the link as its agent reads them (`.cursor/rules/a.mdc`, `via` the file itself).
 */
export function sourcesOf(rel: string, top: string, all: readonly string[]): Source[] {
  const known = instructionKind(rel);
  if (known !== undefined) return [{ rel, kind: known }];
  const kind = (Object.keys(RULE_FOLDERS) as ImportKind[]).find((k) => rel === RULE_FOLDERS[k] || rel.endsWith(`/${RULE_FOLDERS[k]}`));
  if (kind === undefined || lstatSync(join(top, rel), { throwIfNoEntry: false })?.isSymbolicLink() !== true) return [];
  let real: string;
  try {
    real = realpathSync.native(join(top, rel));
  } catch {
    return [{ rel, kind }];
  }
  const inside = relative(realpathSync.native(top), real).split(sep).join('/');
  if (inside.startsWith('..') || isAbsolute(inside)) return [{ rel, kind }];
  if (statSync(real, { throwIfNoEntry: false })?.isDirectory() !== true) return [];
  const out: Source[] = [];
  for (const file of all) {
    if (inside !== '' && !file.startsWith(`${inside}/`)) continue;
    const named = `${rel}/${inside === '' ? file : file.slice(inside.length + 1)}`;
    // Only the folder's own kind: a link to a folder above would make every file of the repository one of its rules.
    if (instructionKind(named) === kind) out.push({ rel: named, kind, via: file });
  }
  return out;
}

/**
 * `sources` with each file read through a linked rules folder left out when the file it leads to is read itself:
 * its rules are read once, where the file is.
 */
export function readOnce(sources: readonly Source[]): Source[] {
  const direct = new Set(sources.filter((s) => s.via === undefined).map((s) => s.rel));
  const seen = new Set<string>();
  return sources.filter((s) => !direct.has(s.via ?? '') && !seen.has(s.rel) && seen.add(s.rel));
}

/** `text` with the lines of its code blocks emptied (their numbers kept). */
export function outsideCode(text: string, leftOut: readonly LeftOut[]): string {
  const lines = text.split('\n');
  for (const l of leftOut) if (l.reason === 'code-block') for (let n = l.line; n <= l.end_line; n++) lines[n - 1] = '';
  return lines.join('\n');
}

/**
 * The front matter as a map, or why it cannot be read (file:line:col, counted in the file). `bareGlobs`: `globs:` is
 * read to the end of its line, as Cursor and Windsurf read it (and the export writes it).
 */
export async function parseFrontMatter(
  rel: string,
  text: string,
  bareGlobs = false,
  globKey?: string,
): Promise<Record<string, unknown> | string> {
  let notGlob: string | undefined;
  const parse = (yaml: string) => {
    // The front matter starts on the file's second line: read below a blank line, every line a message names is the
    // file's (the line and the "first on line 1" of a key given twice alike).
    const bytes = new TextEncoder().encode(`\n${yaml}`);
    return parseYamlDocument((syntax) => {
      const p = parseYaml(rel, bytes, syntax);
      // Within the parse: a glob's text needs the syntax tree, which the fast path loads only when asked.
      const data = p.value?.data;
      if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
        globsAsWritten(p.value!, data as Record<string, unknown>);
        if (globKey !== undefined) notGlob = globNotText(rel, p.value!, data as Record<string, unknown>, globKey);
      }
      return p;
    });
  };
  const failed = (p: Awaited<ReturnType<typeof parse>>) => !p.value || p.diagnostics.some((d) => d.severity === 'error');
  let parsed = await parse(text);
  // Globs written bare, as Cursor's and Windsurf's editors write them (`globs: *.ts`, `- *.ts`, `[*.ts]`), which YAML
  // reads as aliases: quoted, the rest of the front matter is read as YAML still (a quoted description beside them).
  const quoted = failed(parsed) && globKey !== undefined ? quoteBareGlobs(text, globKey) : undefined;
  if (quoted !== undefined) {
    const again = await parse(quoted);
    if (!failed(again)) parsed = again;
  }
  const error = parsed.diagnostics.find((d) => d.severity === 'error');
  if (error || !parsed.value) {
    const lenient = lenientFrontMatter(text);
    if (lenient) return lenient;
    const at = error ? `${rel}:${error.line}:${error.col}` : rel;
    return `its front matter is not valid YAML (${at}: ${error?.message ?? 'unreadable'})`;
  }
  const data = parsed.value.data;
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) return `its front matter is not a map of keys (${rel}:2:1)`;
  if (notGlob !== undefined) return notGlob;
  const out = data as Record<string, unknown>;
  // `globs: #hash/**` (a folder named with a `#`) is a glob to those agents, where YAML reads a comment: the rule
  // would be skipped as one read only on request.
  if (bareGlobs && out.globs === null) {
    const line = lenientFrontMatter(text)?.globs;
    if (typeof line === 'string' && line !== '') out.globs = line;
  }
  return out;
}

/**
 * Why the globs under `key` cannot be read, naming the first that is no text (`true` in `[src/**, true]`, a map, an
 * empty item) at file:line:col; undefined when each is text. Such a glob left out would narrow the rule in silence.
 */
function globNotText(rel: string, file: YamlFile, data: Record<string, unknown>, key: string): string | undefined {
  const value = data[key];
  if (value === null || value === undefined || typeof value === 'string') return undefined;
  const list = Array.isArray(value);
  const i = list ? value.findIndex((g) => typeof g !== 'string') : 0;
  if (i < 0) return undefined;
  const node = file.doc.get(key, true) as { items?: { range?: number[] }[]; range?: number[] } | undefined;
  const range = (list ? node?.items?.[i] : node)?.range;
  const at = range === undefined ? { line: 2, col: 1 } : file.lines.linePos(range[0]!);
  const written = range === undefined ? '' : file.source.slice(range[0], range[1]).trim();
  return `its ${key} hold ${written === '' ? 'an empty item' : written}, which is no glob (${rel}:${at.line}:${at.col}): quote it if it names files, or remove it, and import it again`;
}

/** The keys whose values are globs: Cursor's and Windsurf's `globs`, Copilot's `applyTo`, Cline's `paths`. */
const GLOB_KEYS = ['globs', 'applyTo', 'paths'];

/**
 * `data` with each glob YAML read as a number (`globs: 42`, the `3` of `[a/**, 3]`) as the text the file writes:
 * the agents read a glob as that text (a file named 42), where the number was taken for no glob at all.
 */
function globsAsWritten(file: YamlFile, data: Record<string, unknown>): void {
  const numeric = (v: unknown) => typeof v === 'number';
  for (const key of GLOB_KEYS) {
    const v = data[key];
    if (!numeric(v) && !(Array.isArray(v) && v.some(numeric))) continue;
    const node = file.doc.get(key, true) as { items?: unknown[] } | undefined;
    const written = (n: unknown) => {
      const { value, range } = n as { value?: unknown; range?: [number, number, number] };
      return numeric(value) && range !== undefined ? file.source.slice(range[0], range[1]) : value;
    };
    data[key] = Array.isArray(node?.items) ? node.items.map(written) : written(node);
  }
}

/** Where an import reads: the repository's top (and its real path), its files, the store's folder in it. */
export interface ImportPlace {
  top: string;
  realTop: string;
  files: SortedFiles;
  repository: ReadonlySet<string>;
  /** The store's folder from the top; undefined when it is the top itself or lies outside the repository. */
  store: string | undefined;
  /** A path from the top as a command pasted in the current folder reads it: the reports' hints name such commands. */
  here: (rel: string) => string;
}

/**
 * The instruction files invariants of the store were imported from that git ignores now (a `.gitignore` line added
 * since), each skipped with the rule and the invariants it left in the store: the search never reads them, and no
 * import removes an invariant, so they would stay without a word.
 */
export async function ignoredSources(
  { top, repository, here }: ImportPlace,
  words: OptionWords,
  invariants: readonly ScopedInvariant[],
  found: readonly Source[],
  from: readonly ImportKind[] | undefined,
): Promise<ImportFile[]> {
  const reading = new Set(found.map((f) => f.rel));
  const idsOf = new Map<string, string[]>();
  for (const inv of invariants) {
    const file = inv.imported_from?.file;
    if (file === undefined || reading.has(file) || repository.has(file)) continue;
    const kind = instructionKind(file);
    if (kind === undefined || (from !== undefined && !from.includes(kind))) continue;
    (idsOf.get(file) ?? idsOf.set(file, []).get(file)!).push(inv.id);
  }
  // A file removed since (as `--replace` removes an emptied one) is not ignored: only one still there is said.
  const there = [...idsOf.keys()].filter((f) => lstatSync(join(top, f), { throwIfNoEntry: false }) !== undefined);
  let ignored: IgnoredPath[];
  try {
    ignored = await ignoredPaths(top, there);
  } catch {
    // Outside a repository (or git missing) every file is walked: none is ignored.
    return [];
  }
  return ignored.map(({ path, rule }): ImportFile => {
    const ids = idsOf.get(path)!;
    const them = ids.length === 1 ? 'the invariant' : `the ${ids.length} invariants`;
    return {
      file: path,
      kind: instructionKind(path)!,
      target: { kind: 'global' },
      candidates: [],
      leftOut: [],
      skipped: `git ignores it (${rule}), so the search reads it no more; ${them} imported from it ${ids.length === 1 ? 'stays' : 'stay'} in the store (${ids.join(', ')}): name it to import it again (${words.agents} import ${shellPath(here(path))}), or remove ${ids.length === 1 ? 'it' : 'them'} (${words.calls.remove(ids.length === 1 ? ids[0] : undefined)})`,
    };
  });
}

/**
 * The invariant ids the instruction files the import does not read list: `--replace` moves a rule file's rules into
 * the export's own file (`.cursor/rules/agents-web.mdc`), which an import of the rule file alone does not read, and
 * they are never taken as gone from their file. Read only when such a rule file is read and others are not.
 */
export function blockIdsElsewhere(top: string, all: readonly string[], found: readonly Source[]): string[] {
  if (!found.some((f) => movesRulesOut(f.kind))) return [];
  const reading = new Set(found.map((f) => f.rel));
  return all.flatMap((rel) => {
    if (reading.has(rel) || instructionKind(rel) === undefined) return [];
    const r = readRegularFile(join(top, rel), MAX_FILE_BYTES);
    return r.ok ? exportedEntryIds(new TextDecoder().decode(r.bytes)) : [];
  });
}
