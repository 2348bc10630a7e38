// Violations of a plan's invariants: record, resolve, list.
import { storeChanged, UsageError, valueTooLong } from '../../core/errors.ts';
import { inputObject, optionalSignal, optionalString, requiredString } from '../../core/input-shape.ts';
import { normalisePrefix, pickId } from '../../core/id-prefix.ts';
import type { Severity } from '../../core/model.ts';
import { codePointLength, isUlid } from '../../core/names.ts';
import type { Violation } from '../../core/records.ts';
import { replaceInStyle, writeFileAtomic } from '../../store/atomic-write.ts';
import { lockedWrite } from '../commit.ts';
import { withFolderLock } from '../../store/lock.ts';
import { planIds } from '../../store/listing.ts';
import { notInSet, outOfReach, refuseOtherKind, refuseUnknownInvariant } from '../invariants/lookup.ts';
import { planSetWithoutWaivers } from '../invariants/query.ts';
import { checkSeverity, requirePlanHeld } from '../invariants/rules.ts';
import { idMaker } from '../new-ids.ts';
import { optionWords } from '../option-words.ts';
import type { PlanContext } from './context.ts';
import { planById, planRecords, timestamp } from './common.ts';
import { waivedNow } from './queries.ts';
import { type ListedViolation, VIOLATION_FIELDS, type ViolationInput } from './types.ts';

/** The YAML writer, loaded only to write: `violation list` reads this module too. */
const writer = () => import('../../core/serialize.ts');

/** Records an InvariantViolation; the invariant must be in the plan's effective set. */
export async function addViolation(
  svc: PlanContext,
  given: ViolationInput,
  options: { signal?: AbortSignal } = {},
): Promise<ListedViolation> {
  const input = inputObject(given, 'addViolation', VIOLATION_FIELDS, 'input') as ViolationInput;
  // Checked as every method's options are: a misspelt signal would leave the call uncancellable without a word.
  const signal = optionalSignal(inputObject(options, 'addViolation', { signal: true }).signal, 'signal');
  if (input.severity !== undefined) checkSeverity(input.severity);
  const plan = await planById(svc, requiredString(input.plan, 'plan'));
  // Without the waivers, which a violation never reads: a waiver file broken by hand does not stop its recording.
  const { entries } = await planSetWithoutWaivers(svc.invariants, plan.id);
  const inSet = entries.map((e) => e.invariant);
  const wanted = normalisePrefix(input.invariant);
  if (wanted !== undefined && !inSet.some((i) => i.id.startsWith(wanted))) {
    const hint = `Nothing was written. See the set with \`${optionWords(svc.invariants.optionWords).calls.effectiveSet({ plan: plan.id })}\`; a shadowed or inactive copy does not apply.`;
    // A violation's id (or a plan's, a waiver's) given for the invariant's: said so, not as an invariant outside the set.
    // An id that names no invariant at all is unknown-id, as every command says it.
    await refuseUnknownInvariant(
      svc.invariants,
      wanted,
      inSet.map((i) => i.id),
      { otherKind: `A violation names the invariant it breaks. ${hint}`, unknown: hint },
    );
    const elsewhere = await outOfReach(svc.invariants, wanted, { kind: 'plan', plan: plan.id, project: plan.project });
    throw notInSet(wanted, entries, `plan ${plan.id}`, hint, 'Record the violation against', elsewhere);
  }
  const chosen = pickId(
    input.invariant,
    inSet.map((i) => i.id),
    'invariant',
    '',
  );
  const inv = inSet.find((i) => i.id === chosen)!;
  const details = optionalString(input.details, 'details')?.trim() || undefined;
  const author = await svc.invariants.deps.author(svc.root);
  const id = (await idMaker(svc.invariants))();
  const violation: Violation = {
    id,
    invariant_id: inv.id,
    violated_text: inv.text,
    severity: input.severity ?? inv.severity,
    created_at: timestamp(svc.invariants.deps.clock()),
  };
  if (details !== undefined) violation.details = details;
  if (author !== undefined) violation.created_by = author;
  const folder = `plans/${plan.id}/violations`;
  const path = `${folder}/${id}.yaml`;
  const { addingTo, formatViolationFile } = await writer();
  const content = formatViolationFile(path, violation, {
    lead: addingTo('a violation', folder),
    words: optionWords(svc.invariants.optionWords),
  });
  // Under the lock of the violations folder, once the plan is known to be still there (a folder the lock had to make
  // goes again). Not the plan folder's: a lock file there changes the folder the guard hook's index watches, and the
  // hook records a violation at each deny.
  await withFolderLock(
    svc.root,
    folder,
    async () => {
      await requirePlanHeld(svc.invariants.source, plan.id, 'this command ran', svc.invariants.optionWords);
      writeFileAtomic(svc.root, path, content);
    },
    { notice: svc.invariants.deps.notice, ...(signal ? { signal } : {}) },
  );
  return { plan: plan.id, violation, path };
}

