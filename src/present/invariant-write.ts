// The shapes the commands that write one invariant print (docs/json-output.md): `invariant add` and, after it, the
// notes on what the written copy shadows or nearly repeats; built here so that the command only gathers what the
// service did.
import { cliFlags } from '../service/option-words.ts';
import { describeScope, type Scope, type ScopedInvariant } from '../core/model.ts';
import type { Style } from '../core/style.ts';
import type { AddResult, EditResult, KeptProject, MoveResult, ShowResult, StrandedWaiver } from '../service/invariant-service.ts';
import type { Diagnostic } from '../core/diagnostics.ts';
import { incompleteJson, invariantJson, nearJson, relationWords, shadowJson, unreadFilesText, unreadText } from './invariant.ts';

/** The copies an invariant meets, as every write's JSON lists them, and the invalid files they were not read from. */
function relationsJson(r: Pick<AddResult, 'shadows' | 'shadowedBy' | 'near' | 'incomplete'>, agents: string) {
  return {
    shadows: r.shadows.map((i) => shadowJson({ id: i.id, scope: i.scope, path: i.path })),
    shadowed_by: r.shadowedBy.map((i) => shadowJson({ id: i.id, scope: i.scope, path: i.path })),
    near_duplicates: r.near.map(nearJson),
    incomplete: incompleteJson(r.incomplete, agents),
  };
}

/**
 * What a copy meets, one sentence each: what it shadows or overrides, is shadowed or overridden by (the words `show`
 * and the effective set use, relationWords). The notes after a write and the add form's live feedback both say these.
 */
export function relationSentences(
  inv: Pick<ScopedInvariant, 'id' | 'overrides'>,
  r: { shadows: readonly ScopedInvariant[]; shadowedBy: readonly ScopedInvariant[] },
): { hides: string[]; hiddenBy: string[] } {
  const { hides, hiddenBy } = relationWords(inv, r);
  return {
    hides: hides.map(([word, o]) => `it ${word} the copy in ${describeScope(o.scope)} (${o.id})`),
    hiddenBy: hiddenBy.map(([word, o]) => `it is ${word} the copy in ${describeScope(o.scope)} (${o.id})`),
  };
}

/** A text nearly the same as the copy's, which both apply: after a write and in the add form. */
export function nearSentence(m: { invariant: ScopedInvariant; kind: string }): string {
  const how = m.kind === 'punctuation' ? 'the same but for punctuation' : 'one character apart';
  return `nearly repeats ${describeScope(m.invariant.scope)} ${m.invariant.id} "${m.invariant.text}" (${how}); both apply`;
}

/**
 * What the add form says beside what the text meets when files it would read are invalid (AddContext's incomplete) or
 * a policy source's invariants could not be read (its inheritedMissing, the command that reads them): a copy there is
 * not among them, so nothing met is said only of the files read.
 */
export function unreadCopiesText(
  problems: readonly Diagnostic[] | undefined,
  agents: string,
  inheritedMissing?: string,
  missing = 'a copy it duplicates, shadows, is shadowed by or nearly repeats',
): string | undefined {
  return unreadText(unreadFilesText(problems, missing, agents), inheritedMissing, 'a copy it shadows or nearly repeats');
}

/**
 * The warning after add, edit and move when the notes were read short: an invalid file or a policy source not read
 * may hold a copy it shadows, is shadowed by or nearly repeats (the CLI says it on stderr in every format, as show's).
 */
export function writtenUnreadText(r: Pick<AddResult, 'incomplete' | 'inheritedMissing'>, agents: string): string | undefined {
  return unreadCopiesText(r.incomplete, agents, r.inheritedMissing, 'a copy it shadows, is shadowed by or nearly repeats');
}

/** What a written copy meets, one sentence each: the notes (what it hides or is hidden by), then the warnings (near repeats). */
function relationLines(r: {
  invariant: ScopedInvariant;
  shadows: readonly ScopedInvariant[];
  shadowedBy: readonly ScopedInvariant[];
  near: readonly { invariant: ScopedInvariant; kind: string }[];
}): { notes: string[]; warnings: string[] } {
  const { hides, hiddenBy } = relationSentences(r.invariant, r);
  return { notes: [...hides, ...hiddenBy], warnings: r.near.map(nearSentence) };
}

/** The notes printed after a write: what the invariant shadows, is shadowed by, and nearly repeats. */
export function relationNotes(r: Parameters<typeof relationLines>[0], warn: (s: string) => string): string[] {
  const { notes, warnings } = relationLines(r);
  return [...notes.map((line) => `  note: ${line}`), ...warnings.map((line) => `  ${warn('warning')}: ${line}`)];
}

