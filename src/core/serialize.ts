import { type ActorChoice, reconciliationLines } from './actor-choice.ts';
import { parse, stringify } from 'yaml';
import type { Invariant, Plan } from './model.ts';
import type { DecisionNode, EnforcementRun, Violation } from './records.ts';
import { schemaRef } from './layout.ts';
import { UsageError } from './errors.ts';
import { findUnsafeText, unsafeTextMessage } from './plain-text.ts';
import type { SchemaName } from './schemas.ts';
import type { Waiver } from './waivers.ts';
import type { ExtendsLock } from './extends.ts';
import { assertSchemaValid, type FieldWords } from './write-check.ts';
import { assertFitsStoreFile } from './store-file-size.ts';
import { yaml11Reads } from './yaml11.ts';
import { docsRef } from './docs-link.ts';

/** The first line of every file a writer emits, so editors validate as you type. */
export function modeline(rel: string, schema: string): string {
  return `# yaml-language-server: $schema=${schemaRef(rel, schema)}`;
}

/** Refuses (exit 2) text that could hide from a reviewer, before a byte is written (docs/store-format.md, "Plain text only"). */
function refuseUnsafeText(rel: string, schema: string, data: Record<string, unknown>, lead = `cannot write ${rel}`): void {
  const [first] = findUnsafeText(schema, data);
  if (!first) return;
  const field = first.path[0];
  const where = field === 'created_by' ? ' (it comes from git: user.name and user.email, or GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL)' : '';
  throw new UsageError(
    `${lead}: ${unsafeTextMessage(first)}`,
    `Nothing was written. Remove the character${where}; tab is allowed, and a newline only in rationale, goal, details and descriptions.`,
    {
      field: first.path.join('.'),
      character: `U+${first.codePoint.toString(16).toUpperCase().padStart(4, '0')}`,
    },
  );
}

/**
 * The YAML text of a document, exactly as writers emit it, without the
 * schema check: the layer the YAML reader's tests exercise with any data.
 * Writers never call it directly; they go through `document` below.
 *
 * Lines stay within yamllint's default 80 columns and in the form prettier
 * prints (docs/store-format.md, "Line width and quoting"): a string value
 * that would overflow is written as a `>-` folded block scalar, broken at
 * single spaces; a quoted value takes the quote prettier prefers.
 */
export function yamlDocument(rel: string, schema: SchemaName, data: Record<string, unknown>): string {
  const strings: string[] = [];
  const skeleton = stringify(tokenize(data, strings), STRINGIFY);
  let placed = 0;
  const body = skeleton.replace(TOKEN_AT_END, (_m, prefix: string, n: string) => {
    placed++;
    return prefix + scalarText(strings[Number(n)]!, prefix);
  });
  // Each placeholder ends its own line (yaml writes values in block style); anything else is a bug, not a file to write.
  if (placed !== strings.length) throw new Error(`internal: ${placed} placeholder(s) replaced for ${strings.length} value(s) of ${rel}`);
  return `${modeline(rel, schema)}\n${body}`;
}

const STRINGIFY = { lineWidth: 0, defaultKeyType: 'PLAIN', version: '1.2' } as const;
/** yamllint's default `line-length` maximum, which is also prettier's default print width. */
const WIDTH = 80;
/** A placeholder for the n-th string value: plain, so yaml writes it as is at the end of its line. */
const token = (n: number) => `zz0fold0${n}0zz`;
const TOKEN_AT_END = /^(.*?)zz0fold0(\d+)0zz$/gm;
/** Characters a folded block scalar cannot hold as they are (controls, separators, lone surrogates). */
const NOT_FOLDABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|\p{Surrogate}/u;

/** A copy of `value` with every string replaced by a placeholder (collected in `strings`). */
function tokenize(value: unknown, strings: string[]): unknown {
  if (typeof value === 'string') {
    strings.push(value);
    return token(strings.length - 1);
  }
  if (Array.isArray(value)) return value.map((v) => tokenize(v, strings));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = tokenize(v, strings);
    return out;
  }
  return value;
}