/** The violation an id or unique prefix names, in any plan. */
export async function findViolation(svc: PlanContext, prefix: string): Promise<{ plan: string; id: string; path: string }> {
  const wanted = normalisePrefix(prefix) ?? pickId(prefix, [], 'violation', '');
  const found: { plan: string; id: string; path: string }[] = [];
  for (const plan of await planIds(svc.invariants.source)) {
    for (const e of await svc.invariants.source.list(`plans/${plan}/violations`, { recursive: false })) {
      const base = e.path.slice(e.path.lastIndexOf('/') + 1);
      if (!base.endsWith('.yaml') || !base.startsWith(wanted)) continue;
      const id = base.slice(0, -'.yaml'.length);
      if (isUlid(id)) found.push({ plan, id, path: e.path });
    }
  }
  const hint = `Run \`${optionWords(svc.invariants.optionWords).calls.listViolations}\` to see the violations.`;
  if (found.length === 0) await refuseOtherKind(svc.invariants, wanted, 'violation', hint);
  const id = pickId(
    prefix,
    found.map((f) => f.id),
    'violation',
    hint,
  );
  // One id in two plans (a copied file; validate reports it as id-reused): which one is meant is not ours to guess.
  const holders = found.filter((f) => f.id === id);
  if (holders.length > 1)
    throw new UsageError(
      `violation id ${id} is ambiguous: ${holders.length} plans hold a violation of that id (${holders.map((f) => f.path).join(', ')})`,
      (agents) =>
        `Nothing was written. Give each violation an id of its own (\`${agents} validate\` reports the copy as id-reused), then resolve it again.`,
      { matches: holders.map((f) => ({ plan: f.plan, path: f.path })) },
    );
  return holders[0]!;
}

/**
 * `invariant violation resolve`: marks a violation resolved (who, when, an
 * optional note). The record is kept; a resolved violation no longer fails
 * `plan status`. Resolving twice is refused (exit 2).
 */
export async function resolveViolation(
  svc: PlanContext,
  prefix: string,
  options: { note?: string; commit?: boolean } = {},
): Promise<ListedViolation & { commit?: string }> {
  const note = optionalString(inputObject(options, 'resolveViolation', { note: true, commit: true }).note, 'note')?.trim() || undefined;
  const found = await findViolation(svc, prefix);
  if (note !== undefined && codePointLength(note) > 10_000)
    throw valueTooLong({
      file: found.path,
      field: 'resolved.note',
      length: codePointLength(note),
      limit: 10_000,
      schema: 'violation.schema.json',
      fix: `Shorten ${optionWords(svc.invariants.optionWords).note} to at most 10000 characters.`,
    });
  const author = await svc.invariants.deps.author(svc.root);
  const folder = `plans/${found.plan}`;
  return lockedWrite(
    svc.invariants,
    { folders: [folder], commit: options.commit },
    async () => {
      const { violations } = await planRecords(svc, found.plan, ['violations']);
      const v = violations.find((x) => x.id === found.id);
      if (!v)
        throw storeChanged(`violation ${found.id} vanished while it was resolved`, 'Nothing was written. Run the command again.', {
          changed: [found.path],
        });
      if (v.resolved !== undefined) {
        throw new UsageError(
          `violation ${v.id} is already resolved (at ${v.resolved.at}${v.resolved.by ? ` by ${v.resolved.by}` : ''})`,
          'Nothing was written. A resolution is recorded once.',
        );
      }
      const resolved: NonNullable<Violation['resolved']> = { at: timestamp(svc.invariants.deps.clock()) };
      if (author !== undefined) resolved.by = author;
      if (note !== undefined) resolved.note = note;
      const next: Violation = { ...v, resolved };
      replaceInStyle(svc.root, found.path, (await writer()).formatViolationFile(found.path, next));
      return { plan: found.plan, violation: next, path: found.path };
    },
    (listed) => ({
      value: listed,
      paths: [listed.path],
      message: `invariant: resolve violation ${listed.violation.id} of ${listed.violation.invariant_id} in plan ${listed.plan}\n${note ? `\n${note}\n` : ''}`,
    }),
  );
}

/** Violations of one plan or of every plan, by plan then id; optionally of one severity. */
export async function listViolations(svc: PlanContext, given: { plan?: string; severity?: Severity } = {}): Promise<ListedViolation[]> {
  // A plan id given bare (listViolations(id)) read as no plan: every plan's violations, silently.
  const options = inputObject(given, 'listViolations', { plan: true, severity: true });
  optionalString(options.plan, 'plan');
  if (options.severity !== undefined) checkSeverity(options.severity);
  const planIds = options.plan !== undefined ? [(await planById(svc, options.plan)).id] : (await svc.list()).map((p) => p.id);
  const out: ListedViolation[] = [];
  for (const plan of planIds) {
    const { violations } = await planRecords(svc, plan, ['violations']);
    const kept = violations.filter((v) => options.severity === undefined || v.severity === options.severity);
    // Which open ones a waiver covers now, as plan status counts them; the set is resolved only for a plan with one.
    let waived: ReadonlyMap<string, unknown> = new Map();
    if (kept.some((v) => v.resolved === undefined)) {
      const { entries, waivers } = await svc.invariants.effective({ plan });
      waived = await waivedNow(svc, entries, waivers);
    }
    for (const v of kept)
      out.push({
        plan,
        violation: v,
        path: `plans/${plan}/violations/${v.id}.yaml`,
        waived: v.resolved === undefined && waived.has(v.invariant_id),
      });
  }
  return out;
}
