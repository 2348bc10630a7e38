// Checks one file from its bytes: the parser and the generated schema
// validators load with this module, which validation imports only when a file
// is not answered from the cache.
import type { Diagnostic } from '../core/diagnostics.ts';
import { schemaRef, type PathKind } from '../core/layout.ts';
import type { ScopedInvariant } from '../core/model.ts';
import { looseKeyOfKey } from '../core/near-duplicates.ts';
import { textKey } from '../core/normalise.ts';
import { ownCopy, parseConfig, parseInvariant, parsePlan, type YamlSyntax } from '../core/parse-core.ts';
import { parseActionMeta, parseProjectMeta } from '../core/parse-meta.ts';
import type { SchemaName } from '../core/schemas.ts';
import { parseExtendsLock } from '../core/extends-lock.ts';
import type { ContentKind, FileFacts } from './file-facts.ts';
import { checkRecord, RECORD_SCHEMAS } from './records.ts';
import { parseWaiver } from '../core/waiver-file.ts';
import { stampedKey, type ReadResult, type WorkingTreeSource } from '../store/tree-source.ts';
import { contentHash, keyDigest } from './content-hash.ts';
import { parseYamlDocument, parseYamlDocumentNow } from '../store/yaml-document.ts';

/** The schema a file's modeline names, by kind; undefined for files that carry none. */
export function modelineSchema(kind: PathKind | undefined): SchemaName | undefined {
  switch (kind?.kind) {
    case 'invariant':
      return 'invariant.schema.json';
    case 'plan':
      return 'plan.schema.json';
    case 'config':
      return 'config.schema.json';
    case 'extends-lock':
      return 'extends-lock.schema.json';
    case 'action-meta':
      return 'action.schema.json';
    case 'project-meta':
      return 'project.schema.json';
    case 'record':
      return RECORD_SCHEMAS[kind.record];
    case 'waiver':
      return 'waiver.schema.json';
    default:
      return undefined;
  }
}

/** The modeline as the tool writes it (a prefix that MODELINE_RE accepts). */
const MODELINE_PREFIX = '# yaml-language-server: $schema=';
const MODELINE_BYTES = new TextEncoder().encode(MODELINE_PREFIX);
/** A modeline as editors read it, its schema captured: what follows on its line is the user's own (a comment). */
export const MODELINE_RE = /^#\s*yaml-language-server:\s*\$schema=(\S*)/;
const decoder = new TextDecoder();
const encoder = new TextEncoder();

function startsWithBytes(b: Uint8Array, prefix: Uint8Array): boolean {
  if (b.byteLength < prefix.byteLength) return false;
  for (let i = 0; i < prefix.byteLength; i++) if (b[i] !== prefix[i]) return false;
  return true;
}

/** What the modeline of the store file `path` names: the relative path to its schema's copy in `schemas/`. */
export function modelineTarget(path: string, kind: PathKind | undefined): string | undefined {
  const schema = modelineSchema(kind);
  return schema === undefined ? undefined : schemaRef(path, schema);
}

/**
 * A file's modeline problem, or undefined when it has none: an empty file, or one whose leading comment lines
 * (before any YAML, blank lines skipped) hold the modeline, naming `target` (the schema's copy; any, when not
 * given). Else `{ text }`, its first line (no modeline), or `{ text, at }`, the modeline line and its number (1-based):
 * it names another schema (another kind's, or a copy outside the store), which editors would check the file against.
 */
export function modelineProblem(b: Uint8Array, target?: string): { text: string; at?: number } | undefined {
  if (b.byteLength === 0) return undefined;
  // The line the tool writes, compared byte for byte; anything else is read line by line.
  if (target === undefined ? startsWithBytes(b, MODELINE_BYTES) : startsWithLine(b, modelineBytes(target))) return undefined;
  return modelineRead(b, target);
}

