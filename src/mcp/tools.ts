import { conflictingOptions, missingOption, UsageError } from '../core/errors.ts';
import { requireValid } from '../service/invariant-service.ts';
import { loadConfig } from '../store/config.ts';
import { projectsOfPath, readProjects, repositoryTop } from '../store/projects.ts';
import { repoPathOf } from '../service/repo-path.ts';
import { namesFolder, projectsOfFolder } from '../service/folder-project.ts';
import { SEVERITIES, type Severity } from '../core/model.ts';
import { RELAXABLE, type RelaxableReason } from '../core/plan-gate.ts';
import { docsRef } from '../core/docs-link.ts';
import { warningLine } from '../core/diagnostics.ts';
import { EFFECTIVE_DATA_SCHEMA, effectiveData, effectiveMarkdown, type EffectiveData } from '../present/effective.ts';
import {
  emptyListText,
  INVARIANT_SCHEMA,
  invariantJson,
  LISTED_SCHEMA,
  listedJson,
  SHOW_RELATIONS_SCHEMA,
  showIncompleteText,
  showRelationsJson,
  showText,
} from '../present/invariant.ts';
import { PLAN_STATUS_SCHEMA, planStatusJson, planStatusText } from '../present/plan-status.ts';
import { listLines } from '../present/list.ts';
import { arrayOf, INTEGER, objectOf } from '../present/schema.ts';
import { recordedLine, VIOLATION_SCHEMA, violationJson } from '../present/violation.ts';
import { makeStyle } from '../core/style.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import type { InvariantService, ScopeInput } from '../service/invariant-service.ts';
import { PlanService } from '../service/plan-service.ts';
import { runEnv } from '../git/run-environment.ts';
import { checkArgs, idArg, prepareArgs } from './args.ts';
import { PromptedSets } from './prompted-sets.ts';
import { reconcileTools } from './reconcile.ts';
import { CHECK_ACTION } from './check-action.ts';
import type { ToolAnswer, ToolContext, ToolDef } from './tool.ts';
import { cursorArg, pageOf, pagedText, withNextCursor } from './pages.ts';
import { MAX_LONG_ARGUMENT } from './line-limit.ts';

const str = (description: string, extra: Record<string, unknown> = {}) => ({
  type: 'string' as const,
  description,
  minLength: 1,
  maxLength: 1000,
  ...extra,
});

/** The argument of a paged tool (pages.ts) that asks for the page after the one an answer gave. */
const CURSOR_ARG = cursorArg('Optional: the `next_cursor` of the answer before, for the next page of a set too long for one message.');

/**
 * The one target of `keys` a call gives. Two, or none where one is `required`, are the CLI's mistakes of two scope
 * flags (`conflicting-options`) and of none (`missing-option`): the same codes here (docs/json-output.md).
 */
function one<T extends string>(
  args: Record<string, string | boolean | string[]>,
  keys: readonly T[],
  tool: string,
  required: boolean,
): T | undefined {
  const given = keys.filter((k) => args[k] !== undefined && args[k] !== false);
  if (given.length > 1)
    throw conflictingOptions(
      // A tool that needs no target (list_invariants lists the whole store) takes at most one.
      `${tool}: give ${required ? 'exactly' : 'at most'} one of ${keys.join(', ')}, not ${given.join(' and ')}`,
      `Choose one of ${keys.join(', ')}.`,
      given,
    );
  if (given.length === 0 && required)
    throw missingOption(`${tool}: give one of ${keys.join(', ')}`, `Choose one of ${keys.join(', ')}.`, tool, keys);
  return given[0];
}

/** A plan given as an id or a unique prefix, as the CLI takes it. */
async function fullPlanId(ctx: ToolContext, plan: string): Promise<string> {
  return ctx.plans.resolvePlanId(plan);
}

/**
 * The effective set a project or a plan resolves to: the target the issue
 * of file paths will extend (a path mapped to its project by the projects'
 * `paths`), hence one function every caller goes through.
 */