/** The JSON of `invariant add`: the invariant, its file, the copies it meets, the commit and the project it made. */
export function addedJson(r: AddResult, agents: string) {
  const { shadows, shadowed_by, near_duplicates, incomplete } = relationsJson(r, agents);
  return {
    ...invariantJson(r.invariant),
    file: r.file,
    shadows,
    shadowed_by,
    near_duplicates,
    incomplete,
    commit: r.commit ?? null,
    created_project: r.createdProject ?? null,
  };
}

export function addedText(s: Style, r: AddResult): string {
  const inv = r.invariant;
  const lines = [`${s.green('added')} ${s.bold(inv.id)} to ${describeScope(inv.scope)}`, `  ${r.file}`];
  if (r.commit) lines.push(`  committed ${r.commit.slice(0, 12)}`);
  lines.push(...relationNotes(r, s.yellow));
  return lines.join('\n');
}

/**
 * What the browser's status line says after an add, on one line that it cuts to its rows: the id and file, then the
 * notes `invariant add` prints under them (addedText), each after a `·`, and its warning of what was not read.
 */
export function addedSentence(r: AddResult, agents: string): string {
  const { notes, warnings } = relationLines(r);
  const unread = writtenUnreadText(r, agents);
  return [
    `added ${r.invariant.id}`,
    r.invariant.path,
    ...notes.map((n) => `note: ${n}`),
    ...warnings.map((w) => `warning: ${w}`),
    ...(unread ? [unread] : []),
  ].join(' · ');
}

/** Why a project whose last invariant went was kept (plans target it), as the CLI's note and the browser's status say it. */
export function keptProjectSentence(kept: KeptProject, agents: string): string {
  const why =
    kept.plans.length === 0
      ? 'a plan file could not be read, and it may target it'
      : `plan${kept.plans.length === 1 ? '' : 's'} ${kept.plans.join(', ')} target${kept.plans.length === 1 ? 's' : ''} it`;
  return `kept project ${kept.project} (${kept.path}): ${why}; \`${cliFlags(agents).calls.removeProject(kept.project)}\` removes it once no plan does`;
}

/** The line that says a project whose last invariant went was kept, because plans target it. */
export function keptProjectNote(kept: KeptProject, agents: string): string {
  return `  ${keptProjectSentence(kept, agents)}`;
}

/** The JSON of `invariant move`: the invariant where it is now, where it was, and the project the move kept or made. */
export function movedJson(r: MoveResult, agents: string) {
  const { shadows, shadowed_by, near_duplicates, incomplete } = relationsJson(r, agents);
  return {
    ...invariantJson(r.invariant),
    file: r.file,
    from: { scope: r.before.scope.kind, path: r.before.path },
    shadows,
    shadowed_by,
    near_duplicates,
    incomplete,
    kept_project: r.keptProject ?? null,
    created_project: r.createdProject ?? null,
    stranded_waivers: strandedJson(r),
    commit: r.commit ?? null,
  };
}

export function movedText(s: Style, r: MoveResult, agents: string): string {
  const lines = [
    `${s.green('moved')} ${s.bold(r.invariant.id)} from ${describeScope(r.before.scope)} to ${describeScope(r.invariant.scope)}`,
    `  ${r.file}`,
  ];
  if (r.commit) lines.push(`  committed ${r.commit.slice(0, 12)}`);
  lines.push(...relationNotes(r, s.yellow));
  if (r.keptProject) lines.push(keptProjectNote(r.keptProject, agents));
  return lines.join('\n');
}

/** The JSON of `invariant edit`: the invariant as it is now, the fields changed, and as it was before. */
export function editedJson(r: EditResult, agents: string) {
  const { shadows, shadowed_by, near_duplicates, incomplete } = relationsJson(r, agents);
  return {
    ...invariantJson(r.invariant),
    file: r.file,
    changed: r.changed,
    before: invariantJson(r.before),
    shadows,
    shadowed_by,
    near_duplicates,
    incomplete,
    stranded_waivers: strandedJson(r),
    commit: r.commit ?? null,
  };
}

export function editedText(s: Style, r: EditResult): string {
  const inv = r.invariant;
  if (r.changed.length === 0)
    return `${s.dim('unchanged')} ${s.bold(inv.id)} in ${describeScope(inv.scope)}: it already has these values; nothing was written`;
  const lines = [`${s.green('edited')} ${s.bold(inv.id)} in ${describeScope(inv.scope)}: ${r.changed.join(', ')}`, `  ${r.file}`];
  if (r.commit) lines.push(`  committed ${r.commit.slice(0, 12)}`);
  lines.push(...relationNotes(r, s.yellow));
  return lines.join('\n');
}