/** modelineProblem for a file that does not start with the line the tool writes. */
function modelineRead(b: Uint8Array, target: string | undefined): { text: string; at?: number } | undefined {
  // A first line that starts with a printable ASCII character other than `#` holds YAML: no modeline can follow, and
  // that line is the answer (most files of a store without modelines), decoded without the lines after it.
  const first = b[0]!;
  if (first > 32 && first < 127 && first !== 35) {
    const end = b.indexOf(10);
    const line = decoder.decode(b.subarray(0, end < 0 || end > 8192 ? 8192 : end));
    return { text: line.endsWith('\r') ? line.slice(0, -1) : line };
  }
  const lines = decoder.decode(b.subarray(0, 8192)).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    if (line.trim() === '') continue;
    if (!line.startsWith('#')) break;
    const m = MODELINE_RE.exec(line);
    if (m) return target === undefined || m[1] === target ? undefined : { text: line, at: i + 1 };
  }
  return { text: lines[0]!.replace(/\r$/, '') };
}

/** The modeline naming `target`, as bytes: a store has a few targets (one per folder depth and kind), encoded once each. */
const modelineBytesOf = new Map<string, Uint8Array>();
function modelineBytes(target: string): Uint8Array {
  let bytes = modelineBytesOf.get(target);
  if (bytes === undefined) modelineBytesOf.set(target, (bytes = encoder.encode(MODELINE_PREFIX + target)));
  return bytes;
}

/**
 * The schema reference of each schema's files, by folder depth (a file `depth` folders down names `../` that many
 * times): made once per schema and depth, not again for every file checked.
 */
const targetsBySchema = new Map<SchemaName, string[]>();

/** modelineTarget for a file of a kind whose modeline names `schema`. */
function targetAt(path: string, schema: SchemaName): string {
  let depth = 0;
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) depth++;
  let byDepth = targetsBySchema.get(schema);
  if (byDepth === undefined) targetsBySchema.set(schema, (byDepth = []));
  return (byDepth[depth] ??= schemaRef(path, schema));
}

/** Whether `b` starts with the line `line` (then a line end, or nothing). */
function startsWithLine(b: Uint8Array, line: Uint8Array): boolean {
  if (!startsWithBytes(b, line)) return false;
  const next = b[line.byteLength];
  return next === undefined || next === 10 || next === 13;
}

/** The facts of one file, parsed with `syntax` (given through store/yaml-document.ts, the one YAML entry point). */
export function factsOf(path: string, kind: ContentKind, bytes: Uint8Array, syntax?: YamlSyntax): FileFacts {
  const facts: FileFacts = {};
  let diagnostics: Diagnostic[];
  switch (kind.kind) {
    case 'invariant': {
      // The value is dropped once its facts are taken: no flat copies of its strings, except the two kept.
      const p = parseInvariant(path, bytes, kind.scope, kind.id, false, syntax);
      diagnostics = p.diagnostics;
      if (p.value) {
        const key = textKey(p.value.text);
        facts.k = keyDigest(key);
        if (p.value.active) facts.n = looseKeyOfKey(key);
        if (p.value.overrides !== undefined) facts.v = ownCopy(p.value.overrides);
        if (p.value.guard?.write !== undefined) facts.g = p.value.guard.write.map(ownCopy);
        const source = p.value.source;
        if (kind.scope.kind === 'plan' && source?.origin_id !== undefined) {
          facts.o = ownCopy(source.origin_id);
          if (source.ref !== undefined) facts.r = ownCopy(source.ref);
        }
      }
      break;
    }
    case 'plan': {
      const p = parsePlan(path, bytes, kind.plan, syntax);
      diagnostics = p.diagnostics;
      if (p.value) facts.p = p.value;
      break;
    }
    case 'action-meta':
      diagnostics = parseActionMeta(path, bytes, syntax).diagnostics;
      break;
    case 'project-meta': {
      const p = parseProjectMeta(path, bytes, syntax);
      diagnostics = p.diagnostics;
      if (p.value) facts.j = p.value;
      break;
    }
    case 'config':
      diagnostics = parseConfig(path, bytes, syntax).diagnostics;
      break;
    case 'extends-lock':
      diagnostics = parseExtendsLock(path, bytes, syntax).diagnostics;
      break;
    case 'record':
      diagnostics = checkRecord(path, kind.record, bytes, syntax);
      break;
    case 'bad-id':
      // An invariant file named other than by a ULID: its name is reported by the reader (id-invalid); what it holds is
      // checked as any invariant's, but for an id that cannot equal a name that is none. No text facts: it takes part
      // in no duplicate or shadow until it has its name.
      diagnostics = kind.scope
        ? parseInvariant(path, bytes, kind.scope, '', false, syntax).diagnostics.filter((d) => d.code !== 'id-mismatch')
        : [];
      break;
    case 'waiver': {
      const p = parseWaiver(path, bytes, kind.id, syntax);
      diagnostics = p.diagnostics;
      if (p.value) facts.w = { i: ownCopy(p.value.invariant_id), x: ownCopy(p.value.expires) };
      break;
    }
  }
  if (diagnostics.length > 0) facts.d = diagnostics;
  const schema = modelineSchema(kind);
  const problem = schema === undefined ? undefined : modelineProblem(bytes, targetAt(path, schema));
  if (problem !== undefined) {
    facts.m = problem.text;
    if (problem.at !== undefined) facts.l = problem.at;
  }
  return facts;
}

