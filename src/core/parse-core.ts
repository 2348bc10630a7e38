import type { Diagnostic, Parsed } from './diagnostics.ts';
import type { Guard, Invariant, InvariantSource, Plan, Scope, ScopedInvariant, Severity, SourcePlaces, StoreConfig } from './model.ts';
import { DEFAULT_CONFIG, GUARD_KINDS } from './model.ts';
import { diagAt, fullParser, nodeAt, offsetAt, parseYaml, YamlSyntaxNotLoaded, type YamlFile, type YamlSyntax } from './yaml-file.ts';
import { findUnsafeText, unsafeTextMessage } from './plain-text.ts';
import { cleanTag, cleanText } from './normalise.ts';
import { checkSchema } from './schema-diagnostics.ts';
import type { SchemaName } from './schema-docs.ts';
import { sourcesFromConfig } from './extends-config.ts';
import { guardProblemsWith, type RegexProblem } from './guard-entries.ts';
import { actorNeeds, actorNeedsExample, baseUrlProblem, looksLikeKey } from './actor-choice.ts';
import { docsRef } from './docs-link.ts';

export { MAX_ALIAS_COUNT, MAX_FILE_BYTES, MAX_TEXT_LENGTH } from './limits.ts';

export type { Parsed } from './diagnostics.ts';
export * from './yaml-file.ts';
export { checkSchema } from './schema-diagnostics.ts';

/**
 * A copy of `s` that does not keep the file it was read from alive: a string
 * cut out of a file's text (by yaml or the fast path) holds on to the whole
 * text in V8, which for a whole store is as much again as the files' bytes.
 * A JSON round trip is the cheapest flat copy JavaScript offers (a slice of
 * a concatenation also works, but keeps a 40-byte slice object per string).
 * Short strings are copied by V8 already.
 */
export function ownCopy(s: string): string {
  return s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
}

function same(s: string): string {
  return s;
}

/** The regular-expression check, asked for only when a guard has a command or content pattern. */
function regexCheck(syntax: YamlSyntax | undefined): RegexProblem {
  return (pattern) => {
    if (!syntax?.regexProblem) throw new YamlSyntaxNotLoaded('regexProblem');
    return syntax.regexProblem(pattern);
  };
}

/**
 * `control-character` errors: strings holding characters that can hide text
 * from a reviewer (docs/store-format.md, "Plain text only"), each at its value.
 */
export function plainTextDiagnostics(y: YamlFile, document: string): Diagnostic[] {
  return findUnsafeText(document, y.data).map((u) =>
    diagAt(
      y,
      offsetAt(y, u.path),
      'control-character',
      unsafeTextMessage(u),
      'Remove the character (tab is allowed, and a newline only in rationale, goal, details and descriptions); write the text in plain characters.',
    ),
  );
}

function offsetOfKey(y: YamlFile, key: string): number {
  const node = nodeAt(y, [key]);
  return node?.range?.[0] ?? 0;
}

/** Offset of a top-level key itself, not of its value: where a key that may not stand in the file at all is pointed at, as an unknown key is. */
function offsetOfKeyName(y: YamlFile, key: string): number {
  const name = fullParser(y.syntax).keyNodeOf(nodeAt(y, []), key);
  return name?.range?.[0] ?? offsetOfKey(y, key);
}

/** A record or waiver whose `id` is not its file name: the one diagnostic, at the id, as an invariant's is. */
export function fileIdMismatch(y: YamlFile, found: string, id: string): Diagnostic {
  return diagAt(
    y,
    offsetAt(y, ['id']),
    'id-mismatch',
    `id ${found} differs from the file name ${id}.yaml`,
    `Rename the file to ${found}.yaml or correct the id.`,
  );
}

/**
 * A file of one record or waiver: YAML, the schema, plain text only, the id against the file name, then `check`, the
 * rule of its kind a schema cannot say (a finding, or undefined when the value keeps it).
 */
