import type { Diagnostic, Parsed } from './diagnostics.ts';
import type { Guard, Invariant, InvariantSource, Plan, Scope, ScopedInvariant, Severity, StoreConfig } from './model.ts';
import { DEFAULT_CONFIG, GUARD_KINDS } from './model.ts';
import { diagAt, nodeAt, offsetAt, parseYaml, fullParser, YamlSyntaxNotLoaded, type YamlFile, type YamlSyntax } from './yaml-file.ts';
import { findUnsafeText, unsafeTextMessage } from './plain-text.ts';
import { cleanTag, cleanText } from './normalise.ts';
import { yaml11Reads } from './yaml11.ts';
import { errorPath, keyPlaces, pointerKey, SCHEMAS, validatorFor, valueAt, type SchemaError, type SchemaName } from './schemas.ts';
import { closestNames, hintWithGuess } from './closest.ts';
import { boundWords, patternWords } from './schema-words.ts';
import { sourceKeyProblem, sourcesFromConfig } from './extends-config.ts';
import { guardProblemsWith, type RegexProblem } from './guard-entries.ts';
import { actorNeeds, actorNeedsExample, baseUrlProblem, looksLikeKey } from './actor-choice.ts';
import { docsRef } from './docs-link.ts';

export { MAX_ALIAS_COUNT, MAX_FILE_BYTES, MAX_TEXT_LENGTH } from './limits.ts';

export type { Parsed } from './diagnostics.ts';
export * from './yaml-file.ts';

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

/** Schema errors of a parsed file, each pointing at the offending key or value. */
export function checkSchema(y: YamlFile, schema: SchemaName): Diagnostic[] {
  const validate = validatorFor(schema);
  if (validate(y.data)) return [];
  // A validator that answers false has set its errors.
  // One error per value: a value that breaks two rules (`model: ""`, empty and off its pattern) is one mistake, said once.
  // A mapping's missing and unknown keys are each a mistake of their own.
  const values = new Set<string>();
  const errors = validate.errors!.filter((e) => {
    if (e.keyword === 'if') return false;
    if (e.keyword === 'required' || e.keyword === 'additionalProperties') return true;
    if (values.has(e.instancePath)) return false;
    values.add(e.instancePath);
    return true;
  });
  return errors.map((e) => schemaDiagnostic(y, e, schema));
}