/** The facts of one file (see factsOf). */
export function checkFile(path: string, kind: ContentKind, bytes: Uint8Array): Promise<FileFacts> {
  return parseYamlDocument((syntax) => factsOf(path, kind, bytes, syntax));
}

/** An invariant file parsed in full (undefined when it does not parse). */
export function readInvariant(
  path: string,
  kind: Extract<PathKind, { kind: 'invariant' }>,
  bytes: Uint8Array,
): Promise<ScopedInvariant | undefined> {
  return parseYamlDocument((syntax) => parseInvariant(path, bytes, kind.scope, kind.id, true, syntax).value);
}

/** One file of a batch checked from the working tree: its facts or why it could not be read; the blob and bytes when asked for. */
export interface CheckedFile {
  f?: FileFacts;
  fail?: Exclude<ReadResult, { ok: true }>;
  /** The content hash (the cache's key), when the cache is in use. */
  blob?: string;
  /** A copy of the bytes, for the files whose bytes later checks or `--fix` read again (see `keep`). */
  bytes?: Uint8Array;
}

export interface BatchOptions {
  /** Compute each file's content hash (the cache is in use). */
  hash: boolean;
  /** With `hash`: key each settled file's hash with its stat stamp too (`StampOptions` in store/tree-source.ts). */
  settledBefore?: number;
}

/**
 * Reads and checks a batch of working-tree files, each as it is read (the
 * bytes of a file are dropped once its facts are taken, unless it has
 * something to report). The same code runs in the validating thread and in
 * each worker thread (check-pool.ts), so the facts are the same whichever
 * thread checked a file.
 */
export async function checkBatch(
  tree: WorkingTreeSource,
  paths: readonly string[],
  kinds: readonly ContentKind[],
  options: BatchOptions,
): Promise<CheckedFile[]> {
  const out: CheckedFile[] = new Array(paths.length);
  const keep = (f: FileFacts) => f.d !== undefined;
  const later: { i: number; bytes: Uint8Array; blob: string | undefined }[] = [];
  tree.visit(
    paths,
    (i, buffer, length, stamp) => {
      // The shared buffer is valid only during this call: checked now, copied only when kept.
      const bytes = buffer.subarray(0, length);
      const blob = options.hash ? stampedKey(contentHash(bytes), stamp) : undefined;
      const now = parseYamlDocumentNow((syntax) => factsOf(paths[i]!, kinds[i]!, bytes, syntax));
      if (!now) {
        // The file needs the full YAML parser, which loads asynchronously: checked below, from a copy.
        later.push({ i, bytes: new Uint8Array(bytes), blob });
        return;
      }
      const f = now.value;
      const c: CheckedFile = { f };
      if (blob !== undefined) c.blob = blob;
      if (keep(f)) c.bytes = new Uint8Array(bytes);
      out[i] = c;
    },
    (i, r) => {
      out[i] = { fail: r };
    },
    options.hash && options.settledBefore !== undefined ? { settledBefore: options.settledBefore } : undefined,
  );
  for (const { i, bytes, blob } of later) {
    const f = await checkFile(paths[i]!, kinds[i]!, bytes);
    const c: CheckedFile = { f };
    if (blob !== undefined) c.blob = blob;
    if (keep(f)) c.bytes = bytes;
    out[i] = c;
  }
  return out;
}
