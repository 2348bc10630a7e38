/**
 * The one section `agents export --stdout` prints: a plan's or a project's
 * whole effective set, with the precedence it holds and the waivers that
 * hold for it. Pure.
 */
import { type ExportSection, frontMatterText, renderSections, type TargetSpec, waiverNote } from './export.ts';
import { describeScope, type Target } from './model.ts';
import type { EffectiveEntry } from './resolve.ts';
import type { ScopedWaiver } from './waivers.ts';

export function standaloneSection(
  t: Target,
  entries: readonly EffectiveEntry[],
  waivers: readonly ScopedWaiver[],
  /** The plan's project has no folder: the set lacks its invariants, which the agent reading it is told. */
  projectGone = false,
): ExportSection {
  // The precedence said is the one the set holds: inherited invariants come last, below global.
  const below = entries.some((e) => e.invariant.scope.kind === 'inherited') ? ' > inherited' : '';
  // Said as a project's files say them, so that no agent takes a rule lifted here for a binding one.
  const waived = waivers.map((w) =>
    waiverNote(w, w.scope.kind === 'plan' ? 'this plan' : t.kind === 'plan' ? `project ${w.scope.project}` : 'this project'),
  );
  return t.kind === 'plan'
    ? {
        title: `Plan ${t.plan}`,
        scope: describeScope({ kind: 'plan', plan: t.plan }),
        notes: [
          `The effective set of plan ${t.plan}${t.project ? ` (project ${t.project})` : ''}: plan > project > global${below}.`,
          ...(projectGone && t.project
            ? [`Project ${t.project} is not in the store (no projects/${t.project}/): this set leaves out its invariants.`]
            : []),
          ...waived,
        ],
        entries,
      }
    : {
        title: `Project ${t.project}`,
        scope: `project ${t.project}`,
        notes: [`The effective set of project ${t.project}: project > global${below}.`, ...waived],
        entries,
      };
}

/**
 * The file as printed by `--stdout`: front matter, then the sections, with no markers, and no blank line at either
 * end (those are the block's, around its markers). A description in the front matter says whose set it is: the root
 * file's would call one project's rules those of the whole repository.
 */
export function renderStandalone(spec: TargetSpec, sections: readonly ExportSection[], storeRel: string): string {
  const whose = sections.length === 1 ? sections[0]!.scope : undefined;
  const front = spec.rootFrontMatter?.map((line) =>
    whose !== undefined && line.startsWith('description: ') ? `description: The effective set of ${whose} (exported by agents)` : line,
  );
  return `${frontMatterText(front) ?? ''}${renderSections(sections, storeRel).replace(/^\n/, '').replace(/\n+$/, '\n')}`;
}
