/**
 * Guards (docs/guard.md): which invariants an agent's action breaks, and what
 * to answer. Pure. The service builds a {@link GuardIndex} from the store (the
 * effective set of each project, of "no project", and of the active plan,
 * with their waivers), keeps it outside the committed store, and hands this
 * module one {@link GuardAction} at a time.
 */
import { globHoldsFolder, globMayMatchBelow, literalFolder } from './globs.ts';
import { GuardMatchers, requiredLiteral } from './guard-matchers.ts';
import { loosely } from './names.ts';
import type { ReservedWrite } from './guard-reserved.ts';
import { describeScope, type Guard, type GuardKind, type ScopedInvariant, type Severity, type Target } from './model.ts';
import { resolveEffective, type EffectiveEntry } from './resolve.ts';
import { waiverExpiry, waiverHolds, waiverReaches, type ScopedWaiver } from './waivers.ts';

/** One invariant with a guard, as the index keeps it. */
export interface GuardRule {
  id: string;
  text: string;
  severity: Severity;
  /** `global`, `project myapp`, `inherited corp`, `plan 01J…`. */
  scope: string;
  path: string;
  guard: Guard;
  /** A floor a policy source set (docs/extends.md): no waiver lets it through. */
  locked?: true;
}

/** The rules of one context (a project, or "" for files of no project) and until when each waived one is waived. */
export interface GuardContext {
  rules: number[];
  /** Rule index → the instant (ms) the latest waiver holding for it ends. */
  waived: Record<string, number>;
}

/** Everything the hook needs, built when the store changes (service/guard-service.ts). */
export interface GuardIndex {
  /** The active plan the contexts were resolved for, or null. */
  plan: string | null;
  /** The project the active plan targets, when it targets one: which invariants a waiver of the plan can reach. */
  planProject?: string;
  rules: GuardRule[];
  /** By project name; "" holds the rules for files and folders of no project. */
  contexts: Record<string, GuardContext>;
  /** Each project's path globs (project.yaml). */
  projects: Record<string, string[]>;
  /**
   * The projects by the first segment of their globs' literal folders ("" for
   * a glob that starts with a wildcard): a path is tested only against the
   * projects under its own first segment, not all of them.
   */
  heads: Record<string, string[]>;
  /** config.yaml's `guard.on_error`: what the hook answers when it cannot decide. */
  onError: 'deny' | 'allow';
  /**
   * git compares paths without case in this repository (`core.ignorecase`,
   * which git sets on a case-insensitive file system): so do the globs, or
   * `SECRETS/key.pem` would write into `secrets/` past `secrets/**`.
   */
  caseless?: true;
}

/** One thing an agent is about to do, its paths already made repository-relative by the caller. */
export interface GuardAction {
  /** The tool's name as the client gives it (`Write`, `Bash`, `apply_patch`, `mcp__db__drop_table`). */
  tool: string;
  /** The name as the client spelt it, when `tool` is another spelling: a `tool` guard written with it holds too. */
  clientTool?: string;
  /** Files it creates, changes or deletes, relative to the repository's top; paths outside the repository are left out. */
  files: string[];
  /** Text it writes (a file's new content, an edit's new string, the lines a patch adds). */
  texts: string[];
  /** The shell command it runs, when it runs one. */
  command?: string;
  /** The folder it runs in, relative to the repository's top ("" the top); undefined outside the repository. */
  cwd?: string;
  /** The folder it runs in when under the repository's top in another case only: as {@link caselessFiles} are. */
  caselessCwd?: string;
  /**
   * The other folders its command may run in, as `cwd` (a `cd` in it, a folder named from the home folder, `~/x`, and
   * as named): each one's projects' guards judge it too.
   */
  cwds?: string[];
  /** Those of {@link cwds} under the repository's top in another case only, as {@link caselessCwd}. */
  caselessCwds?: string[];
  /**
   * Files named under the repository's top in another case only (`/Repo/x` for the top `/repo`): the repository's
   * own where git ignores case ({@link GuardIndex.caseless}), and judged as its files there; left out elsewhere.
   */
  caselessFiles?: string[];
  /** Files it would write in a folder no agent's file tool may write (git's, the store's): denied whatever the guards say. */
  reserved?: ReservedWrite[];
  /**
   * Folders it writes files of names it does not tell into, relative to the top ("" the top): an archive the hook
   * cannot read, extracted there. Every `write` glob that may match a file below one meets it.
   */
  folders?: string[];
}

/** One guard entry an action breaks. */
export interface GuardHit {
  rule: GuardRule;
  kind: GuardKind;
  /** The entry: the glob, the pattern, the tool name. */
  entry: string;
  /** What matched it: the path, the command, the tool; for content, the file (or "the text"). */
  subject: string;
  /** Whether a waiver lets this one through (never for a locked rule). */
  waived: boolean;
  /** The project whose guards it was judged by (its file's or its folder's); absent for no project. */
  project?: string;
  /** The subject is a folder the action writes files of unknown names into ({@link GuardAction.folders}). */
  below?: true;
}