/** How the string `value` is written after `prefix` (the start of its line, up to the value). */
function scalarText(value: string, prefix: string): string {
  const own = stringify(value, STRINGIFY).slice(0, -1);
  // Content is indented two past the key, or past the "- " of a bare item.
  const indent = prefix.endsWith(': ') ? prefix.length - prefix.replace(/^(?:\s*- )*\s*/, '').length + 2 : prefix.length;
  const pad = ' '.repeat(indent);
  // Controls, separators, NEL and lone surrogates: escaped here, not left to
  // yaml, which writes a NEL raw inside double quotes and then reads it as a
  // line break (the value would change).
  if (NOT_FOLDABLE.test(value.replace(/\n/g, ''))) return quotedLines(value, WIDTH - prefix.length, WIDTH - indent, pad);
  if (value.includes('\n')) {
    // yaml's literal block (`|` or `|-`), indented under its key, when its lines fit.
    const [head, ...rest] = own.split('\n');
    // yaml indents a whole document's block by two when the value starts like a document marker (`---`, `...`);
    // under a key the block takes the key's indentation only, as prettier prints it.
    const cut = Math.min(...rest.filter((l) => l !== '').map((l) => /^ */.exec(l)![0].length));
    const lines = rest.map((l) => (l === '' ? '' : pad + l.slice(cut)));
    if ((head === '|' || head === '|-') && lines.every((l) => l.length <= WIDTH && !l.endsWith(' '))) return [head, ...lines].join('\n');
  } else {
    // A plain scalar a YAML 1.1 reader would take for a boolean, a date or a number: double-quoted (./yaml11.ts).
    // So is a value that yaml, writing it as a whole document, puts in a block scalar because it starts like a
    // document marker (`---`, `...`): that block's indentation fits a top-level key only, not a list item or a
    // nested key.
    const oneLine = own.includes('\n')
      ? preferredQuotes(value, JSON.stringify(value))
      : isPlain(own) && yaml11Reads(own)
        ? JSON.stringify(value)
        : preferredQuotes(value, own);
    if (prefix.length + oneLine.length <= WIDTH) return oneLine;
  }
  if (foldable(value)) {
    const lines = foldLines(value, WIDTH - indent);
    // A long line may hold spaces only where they could not be broken (a run of them): then the quoted form below.
    if (lines.every((l) => l.length <= WIDTH - indent || !l.includes(' '))) return `>-\n${lines.map((l) => pad + l).join('\n')}`;
  }
  // Leading or trailing spaces, runs of spaces in a long line, controls, long
  // lines of several: double-quoted, escaped, broken with `\` (the fast
  // reader leaves this form to yaml).
  return quotedLines(value, WIDTH - prefix.length, WIDTH - indent, pad);
}

/**
 * `value` double-quoted, its controls, separators and lone surrogates
 * escaped, broken where needed by an escaped line break (`\` at the end of
 * a line, which yaml drops together with the next line's indentation; a
 * space that starts a line is escaped so it is kept). Lines fit `first`
 * and `width` columns; none ends with a space. (A value that fits one line
 * and needs no escape but `\"` never gets here: `preferredQuotes` has
 * written it in single quotes, as prettier prints it.)
 */
function quotedLines(value: string, first: number, width: number, pad: string): string {
  const units: string[] = [];
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const ch = value[i]!;
    // A high surrogate followed by a low one (past the end, charCodeAt gives NaN, which is neither).
    if (c >= 0xd800 && c <= 0xdbff && value.charCodeAt(i + 1) >= 0xdc00 && value.charCodeAt(i + 1) <= 0xdfff) {
      units.push(value.slice(i, i + 2));
      i++;
    } else if (ch === '\\' || ch === '"') units.push(`\\${ch}`);
    else if (ch === '\n') units.push('\\n');
    else if (ch === '\t') units.push('\\t');
    else if (NOT_FOLDABLE.test(ch)) units.push(`\\u${c.toString(16).padStart(4, '0')}`);
    else units.push(ch);
  }
  const lines: string[] = [];
  let line = '"';
  let budget = first;
  for (const [k, u] of units.entries()) {
    const rest = k === units.length - 1 ? 1 : 2; // the closing quote, or room for a `\`
    if (line.length + u.length + rest > budget && line !== '"') {
      lines.push(`${line}\\`);
      // The next line's leading spaces are indentation: a space that starts it is escaped.
      line = u === ' ' ? '\\ ' : u;
      budget = width;
    } else line += u;
  }
  lines.push(`${line}"`);
  return lines.map((l, k) => (k === 0 ? l : pad + l)).join('\n');
}