/**
 * What `invariant remove` did: the invariant found, what the service answered, and `shown`, what show said of it
 * before (what it shadowed), absent when its own file was invalid and nothing is known of its copies.
 */
export interface Removed {
  id: string;
  path: string;
  scope: Scope;
  keptProject?: KeptProject;
  commit?: string;
  shown?: ShowResult;
  strandedWaivers?: readonly StrandedWaiver[];
}

/** The JSON of `invariant remove`: back_in_effect and incomplete are null when the removed file was invalid. */
export function removedJson(r: Removed, agents: string) {
  const back = r.shown?.shadow.shadows ?? [];
  return {
    removed: r.id,
    path: r.path,
    scope: r.scope.kind,
    kept_project: r.keptProject ?? null,
    commit: r.commit ?? null,
    back_in_effect: r.shown ? back.map((o) => shadowJson({ id: o.id, scope: o.scope, path: o.path })) : null,
    incomplete: r.shown ? incompleteJson(r.shown.incomplete, agents) : null,
    stranded_waivers: strandedJson(r),
  };
}

export function removedText(s: Style, r: Removed, agents: string): string {
  const back = r.shown?.shadow.shadows ?? [];
  // Other files not read: a copy in one of them may come back too, so "nothing comes back" is not said as known.
  const incomplete = (r.shown?.incomplete?.length ?? 0) > 0;
  const lines = [`${s.green('removed')} ${r.id} from ${describeScope(r.scope)} (${r.path})`];
  if (r.commit) lines.push(`  committed ${r.commit.slice(0, 12)}`);
  if (!r.shown) lines.push('  (the file was invalid: which copies it shadowed is not known)');
  else if (back.length === 0)
    lines.push(incomplete ? '  it shadowed nothing of the files read' : '  it shadowed nothing; no other copy comes back into effect');
  else {
    lines.push(`  ${s.yellow('back in effect')} (it shadowed ${back.length === 1 ? 'this copy' : 'these copies'}):`);
    for (const o of back) lines.push(`    ${describeScope(o.scope)} ${o.id}  ${o.path}`);
  }
  if (r.keptProject) lines.push(keptProjectNote(r.keptProject, agents));
  return lines.join('\n');
}

/** The waivers a write left behind, as JSON lists them: each `{id, invariant_id, path}`. */
export function strandedJson(r: { strandedWaivers?: readonly StrandedWaiver[] }) {
  return (r.strandedWaivers ?? []).map((w) => ({ id: w.id, invariant_id: w.invariant_id, path: w.path }));
}

/**
 * The notes on stderr, one a waiver, that a write left waivers behind (docs/plans.md, "Waivers"): from now on they
 * waive nothing, and a plan they kept passing may fail. Each says what to do: waive the invariant where it applies
 * now, or remove the file. `after`: the invariant as the write left it, undefined when it removed it.
 */
export function strandedNote(
  w: StrandedWaiver,
  id: string,
  after: Pick<ScopedInvariant, 'scope' | 'active'> | undefined,
  agents: string,
): string {
  const of = w.scope.kind === 'plan' ? `plan ${w.scope.plan}` : `project ${w.scope.project}`;
  const s = after?.scope;
  const where = s?.kind === 'plan' ? ` --plan ${s.plan}` : s?.kind === 'project' ? ` --project ${s.project}` : ' --plan P';
  const [why, remedy] = !after
    ? ['it is no longer in the store', undefined]
    : !after.active
      ? ['it is inactive, in no set', `\`${agents} invariant edit ${id} --activate\` brings it back`]
      : [
          `it is now in ${describeScope(after.scope)}, outside the set of ${of}`,
          `record a waiver where it applies (\`${agents} invariant waive ${id}${where} …\`)`,
        ];
  return `waiver ${w.id} of ${of} (${w.path}) no longer waives ${id}: ${why}. Remove the file${remedy ? `, or ${remedy}` : ''}.`;
}

/** strandedNote for each waiver a move, an edit or a removal (no `invariant` left) left behind. */
export function strandedNotes(
  r: { id?: string; invariant?: Pick<ScopedInvariant, 'id' | 'scope' | 'active'>; strandedWaivers?: readonly StrandedWaiver[] },
  agents: string,
): string[] {
  const id = r.invariant?.id ?? r.id!;
  return (r.strandedWaivers ?? []).map((w) => strandedNote(w, id, r.invariant, agents));
}