export async function effectiveFor(
  ctx: ToolContext,
  target: { project: string } | { plan: string },
  pattern?: string,
): Promise<EffectiveData> {
  const t = 'plan' in target ? { plan: await fullPlanId(ctx, target.plan) } : target;
  return effectiveData(await ctx.service.effective(t, pattern !== undefined ? { pattern } : {}));
}

/**
 * The one project of a file or folder of the repository. A file's is the project whose `paths`
 * (projects/<name>/project.yaml) match it, as `agents which` finds it; a folder's (ending in "/", or one on disk) the
 * project that holds every file of it, as `invariant list --effective` run there infers it: a project of file globs
 * (`**\/*.ts`) holds only some. None, or several, is a usage error.
 */
async function projectOfPath(ctx: ToolContext, path: string): Promise<string> {
  const top = repositoryTop(ctx.service.root);
  const abs = path.startsWith('/') ? path : `${top}/${path}`;
  const rel = repoPathOf(top, abs);
  if (rel === undefined)
    throw new UsageError(
      `${escapeUnsafe(path)} is outside the repository (${top})`,
      'Project paths are relative to the top of the repository; name a path inside it.',
    );
  const config = await loadConfig(ctx.service.source);
  const projects = await readProjects(ctx.service.source);
  requireValid({ diagnostics: projects.diagnostics } as never, "read the projects' project.yaml");
  const folder = namesFolder(path, abs) ? await projectsOfFolder(projects.meta, top, rel) : undefined;
  const names = folder?.whole ?? (await projectsOfPath(projects.meta, top, rel, false));
  // On one line: a line break in the argument would start a line of the report, a forged hint.
  const shown = escapeUnsafe(rel === '' ? '.' : rel);
  if (names.length === 0 && folder !== undefined && folder.partly.length > 0) {
    const partly = folder.partly;
    throw new UsageError(
      `${shown} holds some files of project${partly.length === 1 ? '' : 's'} ${partly.join(', ')}, not all: it is no project's folder`,
      // Not `agents which`, which names the projects holding any file of a folder: here they are the ones refused.
      'Name a file of the folder (path), or give the project by name (project).',
      { partly },
    );
  }
  if (names.length === 0) {
    throw new UsageError(
      `${shown} is in no project's paths`,
      // The server's `agents`, with its --store: a bare `agents which` would look for the store from the client's folder.
      (agents) =>
        `Give the project by name (project), or add the path to \`paths\` in its projects/<name>/project.yaml; \`${agents} which PATH\` shows the mapping.`,
    );
  }
  if (names.length > 1) {
    throw new UsageError(
      `${shown} is in ${names.length} projects (${names.join(', ')})`,
      config.projects.allow_overlap
        ? 'Ask for each project by name (project).'
        : "Make the projects' paths disjoint, or set projects.allow_overlap: true in config.yaml; meanwhile ask by project name.",
      { projects: names },
    );
  }
  return names[0]!;
}