/** A folded block scalar holds `value` exactly, with no trailing space on any line. */
function foldable(value: string): boolean {
  return value !== '' && value[0] !== ' ' && !value.endsWith(' ') && !NOT_FOLDABLE.test(value);
}

/**
 * `value` broken into lines of at most `width` characters where it can be:
 * only at a single space between two other characters, since folding turns
 * each line break back into exactly one space. A longer word stays whole on
 * its own line (yamllint allows a line that is one word).
 */
export function foldLines(value: string, width: number): string[] {
  const words: string[] = [];
  let start = 0;
  for (let i = 1; i < value.length - 1; i++) {
    if (value[i] === ' ' && value[i - 1] !== ' ' && value[i + 1] !== ' ') {
      words.push(value.slice(start, i));
      start = i + 1;
    }
  }
  words.push(value.slice(start));
  const lines: string[] = [];
  let line = words[0]!;
  for (const word of words.slice(1)) {
    if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  lines.push(line);
  return lines;
}

/**
 * yaml double-quotes a value holding both kinds of quote; prettier rewrites
 * that to single quotes unless another escape needs the double quotes. Write
 * it the way prettier leaves it.
 */
/** Whether yaml wrote a one-line value plain (neither quoted nor a block scalar). */
function isPlain(text: string): boolean {
  return !/^["'|>]/.test(text);
}

function preferredQuotes(value: string, text: string): string {
  if (!text.startsWith('"') || !value.includes('"') || /\\[^"]/.test(text)) return text;
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * Every writer's document passes here: no hidden text (a pure check of its
 * own, core/plain-text.ts), then its schema, before any text (let alone a
 * byte on disk) is made.
 */
function document(rel: string, schema: SchemaName, data: Record<string, unknown>, refusal: Refusal = {}): string {
  checkDocument(rel, schema, data, refusal);
  const text = yamlDocument(rel, schema, data);
  assertFitsStoreFile(rel, text);
  return text;
}

/**
 * The opening of a refusal for a file made under a new id: it names the folder the file would have been added to,
 * since the file itself never exists (as `checkInvariantDraft` says it for an invariant).
 */
export function addingTo(kind: string, folder: string): string {
  return `cannot add ${kind} to ${folder}/`;
}

/**
 * How a writer's refusal is worded: `lead` opens a hidden-text refusal (default: "cannot write REL"); `words` name the
 * options its caller gave the values with (FieldWords).
 */
export interface Refusal {
  lead?: string | undefined;
  words?: FieldWords | undefined;
}

/** `document`'s checks. */
function checkDocument(rel: string, schema: SchemaName, data: Record<string, unknown>, refusal: Refusal = {}): void {
  refuseUnsafeText(rel, schema, data, refusal.lead);
  assertSchemaValid(schema, rel, data, refusal.words);
}

/** An invariant's fields as its file holds them, keys in the documented order. */
export function invariantFields(inv: Invariant): Record<string, unknown> {
  const data: Record<string, unknown> = { id: inv.id, text: inv.text, severity: inv.severity, active: inv.active };
  if (inv.tags.length > 0) data.tags = inv.tags;
  if (inv.rationale !== undefined) data.rationale = inv.rationale;
  if (inv.overrides !== undefined) data.overrides = inv.overrides;
  // Written only when set (false is the default): an edit of a policy source's locked invariant keeps its floor.
  if (inv.locked === true) data.locked = true;
  if (inv.guard !== undefined) data.guard = structuredClone(inv.guard);
  if (inv.created_at !== undefined) data.created_at = inv.created_at;
  if (inv.created_by !== undefined) data.created_by = inv.created_by;
  if (inv.source !== undefined) data.source = { ...inv.source };
  if (inv.imported_from !== undefined) {
    const { file, line, text_hash } = inv.imported_from;
    data.imported_from = text_hash === undefined ? { file, line } : { file, line, text_hash };
  }
  return data;
}

/** Canonical text of an invariant file, keys in the documented order. */
export function formatInvariantFile(rel: string, inv: Invariant, words?: FieldWords): string {
  return document(rel, 'invariant.schema.json', invariantFields(inv), { words });
}

/**
 * The checks `formatInvariantFile` makes, for an invariant that has no id
 * and file yet (add checks its draft before it takes the lock): a refusal
 * names the scope's folder, not a file that will never exist.
 */
export function checkInvariantDraft(folder: string, inv: Invariant, words?: FieldWords): void {
  checkDocument(`${folder}/`, 'invariant.schema.json', invariantFields(inv), { lead: addingTo('an invariant', folder), words });
}

/** A new plan's refusal opens with `addingTo('a plan', 'plans')`. */
export function formatPlanFile(rel: string, plan: Plan, refusal?: Refusal): string {
  const data: Record<string, unknown> = { id: plan.id };
  for (const key of ['action', 'project', 'goal', 'created_at', 'created_by'] as const) {
    if (plan[key] !== undefined) data[key] = plan[key];
  }
  return document(rel, 'plan.schema.json', data, refusal);
}

/** action.yaml of an action template (schemas/action.schema.json). */
export function formatActionFile(rel: string, meta: { description?: string }): string {
  return document(rel, 'action.schema.json', ordered(meta, ['description']));
}

/** project.yaml of a project (schemas/project.schema.json). */
export function formatProjectFile(rel: string, meta: { description?: string; paths?: string[] }): string {
  return document(rel, 'project.schema.json', ordered(meta, ['description', 'paths']));
}

/** The config.yaml `agents init` writes, with the actor it was asked to set up (src/core/actor-choice.ts). */
export function formatConfigFile(actor?: ActorChoice): string {
  const text = [
    '# yaml-language-server: $schema=schemas/config.schema.json',
    'version: 1',
    '# Whether the commands that write (invariant add, edit, move, remove,',
    '# waive, plan use, …) commit their change with git; --commit and',
    '# --no-commit decide one run.',
    'commit: false',
    ...reconciliationLines(actor, scalarText),
    "# What `agents export` writes into agents' instruction files (see",
    `# ${docsRef('export.md')}):`,
    '# export:',
    '#   targets: [agents-md, claude-md, cursor]',
    '',
  ].join('\n');
  // Written line by line for its comments, it passes the checks of every writer's document all the same: a model
  // name the schema refuses would leave a store every command stops on.
  checkDocument('config.yaml', 'config.schema.json', parse(text) as Record<string, unknown>);
  return text;
}

/** Generic YAML document with a modeline, for records written under a plan. */
export function formatRecordFile(rel: string, schema: SchemaName, data: Record<string, unknown>): string {
  return document(rel, schema, data);
}

function ordered<T extends object>(value: T, keys: readonly (keyof T)[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const key of keys) if (value[key] !== undefined) data[key as string] = value[key];
  return data;
}

export function formatDecisionFile(rel: string, node: DecisionNode): string {
  return document(
    rel,
    'decision.schema.json',
    ordered(node, ['id', 'type', 'parent_id', 'created_at', 'created_by', 'summary', 'enforcement_id', 'actor']),
  );
}

export function formatEnforcementFile(rel: string, run: EnforcementRun): string {
  const data = ordered(run, ['id', 'decision_id', 'created_at', 'created_by', 'actor', 'model', 'prompt_version', 'error', 'set_digest']);
  data.records = run.records.map((r) => ordered(r, ['invariant_id', 'enforced', 'actor_response', 'decision_id', 'digest']));
  return document(rel, 'enforcement.schema.json', data);
}

/** A new violation's refusal names its folder, as a new plan's does. */
export function formatViolationFile(rel: string, v: Violation, refusal?: Refusal): string {
  const data = ordered(v, ['id', 'invariant_id', 'violated_text', 'severity', 'details', 'created_at', 'created_by']);
  if (v.resolved !== undefined) data.resolved = ordered(v.resolved, ['at', 'by', 'note']);
  return document(rel, 'violation.schema.json', data, refusal);
}

/** A waiver file (schemas/waiver.schema.json); `lead` opens a refusal, as for `formatPlanFile`. */
export function formatWaiverFile(rel: string, w: Waiver, lead?: string): string {
  return document(rel, 'waiver.schema.json', ordered(w, ['id', 'invariant_id', 'reason', 'owner', 'expires', 'created_at', 'created_by']), {
    lead,
  });
}

/** `extends.lock.yaml` (schemas/extends-lock.schema.json; docs/extends.md). */
export function formatExtendsLockFile(rel: string, lock: ExtendsLock): string {
  return document(rel, 'extends-lock.schema.json', {
    version: 1,
    sources: lock.sources.map((s) => ordered(s, ['name', 'url', 'ref', 'path', 'kind', 'commit', 'tag_object'])),
  });
}
