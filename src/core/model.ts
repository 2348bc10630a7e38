/**
 * Scope kinds, highest precedence first. INHERITED is the `global/` of a policy
 * source the store `extends` (docs/extends.md), below the store's own scopes.
 * ACTION never applies directly.
 */
export const SCOPE_KINDS = ['plan', 'project', 'global', 'inherited', 'action'] as const;
export type ScopeKind = (typeof SCOPE_KINDS)[number];
/** Severities, strictest first: every schema, option and switch on a severity is derived from this list. */
export const SEVERITIES = ['error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Where an invariant lives. Derived from its path, never stored in the file. */
export type Scope =
  | { kind: 'global' }
  /** The `global/` of the policy source `source` (docs/extends.md); read from the cache, never from the store. */
  | { kind: 'inherited'; source: string /** The source's place in `extends`: of two sources, the first listed wins. */; order: number }
  | { kind: 'project'; project: string }
  /** `source`: the policy source whose template it is (`SOURCE:NS/NAME`, docs/extends.md); absent for the store's own. */
  | { kind: 'action'; ns: string; name: string; source?: string }
  | { kind: 'plan'; plan: string };

export interface InvariantSource {
  kind: 'plan' | 'action';
  ref?: string;
  origin_id?: string;
}

/** The content of one invariant file, defaults applied. */
export interface Invariant {
  id: string;
  text: string;
  severity: Severity;
  active: boolean;
  tags: string[];
  rationale?: string;
  /** The id of a lower-precedence copy with the same text that this one replaces on purpose (docs/store-format.md). */
  overrides?: string;
  /** On an inherited invariant: a repository copy may not weaken it (docs/extends.md, "Floors"). */
  locked?: boolean;
  /** What an agent may not do while this invariant applies (docs/guard.md). */
  guard?: Guard;
  created_at?: string;
  created_by?: string;
  source?: InvariantSource;
  /** Where `agents import` found it: an instruction file of the repository and the line (docs/import.md). */
  imported_from?: ImportedFrom;
}

export interface ImportedFrom {
  /** Repository-relative path of the instruction file. */
  file: string;
  /** 1-based line the rule starts on. */
  line: number;
  /**
   * importedTextHash of the text the file said, written by imports since it was recorded: a text whose hash is
   * another was edited in the store. Absent on an invariant imported before, whose text is taken to be the file's.
   */
  text_hash?: string;
}

/** An invariant's `guard:` (schemas/invariant.schema.json): each list is absent or holds at least one entry. */
export interface Guard {
  /** Globs (from the repository's top) of files an agent may not create, change or delete. */
  write?: string[];
  /** RE2 regular expressions a shell command may not match. */
  command?: string[];
  /** RE2 regular expressions the text an agent writes may not contain. */
  content?: string[];
  /** Tool names an agent may not call. */
  tool?: string[];
}

export type GuardKind = keyof Guard;
export const GUARD_KINDS: readonly GuardKind[] = ['write', 'command', 'content', 'tool'];

/** An invariant together with where it was read from. */
export interface ScopedInvariant extends Invariant {
  scope: Scope;
  /** Path relative to the store root, with forward slashes. */
  path: string;
}

export interface Plan {
  id: string;
  action?: string;
  project?: string;
  goal?: string;
  created_at?: string;
  created_by?: string;
}

export interface StoreConfig {
  version: 1;
  reconciliation: {
    actor: 'command' | 'interactive' | 'agent' | 'llm';
    command?: string[];
    timeout_ms: number;
  } & ModelActorConfig;
  commit: boolean;
  mcp: { allow_write: boolean };
  projects: { allow_overlap: boolean };
  export: ExportConfig;
  /** The policy sources this store inherits from (docs/extends.md). */
  extends: ExtendsSource[];
  /** The guard hook (docs/guard.md). */
  guard: { on_error: 'deny' | 'allow' };
}

/** The keys of `reconciliation` the agent and llm actors read (docs/actors.md); defaults in src/enforce/model-actor.ts. */
export interface ModelActorConfig {
  /** The agent CLI (`actor: agent`). */
  agent?: 'claude' | 'codex' | 'gemini';
  /** Where the agent CLI is, when not on PATH. */
  agent_path?: string;
  /** The endpoint's API (`actor: llm`). */
  provider?: 'openai' | 'anthropic';
  model?: string;
  base_url?: string;
  /** The name of the environment variable that holds the API key: never the key. */
  api_key_env?: string;
  batch_size?: number;
  max_request_chars?: number;
  max_output_tokens?: number;
  max_retries?: number;
}

/** One entry of `extends` in config.yaml, defaults applied (docs/extends.md). */
export interface ExtendsSource {
  /** The name invariants and actions of the source are known by; derived from the URL when absent. */
  name: string;
  /** A git URL or a path (relative paths are relative to the repository's top folder). */
  url: string;
  /** A tag, a branch or a commit id. */
  ref: string;
  /** The store folder inside the source repository. */
  path: string;
  /**
   * Where config.yaml holds the entry and its keys (line and column from 1; `path` is the entry's when it names
   * none), so that an error about the source names its place; absent for a source no config.yaml named.
   */
  at?: SourcePlaces;
}

/** The places of one `extends` entry in config.yaml (ExtendsSource.at). */
export interface SourcePlaces {
  file: string;
  entry: { line: number; col: number };
  url: { line: number; col: number };
  ref: { line: number; col: number };
  path: { line: number; col: number };
}

/** The agents' instruction files `agents export` writes (docs/export.md). */
export type ExportTargetName = 'agents-md' | 'claude-md' | 'gemini-md' | 'copilot' | 'cursor' | 'windsurf' | 'cline';
export const EXPORT_TARGETS: readonly ExportTargetName[] = [
  'agents-md',
  'claude-md',
  'gemini-md',
  'copilot',
  'cursor',
  'windsurf',
  'cline',
];

export interface ExportConfig {
  /** Absent: `agents export` needs --target. */
  targets?: ExportTargetName[];
  severities: Severity[];
  nested: boolean;
}

/** `projects/<name>/project.yaml` (schemas/project.schema.json). */
export interface ProjectMeta {
  description?: string;
  /** Globs relative to the repository top; absent when the project covers no files. */
  paths?: string[];
}

/**
 * `value` with every object and array in it frozen: a constant the library exports (TARGETS) is every caller's in the
 * process, so one caller's change would be the next one's.
 */
export function frozenDeep<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) frozenDeep(v);
    Object.freeze(value);
  }
  return value;
}