export function parseWithSchema<T extends { id: string }>(
  file: string,
  bytes: Uint8Array,
  schema: SchemaName,
  id: string,
  syntax: YamlSyntax | undefined,
  check?: (value: T, y: YamlFile) => Diagnostic | undefined,
): Parsed<T> {
  const parsed = parseYaml(file, bytes, syntax);
  if (!parsed.value) return { diagnostics: parsed.diagnostics };
  const y = parsed.value;
  const diagnostics = checkSchema(y, schema);
  // A text that hides text in a terminal is refused as in every other file of the store (docs/store-format.md).
  if (diagnostics.length === 0) diagnostics.push(...plainTextDiagnostics(y, schema));
  if (diagnostics.length > 0) return { diagnostics };
  const value = y.data as T;
  if (value.id !== id) return { diagnostics: [fileIdMismatch(y, value.id, id)] };
  const broken = check?.(value, y);
  return broken ? { diagnostics: [broken] } : { value, diagnostics: [] };
}

/**
 * An invariant file: YAML, schema, then the rules a schema cannot say (the
 * id equals the file name, `source` only in a plan's scope); the schema
 * bounds the text (not blank, at most MAX_TEXT_LENGTH code points). `id` is
 * the name the path gives; `scope` comes from the path too.
 */
export function parseInvariant(
  file: string,
  bytes: Uint8Array,
  scope: Scope,
  id: string,
  /** Copy the strings flat (see `ownCopy`), for values that are kept; a caller that only looks at the value and drops it passes false. */
  keep = true,
  /** The full YAML parser (see YamlSyntax); without it, a file off the fast path throws YamlSyntaxNotLoaded. */
  syntax?: YamlSyntax,
): Parsed<ScopedInvariant> {
  const own = keep ? ownCopy : same;
  const parsed = parseYaml(file, bytes, syntax);
  if (!parsed.value) return { diagnostics: parsed.diagnostics };
  const y = parsed.value;
  const diagnostics = checkSchema(y, 'invariant.schema.json');
  if (diagnostics.length > 0) return { diagnostics };
  const raw = y.data as Invariant;
  if (raw.id !== id) {
    diagnostics.push(
      diagAt(
        y,
        offsetOfKey(y, 'id'),
        'id-mismatch',
        `id ${raw.id} differs from the file name ${id}.yaml`,
        `Rename the file to ${raw.id}.yaml (\`agents validate --fix\` does it when no other file has that name) or correct the id.`,
      ),
    );
  }
  if (raw.source && scope.kind !== 'plan') {
    diagnostics.push(
      diagAt(
        y,
        offsetOfKeyName(y, 'source'),
        'source-not-in-plan',
        '"source" is only allowed on invariants in a plan\'s scope',
        'Remove the source key.',
      ),
    );
  }
  if (raw.guard !== undefined) {
    for (const { kind, index, problem } of guardProblemsWith(raw.guard, regexCheck(syntax))) {
      diagnostics.push(
        diagAt(
          y,
          offsetAt(y, ['guard', kind, String(index)]),
          'guard-invalid',
          problem,
          `Fix the entry (${docsRef('guard.md')} gives the syntax of each list).`,
        ),
      );
    }
  }
  diagnostics.push(...plainTextDiagnostics(y, 'invariant.schema.json'));
  if (diagnostics.length > 0) return { diagnostics };
  // Trimmed as the writers trim what they are given: the white space and the
  // line break a block scalar ends with are layout, so list, show, export and
  // the MCP tools give the text and tags the CLI would have written.
  const value: ScopedInvariant = {
    id: own(raw.id),
    text: own(cleanText(raw.text)),
    severity: (raw.severity ?? 'error') as Severity,
    active: raw.active ?? true,
    // Two tags the trim or NFC makes one (`a` and `"a "`, é and e + U+0301) are one tag, as the schema's uniqueItems means.
    tags: raw.tags ? [...new Set(raw.tags.map(cleanTag))].map(own) : [],
    scope,
    path: file,
  };
  if (raw.rationale !== undefined) value.rationale = own(raw.rationale);
  if (raw.overrides !== undefined) value.overrides = own(raw.overrides);
  if (raw.locked === true) value.locked = true;
  if (raw.guard !== undefined) {
    const guard: Guard = {};
    for (const kind of GUARD_KINDS) if (raw.guard[kind] !== undefined) guard[kind] = raw.guard[kind].map(own);
    value.guard = guard;
  }
  if (raw.created_at !== undefined) value.created_at = own(raw.created_at);
  if (raw.created_by !== undefined) value.created_by = own(raw.created_by);
  if (raw.source !== undefined) {
    // Every value of `source` is a string (the schema).
    value.source = Object.fromEntries(Object.entries(raw.source).map(([k, v]) => [k, own(v as string)])) as unknown as InvariantSource;
  }
  if (raw.imported_from !== undefined) {
    value.imported_from = { file: own(raw.imported_from.file), line: raw.imported_from.line };
    if (raw.imported_from.text_hash !== undefined) value.imported_from.text_hash = own(raw.imported_from.text_hash);
  }
  return { value, diagnostics: [] };
}

