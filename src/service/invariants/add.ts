// Adding an invariant, and the dry run the add form checks a text with as it is typed.
import { inputObject, optionalBoolean, optionalSignal, requiredString } from '../../core/input-shape.ts';
import { type Scope, type ScopedInvariant, describeScope, invariantPath, scopeFolder } from '../../core/model.ts';
import { cleanText, textKey } from '../../core/normalise.ts';
import { type AddCheck, checkNewInvariant } from '../../core/shadow.ts';
import { readFolders } from '../../store/read.ts';
import { lockedWrite } from '../commit.ts';
import { loadIdGenerator } from '../deps.ts';
import { refuseWeakenedFloor } from '../floors.ts';
import { idMaker } from '../new-ids.ts';
import { optionWords } from '../option-words.ts';
import type { InvariantContext } from './context.ts';
import { checkNewAction, projectMadeUnderLock } from './projects.ts';
import { inheritedIfReadable, relatedRead, relations } from './related.ts';
import {
  PROBE_ID,
  checkGuard,
  checkRationale,
  checkSeverity,
  checkTags,
  checkText,
  duplicateRefusal,
  refuseFolderWrites,
  refuseWritesOutsideProject,
  requireOwnScope,
  requirePlanHeld,
  requireValid,
} from './rules.ts';
import { ADD_FIELDS, type AddContext, type AddInput, type AddResult, type ScopeInput } from './types.ts';

/**
 * Adds an invariant. Refuses (exit 1) a text whose key equals one already in
 * the same scope; the check and the write happen under the scope's lock.
 */
export async function add(svc: InvariantContext, given: AddInput, options: { signal?: AbortSignal } = {}): Promise<AddResult> {
  const input = inputObject(given, 'add', ADD_FIELDS, 'input') as AddInput;
  const signal = optionalSignal(inputObject(options, 'add', { signal: true }).signal, 'signal');
  const scope = await svc.resolveScope(input.scope);
  requireOwnScope(scope, svc.optionWords);
  // Where a refusal says the value would have gone: the scope's folder, as the schema gate names it.
  const target = `${scopeFolder(scope)}/`;
  const text = checkText(input.text, target, svc.optionWords);
  const severity = checkSeverity(input.severity ?? 'error');
  const tags = checkTags(input.tags ?? [], 'tags', svc.optionWords);
  const rationale = checkRationale(input.rationale, target, svc.optionWords);
  // Null reads as left out, as every field a method may be given does.
  const guard = input.guard !== undefined && input.guard !== null ? await checkGuard(input.guard) : undefined;
  await refuseFolderWrites(svc.root, guard);
  await refuseWritesOutsideProject(svc.source, svc.root, scope, guard);
  if (scope.kind === 'plan') await svc.readPlan(scope.plan);
  const creates =
    scope.kind === 'project'
      ? await svc.checkNewProject(scope.project, optionalBoolean(input.newProject, 'newProject') ?? false)
      : undefined;
  if (scope.kind === 'action') await checkNewAction(svc, `${scope.ns}/${scope.name}`);
  const author = await svc.deps.author(svc.root);
  const folder = scopeFolder(scope);
  const key = textKey(text);

  // What only writing needs (yaml's writer, node:crypto for ids and temporary names) loads here, not at start-up.
  const [{ checkInvariantDraft, formatInvariantFile }, { writeFileAtomic }] = await Promise.all([
    import('../../core/serialize.ts'),
    import('../../store/atomic-write.ts'),
    loadIdGenerator(),
  ]);
  const draft = (id: string): ScopedInvariant => {
    const inv: ScopedInvariant = {
      id,
      text,
      severity,
      active: true,
      tags,
      created_at: svc.deps
        .clock()
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z'),
      scope,
      path: invariantPath(scope, id),
    };
    if (rationale !== undefined) inv.rationale = rationale;
    if (guard !== undefined) inv.guard = guard;
    if (author !== undefined) inv.created_by = author;
    if (scope.kind === 'plan') inv.source = { kind: 'plan' };
    return inv;
  };
  // The schema check, before the lock makes the scope's folder: a refused value leaves nothing behind.
  checkInvariantDraft(folder, draft(PROBE_ID), optionWords(svc.optionWords));
  refuseWeakenedFloor(draft(PROBE_ID), await inheritedIfReadable(svc));
  let created: string | undefined;
  const { invariant, commit } = await lockedWrite(
    svc,
    { folders: [folder], commit: input.commit, signal },
    async (made) => {
      if (scope.kind === 'plan') await requirePlanHeld(svc.source, scope.plan, 'this command ran', svc.optionWords);
      if (scope.kind === 'project') created = projectMadeUnderLock(scope.project, creates, made.has(folder));
      const here = await readFolders(svc.source, [folder]);
      requireValid(here, `add to ${describeScope(scope)}`);
      const dup = here.invariants.find((i) => textKey(i.text) === key);
      if (dup) {
        throw duplicateRefusal(scope, dup, svc.optionWords, 'written');
      }
      const inv = draft((await idMaker(svc))());
      writeFileAtomic(svc.root, inv.path, formatInvariantFile(inv.path, inv));
      return inv;
    },
    (written) => ({
      value: { invariant: written },
      paths: [written.path],
      message: `invariant: add ${written.id} to ${describeScope(scope)}\n\n${written.text}\n`,
    }),
  );

  // Notes of what the new copy shadows or is shadowed by, as edit and move say them: best effort over readable files.
  const rel = await relations(svc, invariant);
  return {
    invariant,
    file: `${svc.root}/${invariant.path}`,
    ...rel,
    ...(commit ? { commit } : {}),
    ...(created !== undefined ? { createdProject: created } : {}),
  };
}

/**
 * Reads what a text added to `scope` could duplicate, shadow or be shadowed
 * by. Never writes; invalid files are skipped and their problems returned as
 * `incomplete`, a policy source not readable yet said in `inheritedMissing` (the add itself re-checks its scope
 * under the lock).
 */
export async function addContext(svc: InvariantContext, input: ScopeInput | Scope): Promise<AddContext> {
  const scope = await svc.resolveScope(input);
  requireOwnScope(scope, svc.optionWords);
  // Said beside the answer, as show says it: a copy in a file left unread is not in it, so "shadows nothing" is not known.
  return { scope, ...(await relatedRead(svc, scope)) };
}

/** A dry run of `add`: would the text be a duplicate (refused), and what would it shadow or be shadowed by? */
export async function checkAdd(
  svc: InvariantContext,
  given: { scope: ScopeInput | Scope; text: string },
): Promise<AddCheck & Pick<AddContext, 'incomplete' | 'inheritedMissing'>> {
  const input = inputObject(given, 'checkAdd', { scope: true, text: true }, 'input');
  const context = await svc.addContext(input.scope!);
  const check = checkNewInvariant(context.scope, cleanText(requiredString(input.text, 'text')), context.invariants, context.plans);
  // A copy in a file or policy source left unread is not in the answer: said with it, as addContext says it.
  const { incomplete, inheritedMissing } = context;
  return { ...check, ...(incomplete ? { incomplete } : {}), ...(inheritedMissing !== undefined ? { inheritedMissing } : {}) };
}
