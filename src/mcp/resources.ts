import { UsageError } from '../core/errors.ts';
import { EXTENDS_LOCK_FILE } from '../core/extends.ts';
import { isName, isProjectName, isUlid, truncate } from '../core/names.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import { type InvariantService, toScope } from '../service/invariant-service.ts';
import { CONFIG_FILE } from '../store/config.ts';
import { existingPlanIds } from '../store/listing.ts';
import { effectiveMarkdown, PRECEDENCE_LINE } from '../present/effective.ts';
import type { ToolContext } from './tool.ts';
import { effectiveFor } from './tools.ts';
import { EXTENDS_CACHE } from './watch.ts';

/**
 * Resources (docs/mcp.md): the effective set of each project and each plan,
 * in two forms, at
 *   agents://projects/<name>/effective.md     text/markdown
 *   agents://projects/<name>/effective.json   application/json
 *   agents://plans/<id>/effective.md|.json
 * The URI names a target, never a file: it is parsed against the store's
 * name rules, so no URI reaches outside the store.
 */
export type Target = { project: string } | { plan: string };
export type Form = 'md' | 'json';

export const MIME: Record<Form, string> = { md: 'text/markdown', json: 'application/json' };

export function resourceUri(target: Target, form: Form): string {
  return 'project' in target ? `agents://projects/${target.project}/effective.${form}` : `agents://plans/${target.plan}/effective.${form}`;
}

export const TEMPLATES = [
  {
    uriTemplate: 'agents://projects/{project}/effective.md',
    name: 'project-effective-md',
    title: 'Effective invariants of a project (Markdown)',
    mimeType: MIME.md,
  },
  {
    uriTemplate: 'agents://projects/{project}/effective.json',
    name: 'project-effective-json',
    title: 'Effective invariants of a project (JSON)',
    mimeType: MIME.json,
  },
  {
    uriTemplate: 'agents://plans/{plan}/effective.md',
    name: 'plan-effective-md',
    title: 'Effective invariants of a plan (Markdown)',
    mimeType: MIME.md,
  },
  {
    uriTemplate: 'agents://plans/{plan}/effective.json',
    name: 'plan-effective-json',
    title: 'Effective invariants of a plan (JSON)',
    mimeType: MIME.json,
  },
] as const;

/** The target and form a resource URI names; anything else is a usage error. */
export function parseUri(uri: string): { target: Target; form: Form } {
  const m = /^agents:\/\/(projects|plans)\/([^/]+)\/effective\.(md|json)$/.exec(uri);
  const bad = () =>
    new UsageError(
      // On one line: a line break the URI brings would start a line of the report of its own.
      `unknown resource ${escapeUnsafe(truncate(uri, 120))}`,
      'Resources are agents://projects/<name>/effective.md|json and agents://plans/<id>/effective.md|json; resources/list shows them.',
    );
  if (!m) throw bad();
  const [, kind, name, form] = m as unknown as [string, 'projects' | 'plans', string, Form];
  // A name the store cannot hold is refused as the CLI's --project and --plan refuse it (`Web`: did you mean web?).
  if (kind === 'projects') {
    if (!isName(name)) toScope({ project: name });
    return { target: { project: name }, form };
  }
  if (!isUlid(name)) toScope({ plan: name });
  return { target: { plan: name }, form };
}

/** The projects (folders under projects/) and the plans (folders under plans/ holding their plan.yaml) of the store, sorted. */
export async function listTargets(service: InvariantService): Promise<Target[]> {
  const projects = (await service.projectNames()).map((project) => ({ project }));
  const plans = (await existingPlanIds(service.source)).map((plan) => ({ plan }));
  return [...projects, ...plans];
}

/** Targets a page of resources/list holds (two resources each): far below the limit of a message, however many plans pile up. */
export const PAGE_TARGETS = 500;

/** Where a target sorts in the listing: the projects, then the plans, each by name (as listTargets sorts them). */
const sortKey = (t: Target) => ('project' in t ? `0${t.project}` : `1${t.plan}`);