export function parsePlan(file: string, bytes: Uint8Array, id: string, syntax?: YamlSyntax): Parsed<Plan> {
  const parsed = parseYaml(file, bytes, syntax);
  if (!parsed.value) return { diagnostics: parsed.diagnostics };
  const y = parsed.value;
  const diagnostics = checkSchema(y, 'plan.schema.json');
  if (diagnostics.length > 0) return { diagnostics };
  const plan = y.data as Plan;
  if (plan.id !== id) {
    return {
      diagnostics: [
        diagAt(
          y,
          offsetOfKey(y, 'id'),
          'id-mismatch',
          `plan id ${plan.id} differs from its folder plans/${id}/`,
          'Correct the id in plan.yaml.',
        ),
      ],
    };
  }
  const unsafe = plainTextDiagnostics(y, 'plan.schema.json');
  if (unsafe.length > 0) return { diagnostics: unsafe };
  return { value: plan, diagnostics: [] };
}

export function parseConfig(file: string, bytes: Uint8Array, syntax?: YamlSyntax): Parsed<StoreConfig> {
  const parsed = parseYaml(file, bytes, syntax);
  if (!parsed.value) {
    // An empty config file means the defaults.
    if (parsed.diagnostics.every((d) => d.code === 'file-empty')) return { value: structuredClone(DEFAULT_CONFIG), diagnostics: [] };
    return { diagnostics: parsed.diagnostics };
  }
  const secret = secretLines(parsed.value);
  // A value that breaks api_key_env's pattern is most often the key itself (sk-…), and so is one under a key of its
  // own (api_key: sk-…, refused as unknown): their lines are not shown.
  const diagnostics = checkSchema(parsed.value, 'config.schema.json').map((d) => (secret.has(d.line) ? withoutLine(d) : d));
  if (diagnostics.length === 0) diagnostics.push(...plainTextDiagnostics(parsed.value, 'config.schema.json'));
  if (diagnostics.length > 0) return { diagnostics };
  const raw = parsed.value.data as Partial<StoreConfig> & {
    reconciliation?: Partial<StoreConfig['reconciliation']>;
    projects?: Partial<StoreConfig['projects']>;
    export?: Partial<StoreConfig['export']>;
    mcp?: Partial<StoreConfig['mcp']>;
    guard?: Partial<StoreConfig['guard']>;
    extends?: { name?: string; url: string; ref: string; path?: string }[];
  };
  const y = parsed.value;
  const badUrl = baseUrlProblem(raw.reconciliation?.base_url);
  if (badUrl) {
    const at = offsetAt(y, ['reconciliation', 'base_url']);
    return { diagnostics: [diagAt(y, at, 'schema', `reconciliation.base_url ${badUrl.message}`, badUrl.hint)] };
  }
  if (raw.reconciliation?.api_key_env !== undefined && looksLikeKey(raw.reconciliation.api_key_env)) {
    const at = offsetAt(y, ['reconciliation', 'api_key_env']);
    const message = 'reconciliation.api_key_env holds what looks like an API key, not the NAME of the variable that holds one';
    const hint = "Write the variable's name (e.g. OPENAI_API_KEY) and export the key in it; if the file was committed, revoke the key.";
    return { diagnostics: [withoutLine(diagAt(y, at, 'schema', message, hint))] };
  }
  const inherited = sourcesFromConfig(file, raw.extends ?? [], (d, i, key) =>
    diagAt(y, offsetAt(y, ['extends', String(i), key]), d.code, d.message, d.hint!),
  );
  if (inherited.diagnostics.length > 0) return { diagnostics: inherited.diagnostics };
  const config: StoreConfig = {
    version: 1,
    reconciliation: { ...DEFAULT_CONFIG.reconciliation, ...raw.reconciliation },
    commit: raw.commit ?? DEFAULT_CONFIG.commit,
    projects: { ...DEFAULT_CONFIG.projects, ...raw.projects },
    export: { ...DEFAULT_CONFIG.export, ...raw.export },
    mcp: { ...DEFAULT_CONFIG.mcp, ...raw.mcp },
    extends: inherited.sources.map((source, i) => Object.assign(source, { at: sourcePlaces(y, i) })),
    guard: { ...DEFAULT_CONFIG.guard, ...raw.guard },
  };
  // Kept with the config it is found in: only the run of that actor stops on it (ADR 0702).
  const missing = actorNeeds(config.reconciliation, config.reconciliation.actor);
  if (missing.length === 0) return { value: config, diagnostics: [] };
  const actor = config.reconciliation.actor;
  const needs = missing.map((key) => `reconciliation.${key}`).join(' and ');
  const message = `reconciliation.actor is ${actor}, which needs ${needs}`;
  const hint = `Add ${actorNeedsExample(missing)} under reconciliation (${docsRef('actors.md')}), or choose another actor.`;
  return { value: config, diagnostics: [diagAt(y, offsetAt(y, ['reconciliation', 'actor']), 'actor-incomplete', message, hint)] };
}