function schemaDiagnostic(y: YamlFile, e: SchemaError, schema: SchemaName): Diagnostic {
  const path = errorPath(e);
  const node = nodeAt(y, path);
  const where = path.length ? path.join('.') : 'document';
  let offset = node?.range?.[0] ?? 0;
  let message: string;
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const keyNode = fullParser(y.syntax).keyNodeOf(node, key);
      if (keyNode?.range) offset = keyNode.range[0];
      const inWhere = path.length ? ` in ${where}` : '';
      // A null key (a line that starts ": ", or `~:`) is the empty string in the data: say what it is.
      if (key === '')
        return diagAt(
          y,
          offset,
          'schema',
          `a key is missing${inWhere} (a null key: ": value" or "~: value")`,
          'Write the key before the colon, or remove the line.',
        );
      // YAML 1.1's merge key reads as a key of its own in YAML 1.2: the keys it was meant to bring in are not there.
      if (key === '<<')
        return diagAt(
          y,
          offset,
          'schema',
          `merge key "<<"${inWhere}: store files are YAML 1.2, which has no merge keys, so the keys it names are not read`,
          'Write the keys out in place of "<<: *alias".',
        );
      message = `unknown key "${key}"${inWhere}`;
      const guesses = closestNames(key, allowedKeys(schema, e.schemaPath));
      // Spelt right but written at another level (`allow_overlap:` at the top, not under `projects:`): said where it goes.
      const here = path
        .map((p) => (/^\d+$/.test(p) ? '[]' : `.${p}`))
        .join('')
        .replace(/^\./, '');
      const places = guesses.length > 0 ? [] : keyPlaces(schema, key).filter((p) => p !== here);
      if (places.length > 0)
        return diagAt(
          y,
          offset,
          'schema',
          message,
          `"${key}" belongs ${places.map(placeWords).join(' or ')}, not ${placeWords(here)}: move it there.`,
        );
      return diagAt(
        y,
        offset,
        'schema',
        message,
        hintWithGuess(guesses, `Remove "${key}" or fix its spelling; ${schema} lists the allowed keys.`),
      );
    }
    case 'required':
      message = `missing required key "${String(params.missingProperty)}"${path.length ? ` in ${where}` : ''}`;
      // An invariant written by hand without an id: --fix gives it one (docs/validation.md), which no hand need do.
      if (schema === 'invariant.schema.json' && path.length === 0 && params.missingProperty === 'id')
        return diagAt(y, offset, 'schema', message, 'Run `agents validate --fix` to give it an id and name the file after it.');
      break;
    case 'enum':
      message = `${where} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
      break;
    case 'type': {
      message = `${where} must be of type ${String(params.type)}`;
      const value = valueAt(y.data, path);
      const written = node && y.source.slice(node.range![0], node.range![1]);
      // `"false"` where a boolean goes: the quotes make it text in every YAML, whatever it spells.
      if (typeof value === 'string' && params.type !== 'string' && isQuoted(node) && yaml11Reads(value))
        return diagAt(
          y,
          offset,
          'schema',
          `${message}: ${written} is quoted, so it is a string`,
          params.type === 'boolean' ? 'Write true or false without quotes.' : 'Write the number without quotes.',
        );
      // `no`, `on` or `1_000` where a boolean or number goes: YAML 1.1 read them so, YAML 1.2 (the store's) reads text.
      if (typeof value === 'string' && params.type !== 'string' && yaml11Reads(value))
        return diagAt(
          y,
          offset,
          'schema',
          `${message}: ${JSON.stringify(value)} is a string in YAML 1.2, which store files are written in`,
          params.type === 'boolean' ? 'Write true or false.' : 'Write the number in digits alone (no underscores, no leading zero).',
        );
      // `1e3`, `yes`-like `true`, `~` or `0x10` where text goes: YAML 1.2 reads the plain scalar as another type.
      if (params.type === 'string' && (value === null || typeof value === 'number' || typeof value === 'boolean') && isPlain(node)) {
        const read = value === null ? 'null' : `a ${typeof value}`;
        if (!written) return diagAt(y, offset, 'schema', `${message}: the value is missing`, 'Write the value, or remove the line.');
        return diagAt(
          y,
          offset,
          'schema',
          `${message}: ${written} is ${read} in YAML 1.2`,
          `Quote it (${JSON.stringify(written)}) to write it as text.`,
        );
      }
      // `guard:` or `active:` with nothing after it, as `text:` above: the key written, its value not yet.
      if (value === null && !written && isPlain(node))
        return diagAt(y, offset, 'schema', `${message}: the value is missing`, 'Write the value, or remove the line.');
      // `paths: src/**` where a list goes: one value, which a list of one holds.
      if (params.type === 'array' && value !== null && typeof value !== 'object' && written)
        return diagAt(
          y,
          offset,
          'schema',
          `${message}: ${written} is one value, not a list`,
          `Write it as a list: [${written}], or one "- item" line per item.`,
        );
      break;
    }
    case 'uniqueItems': {
      // ajv's words ("must NOT have duplicate items (items ## 1 and 0 are identical)") name no value; placed at the later copy.
      // Which of ajv's `i` and `j` is the later copy depends on the items' schema (a map walk or a pairwise walk), so order them here.
      const earlier = Math.min(Number(params.i), Number(params.j));
      const later = Math.max(Number(params.i), Number(params.j));
      const item = (valueAt(y.data, path) as unknown[] | undefined)?.[later];
      const lineOf = (index: number) => {
        const node = nodeAt(y, [...path, String(index)]);
        return node?.range ? y.lines.linePos(node.range[0]).line : undefined;
      };
      const copy = nodeAt(y, [...path, String(later)]);
      if (copy?.range) offset = copy.range[0];
      const [first, second] = [lineOf(earlier), lineOf(later)];
      const lines = first !== undefined && second !== undefined && first !== second ? `, lines ${first} and ${second}` : '';
      message = `${where} holds ${JSON.stringify(item)} twice (items ${earlier} and ${later}${lines})`;
      return diagAt(y, offset, 'schema', message, `Remove one of the two; each of ${where} is listed once.`);
    }
    case 'const':
      // The validator's own words ("must be equal to constant") do not say which value.
      message = `${where} must be ${JSON.stringify(params.allowedValue)}, not ${JSON.stringify(valueAt(y.data, path))}`;
      break;
    case 'pattern':
      if (path.length === 1 && path[0] === 'id') {
        return diagAt(
          y,
          offset,
          'id-invalid',
          `id ${JSON.stringify(y.data && (y.data as { id?: unknown }).id)} is not a ULID (26 characters of Crockford base32, upper case)`,
          'Ids are made by the CLI; copy a valid one or run `agents invariant add`.',
        );
      }
      // The rule in words where the regular expression is one a hand edit meets (a ULID, a tag, a date).
      message =
        patternWords(String(params.pattern), `${where} ${JSON.stringify(valueAt(y.data, path))}`) ??
        `${where} has an invalid format (must match ${String(params.pattern)})`;
      // A key of a policy source: the rule in words, not the schema's regular expression.
      if (schema === 'config.schema.json' && path.length === 3 && path[0] === 'extends') {
        const words = sourceKeyProblem(path[2]!, valueAt(y.data, path), where);
        if (words) return diagAt(y, offset, 'schema', words.message, words.hint);
      }
      break;
    case 'format':
      message = `${where} must be a ${String(params.format)} (RFC 3339, e.g. 2026-11-29T12:00:00Z)`;
      break;
    case 'not':
      // The validator's own words ("must NOT be valid") say nothing of the value: name the value refused.
      message = `${where} cannot be ${JSON.stringify(valueAt(y.data, path))}`;
      break;
    default:
      message =
        boundWords(e.keyword, Number(params.limit), valueAt(y.data, path), where, allowedKeys(schema, e.schemaPath)) ??
        `${where} ${e.message ?? 'is invalid'}`;
  }
  return diagAt(y, offset, 'schema', message, `Correct the value; ${schema} (in schemas/) describes every key.`);
}

/** Whether a node is a quoted scalar (`"no"`, `'1'`): text in every YAML, whatever it spells. */
function isQuoted(node: unknown): boolean {
  const type = (node as { type?: unknown } | undefined)?.type;
  return type === 'QUOTE_DOUBLE' || type === 'QUOTE_SINGLE';
}