/** Frozen, nested parts too: shared by every caller, so a caller's change can never leak into the next read. */
export const DEFAULT_CONFIG: StoreConfig = Object.freeze({
  version: 1,
  reconciliation: Object.freeze({ actor: 'command', timeout_ms: 60_000 }),
  commit: false,
  projects: Object.freeze({ allow_overlap: false }),
  export: Object.freeze({ severities: Object.freeze([...SEVERITIES]) as Severity[], nested: true }),
  mcp: Object.freeze({ allow_write: false }),
  extends: Object.freeze([]) as unknown as ExtendsSource[],
  guard: Object.freeze({ on_error: 'deny' }),
}) as StoreConfig;

/** A project or a plan, whose effective set can be resolved. */
export type Target = { kind: 'project'; project: string } | { kind: 'plan'; plan: string; project?: string };

export function precedence(kind: ScopeKind): number {
  return SCOPE_KINDS.indexOf(kind);
}

/** `global`, `project myapp`, `action local/x`, `plan 01J…`. */
export function describeScope(scope: Scope): string {
  switch (scope.kind) {
    case 'global':
      return 'global';
    case 'inherited':
      return `inherited ${scope.source}`;
    case 'project':
      return `project ${scope.project}`;
    case 'action':
      return `action ${actionName(scope)}`;
    case 'plan':
      return `plan ${scope.plan}`;
  }
}

/** An action template's name as `plan use` takes it: NS/NAME, or SOURCE:NS/NAME for a policy source's. */
export function actionName(scope: { ns: string; name: string; source?: string }): string {
  return `${scope.source === undefined ? '' : `${scope.source}:`}${scope.ns}/${scope.name}`;
}

export function sameScope(a: Scope, b: Scope): boolean {
  return scopeFolder(a) === scopeFolder(b);
}

/** The store-relative folder of a scope. */
export function scopeFolder(scope: Scope): string {
  switch (scope.kind) {
    case 'global':
      return 'global';
    case 'inherited':
      return `${INHERITED_ROOT}/${scope.source}/global`;
    case 'project':
      return `projects/${scope.project}`;
    case 'action':
      return scope.source === undefined
        ? `actions/${scope.ns}/${scope.name}`
        : `${INHERITED_ROOT}/${scope.source}/actions/${scope.ns}/${scope.name}`;
    case 'plan':
      return `plans/${scope.plan}`;
  }
}

/** Store-relative path of an invariant's file. */
export function invariantPath(scope: Scope, id: string): string {
  return `${scopeFolder(scope)}/${id}.yaml`;
}

/**
 * The folder inherited invariants' paths start with: `extends/<source>/global/<id>.yaml`.
 * Such a path names the file inside the source's store (under the cache), never a file of this store.
 */
export const INHERITED_ROOT = 'extends';