/** Where config.yaml holds `extends[i]` and its keys: the errors about a source raised after the parse (a source not pinned) name it. */
function sourcePlaces(y: YamlFile, i: number): SourcePlaces {
  const at = (key?: string) => y.lines.linePos(offsetAt(y, key === undefined ? ['extends', String(i)] : ['extends', String(i), key]));
  return { file: y.file, entry: at(), url: at('url'), ref: at('ref'), path: at('path') };
}

/**
 * The lines of config.yaml that may hold a key: api_key_env's, and those of the top level and of `reconciliation`
 * whose key is named as a secret's (api_key, token, password) or whose text reads as a generated key.
 */
function secretLines(y: YamlFile): Set<number> {
  const lines = new Set<number>();
  const scan = (map: unknown, path: string[]) => {
    if (map === null || typeof map !== 'object' || Array.isArray(map)) return;
    for (const [key, value] of Object.entries(map)) {
      const named = /(^|_)(api_?key|key|token|secret|passw(or)?d|credentials?)(_|$)/i.test(key);
      if (value !== undefined && (named || (typeof value === 'string' && looksLikeKey(value))))
        lines.add(y.lines.linePos(offsetAt(y, [...path, key])).line);
    }
  };
  scan(y.data, []);
  scan((y.data as { reconciliation?: unknown } | null)?.reconciliation, ['reconciliation']);
  return lines;
}

/** A diagnostic without its excerpt of the source line: the line holds a secret that no report or CI log may show. */
function withoutLine(d: Diagnostic): Diagnostic {
  const { lineText: _, lineTextFrom: __, ...rest } = d;
  return rest;
}