export type GuardDecision = 'deny' | 'ask' | 'allow' | 'none';

export interface GuardVerdict {
  /** deny for an error, ask for a warning, allow for info only; none when no guard matched. */
  decision: GuardDecision;
  /** Every entry broken, strictest first; waived ones last. */
  hits: GuardHit[];
  /** The hit that decided (the first unwaived one), when any did. */
  decisive?: GuardHit;
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/**
 * The guards of one target's effective set: the kept copy's guard, joined by
 * the guard of every locked inherited copy it hides, so a repository copy
 * without the guard cannot drop a floor (docs/extends.md, "Floors").
 */
function guardsOf(entry: EffectiveEntry, byPath: ReadonlyMap<string, ScopedInvariant>): { guard: Guard; locked: boolean } | undefined {
  const guard: Guard = {};
  let locked = entry.invariant.locked === true && entry.invariant.scope.kind === 'inherited';
  const add = (g: Guard | undefined) => {
    if (!g) return;
    for (const kind of ['write', 'command', 'content', 'tool'] as const) {
      const list = g[kind];
      if (!list) continue;
      const into = (guard[kind] ??= []);
      for (const e of list) if (!into.includes(e)) into.push(e);
    }
  };
  add(entry.invariant.guard);
  for (const ref of entry.shadows) {
    const inv = byPath.get(ref.path);
    if (inv?.locked && inv.scope.kind === 'inherited' && inv.guard) {
      add(inv.guard);
      locked = true;
    }
  }
  return Object.keys(guard).length > 0 ? { guard, locked } : undefined;
}

/**
 * The index of a store: for each project and for "no project", the guarded
 * invariants of its effective set (or of the active plan's, for that
 * project), with the waivers that cover them. Pure: `now` only drops waivers
 * that already ended; the hook compares the kept end instants with its own clock.
 */
export function buildGuardIndex(input: {
  invariants: readonly ScopedInvariant[];
  projects: ReadonlyMap<string, { paths?: string[] }>;
  waivers: readonly ScopedWaiver[];
  /** The active plan, with the project it targets. */
  plan?: { id: string; project?: string } | undefined;
  now: Date;
  onError?: 'deny' | 'allow';
  caseless?: boolean;
}): GuardIndex {
  const rules: GuardRule[] = [];
  const ruleOf = new Map<string, number>();
  const byPath = new Map(input.invariants.map((i) => [i.path, i]));
  const contexts: Record<string, GuardContext> = {};
  const names = ['', ...[...input.projects.keys()].sort()];
  for (const project of names) {
    // A plan target with the file's project: the plan's own invariants, that project's and the global ones.
    // With no plan, the plan id "" matches no plan scope, so this is the project's (or no project's) set.
    const target: Target = { kind: 'plan', plan: input.plan?.id ?? '', ...(project !== '' ? { project } : {}) };
    const ctx: GuardContext = { rules: [], waived: {} };
    for (const entry of resolveEffective(target, input.invariants)) {
      const g = guardsOf(entry, byPath);
      if (!g) continue;
      const inv = entry.invariant;
      let index = ruleOf.get(inv.path);
      if (index === undefined) {
        index = rules.length;
        const rule: GuardRule = {
          id: inv.id,
          text: inv.text,
          severity: inv.severity,
          scope: describeScope(inv.scope),
          path: inv.path,
          guard: g.guard,
        };
        if (g.locked) rule.locked = true;
        rules.push(rule);
        ruleOf.set(inv.path, index);
      }
      ctx.rules.push(index);
      if (g.locked) continue;
      let until = 0;
      for (const w of input.waivers) {
        if (w.invariant_id !== inv.id || !waiverHolds(w, input.now)) continue;
        const covers =
          (w.scope.kind === 'plan' ? w.scope.plan === input.plan?.id : w.scope.project === project) &&
          waiverReaches(w, inv.scope, input.plan?.project);
        if (covers) until = Math.max(until, waiverExpiry(w.expires));
      }
      if (until > 0) ctx.waived[String(index)] = until;
    }
    if (ctx.rules.length > 0 || project === '') contexts[project] = ctx;
  }
  const projects: Record<string, string[]> = {};
  // A Map, not an object: a folder named `constructor` or `__proto__` is a head like any other, not Object's.
  const heads = new Map<string, string[]>();
  for (const [name, meta] of input.projects) {
    if (!meta.paths || meta.paths.length === 0) continue;
    projects[name] = [...meta.paths];
    for (const g of meta.paths) {
      const head = literalFolder(g).split('/')[0]!;
      const key = input.caseless ? loosely(head) : head;
      const list = heads.get(key) ?? [];
      heads.set(key, list);
      if (!list.includes(name)) list.push(name);
    }
  }
  const index: GuardIndex = {
    plan: input.plan?.id ?? null,
    rules,
    contexts,
    projects,
    heads: Object.fromEntries(heads),
    onError: input.onError ?? 'deny',
  };
  if (input.caseless) index.caseless = true;
  if (input.plan?.project !== undefined) index.planProject = input.plan.project;
  return index;
}

/**
 * A path (or glob) as the index compares it: where git ignores case, {@link loosely}, as such a file system takes it:
 * in lower case as its case table folds it (`ſ` is `s` on NTFS and APFS, which lower-casing alone missed), composed
 * (macOS takes `cafe` and U+0301 for `café`), and without what Windows and HFS+ leave out of a name (a trailing dot).
 */
function folded(index: GuardIndex, path: string): string {
  return index.caseless ? loosely(path) : path;
}

/**
 * A record's own entry: the index's keys are folder and project names (`constructor`, `__proto__`), which must never
 * find what Object keeps under that name.
 */
export function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The keys of `index.heads` a path (as the index compares it) is looked up under: its first segment's, and "". */
function headKeysOf(path: string): string[] {
  const first = path.split('/')[0]!;
  return first === '' ? [''] : [first, ''];
}

/** The keys of `index.heads` judging `action` looks up: its files' and its folder's. */
export function actionHeads(index: GuardIndex, action: GuardAction): string[] {
  const out = new Set<string>();
  // Files below the top may be any project's.
  for (const folder of action.folders ?? [])
    for (const k of folder === '' ? Object.keys(index.heads) : headKeysOf(folded(index, folder))) out.add(k);
  for (const f of filesOf(index, action)) for (const k of headKeysOf(folded(index, f))) out.add(k);
  for (const cwd of cwdsOf(index, action)) for (const k of headKeysOf(folded(index, cwd))) out.add(k);
  return [...out];
}

/** The projects whose paths hold a file (by glob) or a folder (globHoldsFolder); none: [""]. */
function contextsOf(index: GuardIndex, named: string, folder: boolean, m: GuardMatchers): string[] {
  const out: string[] = [];
  const path = folded(index, named);
  const candidates = headKeysOf(path).flatMap((k) => own(index.heads, k) ?? []);
  for (const name of candidates) {
    const globs = own(index.projects, name) ?? [];
    if (globs.some((g) => (folder ? globHoldsFolder(folded(index, g), path) : m.glob(folded(index, g))(path))) && !out.includes(name))
      out.push(name);
  }
  return out.length > 0 ? out.sort() : [''];
}

/** The projects that may hold a file below `folder` ("" the top), and no project's rules (""), which may too. */
function belowContexts(index: GuardIndex, folder: string): string[] {
  const path = folded(index, folder);
  const candidates = path === '' ? Object.keys(index.projects) : headKeysOf(path).flatMap((k) => own(index.heads, k) ?? []);
  const out = new Set(['']);
  for (const name of candidates)
    if ((own(index.projects, name) ?? []).some((g) => globMayMatchBelow(folded(index, g), path))) out.add(name);
  return [...out].sort();
}

/** The files an action writes, as `index` sees them: with those named in another case, where git ignores case. */
function filesOf(index: GuardIndex, action: GuardAction): readonly string[] {
  return index.caseless && action.caselessFiles ? [...action.files, ...action.caselessFiles] : action.files;
}

/** The folders an action runs in inside the repository, as `index` sees them: those named in another case too, where git ignores case. */
function cwdsOf(index: GuardIndex, action: GuardAction): string[] {
  const out = action.cwd !== undefined ? [action.cwd] : [];
  if (action.cwds) out.push(...action.cwds);
  if (index.caseless) {
    if (action.caselessCwd !== undefined) out.push(action.caselessCwd);
    if (action.caselessCwds) out.push(...action.caselessCwds);
  }
  return out;
}

/** The contexts whose command, tool and content guards judge what an action runs: its folders' projects, else no project's. */
function hereOf(index: GuardIndex, action: GuardAction, m: GuardMatchers): string[] {
  const cwds = cwdsOf(index, action);
  if (cwds.length === 0) return [''];
  const out = new Set<string>();
  for (const cwd of cwds) for (const c of contextsOf(index, cwd, true, m)) out.add(c);
  return [...out].sort();
}

/** The projects an action touches: those holding its files, and those holding its folder. */
export function actionProjects(index: GuardIndex, action: GuardAction, m = new GuardMatchers()): string[] {
  const out = new Set<string>();
  for (const f of filesOf(index, action)) for (const p of contextsOf(index, f, false, m)) out.add(p);
  for (const p of hereOf(index, action, m)) out.add(p);
  for (const folder of action.folders ?? []) for (const p of belowContexts(index, folder)) out.add(p);
  out.delete('');
  return [...out].sort();
}

/** Whether `pattern` may match `text`: false only when the text lacks the pattern's required literal. */
function mayMatch(pattern: string, text: string): boolean {
  const literal = requiredLiteral(pattern);
  return literal === '' || text.includes(literal);
}

/** Whether judging `action` runs any command or content pattern: the hook loads the engine only then. */
export function patternsNeeded(index: GuardIndex, action: GuardAction, m = new GuardMatchers()): boolean {
  const rulesOf = (context: string) => (own(index.contexts, context)?.rules ?? []).map((i) => index.rules[i]!);
  const content = (r: GuardRule) => r.guard.content?.some((p) => action.texts.some((t) => mayMatch(p, t))) ?? false;
  const files = filesOf(index, action);
  if (action.texts.length > 0) {
    for (const file of files) for (const c of contextsOf(index, file, false, m)) if (rulesOf(c).some(content)) return true;
  }
  const here = hereOf(index, action, m);
  for (const c of here) {
    for (const r of rulesOf(c)) {
      if (action.command !== undefined && r.guard.command?.some((p) => mayMatch(p, action.command!))) return true;
      if (files.length === 0 && content(r)) return true;
    }
  }
  return false;
}

/**
 * Which guards an action breaks, and the answer: the strictest unwaived
 * severity decides (error: deny, warning: ask, info: allow); no hit at all is
 * `none`, which the hook answers with silence.
 */
export function evaluateGuards(index: GuardIndex, action: GuardAction, now: Date, matchers = new GuardMatchers()): GuardVerdict {
  const hits: GuardHit[] = [];
  const seen = new Set<string>();
  const t = now.getTime();
  const visit = (context: string, test: (rule: GuardRule) => { kind: GuardKind; entry: string; subject: string; below?: true }[]) => {
    // A project with no context has no guard that applies to it (not even a global one: a copy of its own hides it).
    const ctx = own(index.contexts, context);
    if (!ctx) return;
    for (const i of ctx.rules) {
      const rule = index.rules[i]!;
      const until = ctx.waived[String(i)];
      for (const h of test(rule)) {
        const key = `${i}\u0000${h.kind}\u0000${h.entry}\u0000${h.subject}`;
        if (seen.has(key)) continue;
        seen.add(key);
        hits.push({ rule, ...h, waived: until !== undefined && t < until, ...(context !== '' ? { project: context } : {}) });
      }
    }
  };
  const files = filesOf(index, action);
  for (const file of files) {
    for (const context of contextsOf(index, file, false, matchers)) {
      visit(context, (rule) => {
        const out: { kind: GuardKind; entry: string; subject: string }[] = [];
        for (const g of rule.guard.write ?? [])
          if (matchers.glob(folded(index, g))(folded(index, file))) out.push({ kind: 'write', entry: g, subject: file });
        for (const p of rule.guard.content ?? [])
          if (action.texts.some((text) => matchers.regex(p)(text))) out.push({ kind: 'content', entry: p, subject: file });
        return out;
      });
    }
  }
  for (const folder of action.folders ?? []) {
    const subject = folder === '' ? './' : `${folder}/`;
    for (const context of belowContexts(index, folder))
      visit(context, (rule) =>
        (rule.guard.write ?? [])
          .filter((g) => globMayMatchBelow(folded(index, g), folded(index, folder)))
          .map((g) => ({ kind: 'write' as const, entry: g, subject, below: true as const })),
      );
  }
  const here = hereOf(index, action, matchers);
  for (const context of here) {
    visit(context, (rule) => {
      const out: { kind: GuardKind; entry: string; subject: string }[] = [];
      if (action.command !== undefined)
        for (const p of rule.guard.command ?? [])
          if (matchers.regex(p)(action.command)) out.push({ kind: 'command', entry: p, subject: action.command });
      for (const name of rule.guard.tool ?? [])
        if (name === action.tool || name === action.clientTool) out.push({ kind: 'tool', entry: name, subject: action.tool });
      // Text with no file inside the repository (a path outside it, a tool's argument) still meets the content guards here.
      if (files.length === 0)
        for (const p of rule.guard.content ?? [])
          if (action.texts.some((text) => matchers.regex(p)(text))) out.push({ kind: 'content', entry: p, subject: 'the text' });
      return out;
    });
  }
  hits.sort((a, b) => Number(a.waived) - Number(b.waived) || RANK[a.rule.severity] - RANK[b.rule.severity]);
  const decisive = hits.find((h) => !h.waived);
  const decision: GuardDecision = !decisive
    ? 'none'
    : decisive.rule.severity === 'error'
      ? 'deny'
      : decisive.rule.severity === 'warning'
        ? 'ask'
        : 'allow';
  return decisive ? { decision, hits, decisive } : { decision, hits };
}