/** Whether a node is a plain scalar (`1e3`, `~`, or nothing after the colon), whose type YAML 1.2 infers from its spelling. */
function isPlain(node: unknown): boolean {
  return node === undefined || (node as { type?: unknown }).type === 'PLAIN';
}

/** Where a mapping of `keyPlaces` is, in words: `at the top level`, `under projects`, `in an entry of extends`. */
function placeWords(place: string): string {
  if (place === '') return 'at the top level';
  return place.endsWith('[]') ? `in an entry of ${place.slice(0, -2)}` : `under ${place}`;
}

/**
 * The keys the schema allows where `schemaPath` (an additionalProperties error's, `#/properties/source/additionalProperties`)
 * points: the candidates for a misspelt key. None when the pointer leads nowhere in the schema.
 */
function allowedKeys(schema: SchemaName, schemaPath: string): string[] {
  let at: unknown = SCHEMAS[schema];
  for (const segment of schemaPath.split('/').slice(1, -1)) at = (at as Record<string, unknown> | undefined)?.[pointerKey(segment)];
  const properties = (at as { properties?: unknown } | undefined)?.properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
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
        offsetOfKey(y, 'source'),
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
  if (raw.imported_from !== undefined) value.imported_from = { file: own(raw.imported_from.file), line: raw.imported_from.line };
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
    extends: inherited.sources,
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

/** The line of `reconciliation.api_key_env`'s value, when the file has one. */
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