export const TOOLS: readonly ToolDef[] = [
  {
    name: 'effective_invariants',
    title: 'Effective invariants',
    description:
      'The invariants that apply to a project or to a plan: the constraints you must follow while you work on it. ' +
      'Call it before you change code in a project, and again when you move to another project. ' +
      'Give exactly one of `project` (a project name, e.g. "billing"), `plan` (a plan id, or a unique prefix of 4+ characters) or `path` ' +
      '(a file you are about to change, relative to the repository top, e.g. "services/billing/api.ts", or a folder, "services/billing/": its project is found from the projects\' paths). ' +
      'The answer is ordered by precedence (plan, then project, then global); each entry has an id, the text, a severity ' +
      '(error: never break it; warning; info) and the lower-precedence copies it shadows. An empty set is said as such; ' +
      'a store file that cannot be read is an error, never a shorter list.',
    writes: false,
    inputSchema: {
      type: 'object',
      properties: {
        project: str('Project name, as in the store folder projects/<name>/ (lower case, e.g. "billing").', { maxLength: 64 }),
        plan: idArg('Plan id (26-character ULID) or a unique prefix of at least 4 characters.'),
        // As long as check_action's `path` and `agents which` take one: the server's limit of a long argument.
        path: str(
          'A file or folder of the repository, relative to its top: the set of the project whose paths match the file, or hold every file ' +
            'of the folder (one ending in "/", or a folder on disk), as `invariant list --effective` run in that folder finds it.',
          { maxLength: MAX_LONG_ARGUMENT },
        ),
        pattern: str('Optional: a JavaScript regular expression on the text (case-insensitive unless it holds an upper-case letter).'),
        cursor: CURSOR_ARG,
      },
      additionalProperties: false,
    },
    outputSchema: withNextCursor(EFFECTIVE_DATA_SCHEMA),
    async run(args, ctx) {
      const which = one(args, ['project', 'plan', 'path'] as const, 'effective_invariants', true)!;
      const pattern = args.pattern as string | undefined;
      const project = which === 'path' ? await projectOfPath(ctx, args.path as string) : (args.project as string);
      const data = await effectiveFor(ctx, which === 'plan' ? { plan: args.plan as string } : { project }, pattern);
      if (which === 'path') data.target.path = args.path as string;
      const ids = data.invariants.map((i) => i.id);
      // The set a cursor pages: the target as the call gives it (a plan's full id for a prefix), not as the store maps
      // it (a path's project, a plan's project), which a change of the store may move: that is a set changed.
      const target = which === 'plan' ? { plan: data.target.plan } : which === 'path' ? { path: args.path } : { project };
      const of = JSON.stringify([target, pattern ?? null]);
      return pageOf(ids, args.cursor as string | undefined, { tool: 'effective_invariants', of }, (page) => {
        const shown = { ...data, invariants: data.invariants.slice(page.from, page.to) };
        const text = effectiveMarkdown(shown, pattern, page.from);
        return { data: { ...shown, next_cursor: page.next }, text: pagedText(text, page, data.count, 'effective_invariants') };
      });
    },
  },
  {
    name: 'list_invariants',
    title: 'List invariants',
    description:
      'The invariants stored in one scope, or in the whole store when no scope is given: as written, not merged (use effective_invariants for what applies to a project or plan). ' +
      'Give at most one of `global` (true), `project`, `plan` or `action` ("namespace/name" of an action template, "source:namespace/name" of a policy source\'s). ' +
      'Inactive invariants are left out unless `include_inactive` is true. Listing the whole store shows, for each invariant, the copies it shadows or is shadowed by.',
    writes: false,
    inputSchema: {
      type: 'object',
      properties: {
        global: { type: 'boolean', description: 'true: the global scope (applies to every project and plan).' },
        project: str("Project name: that project's own invariants.", { maxLength: 64 }),
        plan: idArg("Plan id or unique prefix (4+ characters): that plan's own invariants."),
        action: str(
          'Action template "namespace/name" (or "source:namespace/name", a policy source\'s): invariants that `plan use` promotes into new plans.',
          {
            maxLength: 194,
          },
        ),
        pattern: str('Optional: a JavaScript regular expression on the text (case-insensitive unless it holds an upper-case letter).'),
        include_inactive: { type: 'boolean', description: 'true: also list invariants marked inactive (they never apply).' },
        cursor: CURSOR_ARG,
      },
      additionalProperties: false,
    },
    outputSchema: withNextCursor(objectOf({ count: INTEGER, invariants: arrayOf(LISTED_SCHEMA) }, ['count', 'invariants'])),
    async run(args, ctx) {
      const which = one(args, ['global', 'project', 'plan', 'action'] as const, 'list_invariants', false);
      let scope: ScopeInput | undefined;
      if (which === 'global') scope = { global: true };
      else if (which === 'project') scope = { project: args.project as string };
      else if (which === 'plan') scope = { plan: await fullPlanId(ctx, args.plan as string) };
      else if (which === 'action') scope = { action: args.action as string };
      const { listShown } = await import('../service/invariant-service.ts');
      const { items, inactive } = await listShown(ctx.service, {
        ...(scope ? { scope } : {}),
        all: args.include_inactive === true,
        ...(args.pattern !== undefined ? { pattern: args.pattern as string } : {}),
      });
      const invariants = items.map(listedJson);
      const filtered = scope !== undefined || args.pattern !== undefined;
      const empty = emptyListText(filtered, inactive, '`include_inactive: true`', ctx.agents);
      // The set a cursor pages: the scope (a plan's full id), whether inactive ones are listed, and the pattern.
      const of = JSON.stringify([scope ?? null, args.include_inactive === true, args.pattern ?? null]);
      return pageOf(
        invariants.map((i) => i.id),
        args.cursor as string | undefined,
        { tool: 'list_invariants', of },
        (page) => {
          // The text `invariant list` prints: each invariant's tags and, listing the whole store, the copies it hides or is hidden by.
          // The scopes' counts and the total are the whole listing's, as `count` is.
          const text = [...listLines(makeStyle(false), items.slice(page.from, page.to), empty, items)].join('\n');
          const data = { count: invariants.length, invariants: invariants.slice(page.from, page.to), next_cursor: page.next };
          return { data, text: pagedText(text, page, invariants.length, 'list_invariants') };
        },
      );
    },
  },
  {
    name: 'show_invariant',
    title: 'Show one invariant',
    description:
      'Everything about one invariant: text, severity, scope, tags, rationale, who added it and when, where it applies, and the copies it shadows or is shadowed by. ' +
      'Give its `id` (26 characters) or a unique prefix of at least 4 characters, as listed by the other tools.',
    writes: false,
    inputSchema: {
      type: 'object',
      properties: { id: idArg('Invariant id or a unique prefix of at least 4 characters.') },
      required: ['id'],
      additionalProperties: false,
    },
    outputSchema: objectOf({ invariant: INVARIANT_SCHEMA, ...SHOW_RELATIONS_SCHEMA }, [
      'invariant',
      'applies_to',
      'plans_targeting',
      'shadows',
      'shadowed_by',
      'incomplete',
    ]),
    async run(args, ctx) {
      const r = await ctx.service.show(args.id as string);
      const incomplete = showIncompleteText(r, ctx.agents);
      const text = showText(r, makeStyle(false));
      return {
        data: { invariant: invariantJson(r.invariant), ...showRelationsJson(r, ctx.agents) },
        text: incomplete ? `${text}\n${incomplete}` : text,
      };
    },
  },
  {
    name: 'record_violation',
    title: 'Record a violation',
    description:
      'Records that an invariant of a plan was broken, as a file under the plan in the store, where reviewers and CI see it (`agents plan status` fails while an error violation stands). ' +
      "Use it when you notice that work done under a plan broke one of the plan's effective invariants; do not use it for doubts or questions. " +
      "`plan`: the plan id or a unique prefix; `invariant`: the id (or prefix) of an invariant in the plan's effective set (see effective_invariants); " +
      "`details`: what happened, where, and what should be done; `severity` only to override the invariant's own.",
    writes: true,
    inputSchema: {
      type: 'object',
      properties: {
        plan: idArg('Plan id or unique prefix (4+ characters).'),
        invariant: idArg("Id or unique prefix of an invariant in the plan's effective set."),
        details: str('What happened: the change, the file or command, and what should be done about it.', { maxLength: 10000 }),
        severity: { type: 'string', enum: [...SEVERITIES], description: "Optional: overrides the invariant's own severity." },
      },
      required: ['plan', 'invariant', 'details'],
      additionalProperties: false,
    },
    outputSchema: VIOLATION_SCHEMA,
    async run(args, ctx) {
      const r = await ctx.plans.addViolation(
        {
          plan: args.plan as string,
          invariant: args.invariant as string,
          details: args.details as string,
          ...(args.severity !== undefined ? { severity: args.severity as Severity } : {}),
        },
        ctx.signal ? { signal: ctx.signal } : {},
      );
      const data = violationJson(r.plan, r.path, r.violation);
      return { data, text: recordedLine(data) };
    },
  },
  {
    name: 'plan_status',
    title: 'Plan status',
    description:
      'Where a plan stands: its size of effective set, the latest reconciliation run (how many invariants the actor found enforced), and the violations recorded, by severity. ' +
      '`failing` is true when the plan gate fails (an error violation stands, the plan was never reconciled, its latest run failed, is incomplete or older than its effective set, or left an error invariant unenforced); `reasons` says which, each `fail` or `report`. ' +
      'Give `plan`: the plan id or a unique prefix of at least 4 characters; optional `allow`: reasons to report instead of failing on, as `plan status --allow`.',
    writes: false,
    inputSchema: {
      type: 'object',
      properties: {
        plan: idArg('Plan id or unique prefix (4+ characters).'),
        allow: {
          type: 'array',
          items: { type: 'string', enum: RELAXABLE },
          description: `Optional: reasons reported instead of failing on them, as \`plan status --allow\` (${docsRef('plans.md')}).`,
        },
        cursor: CURSOR_ARG,
      },
      required: ['plan'],
      additionalProperties: false,
    },
    outputSchema: withNextCursor(PLAN_STATUS_SCHEMA),
    async run(args, ctx) {
      const r = await ctx.plans.status(args.plan as string, args.allow ? { allow: args.allow as RelaxableReason[] } : {});
      // The reasons page (a stale run of a set of 20,000 added invariants gives one each); the verdict, the counts and
      // the waivers are on every page, so that each page says whether the gate fails.
      const ids = r.reasons.map((x) => `${x.code}:${x.invariant_id ?? x.message}`);
      // The reasons of one plan; `allow` changes how they weigh, not which they are, so a cursor is of the plan alone.
      return pageOf(ids, args.cursor as string | undefined, { tool: 'plan_status', of: r.plan.id }, (page) => {
        const reasons = r.reasons.slice(page.from, page.to);
        const text = pagedText(planStatusText(r, makeStyle(false), reasons), page, r.reasons.length, 'plan_status');
        // A plan whose project is gone: the read's warning of it is the page's `unknown-project` reason, said once.
        const said = reasons.some((x) => x.code === 'unknown-project')
          ? r.warnings.filter((w) => w.code === 'unknown-project').map(warningLine)
          : [];
        return { data: { ...planStatusJson({ ...r, reasons }), next_cursor: page.next }, text, said };
      });
    },
  },
  // Reconciliation by the connected agent (src/mcp/reconcile.ts).
  ...reconcileTools(),
  CHECK_ACTION,
];

/** Runs one tool call: the arguments checked against its schema, then the use case. */
export async function callTool(tool: ToolDef, rawArgs: unknown, ctx: ToolContext): Promise<ToolAnswer> {
  const args = await checkArgs(tool.name, tool.inputSchema, rawArgs);
  return tool.run(args, ctx);
}

/** Compiles every tool's argument validator now, so that no call waits for it. */
export function prepareTools(): Promise<void> {
  return prepareArgs(TOOLS.map((t) => t.inputSchema));
}

/**
 * A call's context; `env` is the run's environment (the one main was given), read when the server starts; `agents`
 * the start of a command an answer names (CliContext.agentsCommand of the `agents mcp` run).
 */
export function newToolContext(
  service: InvariantService,
  env: Record<string, string | undefined> = runEnv(),
  agents = 'agents',
): ToolContext {
  return { service, plans: new PlanService(service), env, agents, prompted: new PromptedSets() };
}