/**
 * One page of the listing: the targets after `cursor` (the last target of the page before, as `nextCursor` named it),
 * and the cursor of the page after, if any. A cursor names a target, not a place: a project or plan added or removed
 * between two pages moves no other one to a page already read.
 *
 * Not the cursors of ./pages.ts, on purpose: those page one set that must be read whole (an effective set, a plan's
 * reasons), so a set changed between two pages is refused, lest an agent take pages of two sets for one; this lists
 * resources each read on its own, whose changes the client is told of (list_changed), so a listing goes on past a
 * plan made meanwhile, where a refusal would keep a store whose agents make plans all day from ever being listed.
 * A cursor of either kind that the server did not give is refused alike (`invalid-value`, naming the cursor).
 */
export function listingPage(targets: readonly Target[], cursor: string | undefined): { page: Target[]; next?: string } {
  let start = 0;
  if (cursor !== undefined) {
    const m = /^(project|plan):(.*)$/.exec(cursor);
    if (!m || !(m[1] === 'project' ? isProjectName(m[2]!) : isUlid(m[2]!)))
      throw new UsageError(
        `invalid cursor ${escapeUnsafe(truncate(cursor, 120))}`,
        'Give the nextCursor of the page before, or none for the first page.',
        { option: 'cursor', value: cursor, suggestions: [] },
        'invalid-value',
      );
    const after = sortKey(m[1] === 'project' ? { project: m[2]! } : { plan: m[2]! });
    start = targets.findIndex((t) => sortKey(t) > after);
    if (start < 0) start = targets.length;
  }
  const page = targets.slice(start, start + PAGE_TARGETS);
  const last = page.at(-1);
  if (start + PAGE_TARGETS >= targets.length || last === undefined) return { page };
  return { page, next: 'project' in last ? `project:${last.project}` : `plan:${last.plan}` };
}

export function listedResources(targets: readonly Target[]) {
  return targets.flatMap((t) => {
    const label = 'project' in t ? `project ${t.project}` : `plan ${t.plan}`;
    return (['md', 'json'] as const).map((form) => ({
      uri: resourceUri(t, form),
      name: `${'project' in t ? t.project : t.plan}-effective-${form}`,
      title: `Effective invariants of ${label}${form === 'json' ? ' (JSON)' : ''}`,
      description: `The invariants that apply to ${label}, by precedence (${PRECEDENCE_LINE}).`,
      mimeType: MIME[form],
    }));
  });
}

/** Reads one resource: the effective set of its target, in its form. */
export async function readResource(ctx: ToolContext, uri: string): Promise<{ uri: string; mimeType: string; text: string }> {
  const { target, form } = parseUri(uri);
  const data = await effectiveFor(ctx, target);
  return { uri, mimeType: MIME[form], text: form === 'md' ? effectiveMarkdown(data) : `${JSON.stringify(data, null, 2)}\n` };
}

/**
 * Does a change to the store path `rel` (store-relative; "" for the store
 * folder itself, when the watcher cannot say more) change the effective set
 * of `target`? A plan's set also depends on its project's folder:
 * `planProject` is the project the plan targets, when known.
 */
export function affects(rel: string, target: Target, planProject?: string): boolean {
  if (rel === '') return true;
  // The policy sources every set inherits: named in config.yaml, pinned in the lock (`agents extends update` rewrites both).
  if (rel === CONFIG_FILE || rel === EXTENDS_LOCK_FILE || rel === EXTENDS_CACHE) return true;
  if (rel === 'global' || rel.startsWith('global/')) return true;
  // A scope folder removed and made again (a checkout that empties it) is reported as the folder alone.
  if ('project' in target)
    return rel === 'projects' || rel === `projects/${target.project}` || rel.startsWith(`projects/${target.project}/`);
  const own = `plans/${target.plan}`;
  if (rel === own || rel === 'plans') return true;
  if (rel.startsWith(`${own}/`)) {
    // Violations, enforcement runs and decisions are records, not invariants.
    const rest = rel.slice(own.length + 1);
    return !/^(violations|enforcement|decisions)(\/|$)/.test(rest);
  }
  if (rel === 'projects') return true;
  if (planProject !== undefined) return rel === `projects/${planProject}` || rel.startsWith(`projects/${planProject}/`);
  return false;
}
