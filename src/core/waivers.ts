// Waivers: time-boxed exceptions to an invariant for one plan, or for one
// project and the plans that target it (docs/plans.md, "Waivers"). Pure: the
// time is always an argument, never read here.
import type { Scope } from './model.ts';

/** A waiver file: `plans/<plan>/waivers/<id>.yaml` or `projects/<project>/waivers/<id>.yaml` (schemas/waiver.schema.json). */
export interface Waiver {
  id: string;
  invariant_id: string;
  reason: string;
  owner: string;
  /** `YYYY-MM-DD` (holds through that day, UTC) or an RFC 3339 date-time. */
  expires: string;
  created_at: string;
  created_by?: string;
}

/** Where a waiver is kept, which is what it covers. */
/** The scopes a waiver can be written in. */
export const WAIVER_SCOPE_KINDS = ['plan', 'project'] as const;
export type WaiverScope = { kind: 'plan'; plan: string } | { kind: 'project'; project: string };

export interface ScopedWaiver extends Waiver {
  scope: WaiverScope;
  /** Store-relative path of its file. */
  path: string;
}

/** What `invariant waive` needs besides the id and the scope, as every message that names the command writes it. */
export const WAIVE_NEEDS = '--reason "…" --owner "…" --expires YYYY-MM-DD';

export function waiverFolder(scope: WaiverScope): string {
  return scope.kind === 'plan' ? `plans/${scope.plan}/waivers` : `projects/${scope.project}/waivers`;
}

export function waiverPath(scope: WaiverScope, id: string): string {
  return `${waiverFolder(scope)}/${id}.yaml`;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_RE = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The midnight (UTC) that starts a `YYYY-MM-DD` day, or NaN when that day does not exist (2026-02-30). */
function dayStart(date: string): number {
  const d = DATE_RE.exec(date);
  if (!d) return Number.NaN;
  const [y, m, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
  // Not Date.UTC, which reads the years 0000–0099 as 1900–1999.
  const start = new Date(0);
  start.setUTCFullYear(y, m - 1, day);
  // A day out of range (00, or past the month's last, at most 99) moves the date into another
  // month, as a month out of range does: the month alone tells whether the day exists.
  if (start.getUTCMonth() !== m - 1) return Number.NaN;
  return start.getTime();
}

/**
 * The instant (ms since the epoch) a waiver stops holding: for a date, the
 * midnight (UTC) that ends that day; for a date-time, that instant. NaN when
 * `expires` is neither (or names a day or a time that does not exist, as
 * 2026-02-30 or 24:00:00).
 */
export function waiverExpiry(expires: string): number {
  if (DATE_RE.test(expires)) return dayStart(expires) + DAY_MS;
  const t = DATE_TIME_RE.exec(expires);
  // Date.parse rolls an impossible date-time over (2026-02-30T10:00:00Z is March 2, 24:00 the next day): RFC 3339 has neither.
  if (!t || Number.isNaN(dayStart(t[1]!))) return Number.NaN;
  if (Number(t[2]) > 23 || Number(t[3]) > 59 || Number(t[4]) > 59) return Number.NaN;
  if (t[7] !== undefined && (Number(t[7]) > 23 || Number(t[8]) > 59)) return Number.NaN;
  return Date.parse(expires);
}

/** Whether the waiver still holds at `now`. */
export function waiverHolds(w: Pick<Waiver, 'expires'>, now: Date): boolean {
  const end = waiverExpiry(w.expires);
  return Number.isFinite(end) && now.getTime() < end;
}

/**
 * Whether a waiver was written by `at` (its `created_at` not after it): a commit judged at its time was made before a
 * waiver written later, whatever its tree holds (a commit date set back).
 */
export function writtenBy(w: Pick<Waiver, 'created_at'>, at: Date): boolean {
  return !(Date.parse(w.created_at) > at.getTime());
}

/**
 * The invariant ids waived at `now`, each with the waivers that hold for it
 * (latest expiry first). This is the one rule every gate applies: an
 * invariant in this map does not fail `plan status` (docs/plans.md).
 */
export function waivedAt<W extends Waiver>(waivers: readonly W[], now: Date): Map<string, W[]> {
  const out = new Map<string, W[]>();
  for (const w of waivers) {
    if (!waiverHolds(w, now)) continue;
    const list = out.get(w.invariant_id);
    if (list) list.push(w);
    else out.set(w.invariant_id, [w]);
  }
  for (const list of out.values()) list.sort((a, b) => waiverExpiry(b.expires) - waiverExpiry(a.expires));
  return out;
}

/**
 * Whether a waiver can waive an invariant of the scope `scope`: a project's waiver what the project's own set holds,
 * never a plan's own invariant (one moved into the plan leaves its project waiver behind); a plan's waiver what its
 * plan's set holds, never the invariant of a project other than `planProject`, the plan's (the guard hook judges a file
 * of another project by the active plan's and that project's invariants). Either other waiver is validate's
 * waiver-not-applicable: it waives nothing.
 */
export function waiverReaches(waiver: { scope: WaiverScope }, scope: Scope, planProject: string | undefined): boolean {
  if (waiver.scope.kind === 'project') return scope.kind !== 'plan';
  return scope.kind !== 'project' || scope.project === planProject;
}

/**
 * The waivers that name an invariant of a set (its entries' ids) that they can reach (waiverReaches; `planProject`: the
 * project of the plan whose set it is): the others waive nothing there (validate's waiver-not-applicable), and a file
 * saying them would tell an agent a rule it does not hold is lifted.
 */
export function waiversInSet<W extends Waiver & { scope: WaiverScope }>(
  waivers: readonly W[],
  entries: readonly { invariant: { id: string; scope: Scope } }[],
  planProject: string | undefined,
): W[] {
  if (waivers.length === 0) return [];
  const scopes = new Map(entries.map((e) => [e.invariant.id, e.invariant.scope]));
  return waivers.filter((w) => {
    const scope = scopes.get(w.invariant_id);
    return scope !== undefined && waiverReaches(w, scope, planProject);
  });
}

/** The waivers that cover a plan: its own, and those of the project it targets. */
export function waiversForPlan<W extends ScopedWaiver>(waivers: readonly W[], plan: { id: string; project?: string }): W[] {
  return waivers.filter((w) => (w.scope.kind === 'plan' ? w.scope.plan === plan.id : w.scope.project === plan.project));
}

/**
 * Reads `--expires` as the user typed it: a date or an RFC 3339 date-time,
 * which must lie after `now`. Returns the value to store, or why it is refused, naming the option as the caller
 * calls it (`option`: the library's `expires`, or `--expires` on the command line).
 */
export function parseExpiresInput(input: string, now: Date, option = 'expires'): { value: string } | { problem: string } {
  // RFC 3339 lets "t" and "z" be lower case; the file keeps the upper case its schema takes.
  const text = /^\d{4}-\d{2}-\d{2}[Tt]/.test(input.trim()) ? input.trim().toUpperCase() : input.trim();
  const end = waiverExpiry(text);
  if (!Number.isFinite(end))
    return { problem: `${option} "${text}" is not a date (YYYY-MM-DD) or an RFC 3339 date-time (2026-12-31T18:00:00Z)` };
  if (end <= now.getTime())
    return { problem: `${option} ${text} is not in the future (now ${now.toISOString().replace(/\.\d{3}Z$/, 'Z')})` };
  return { value: text };
}

/**
 * The waivers a write strands (docs/plans.md, "Waivers"): those naming the invariant that applied to it as it was
 * (`before`) and apply to it no more as it is (`after`, undefined once it left the store): moved where their plan's
 * or project's set does not reach, or made inactive. `planProject`: each plan waiver's plan's project. Copies that
 * shadow one another are left to validate, which reads the whole store.
 */
export function strandedBy<W extends { invariant_id: string; scope: WaiverScope }>(
  waivers: readonly W[],
  before: { id: string; scope: Scope; active: boolean },
  after: { scope: Scope; active: boolean } | undefined,
  planProject: (plan: string) => string | undefined,
): W[] {
  const applies = (w: W, inv: { scope: Scope; active: boolean } | undefined): boolean => {
    if (!inv?.active) return false;
    const s = inv.scope;
    if (s.kind === 'global') return true;
    if (w.scope.kind === 'project') return s.kind === 'project' && s.project === w.scope.project;
    const plan = w.scope.plan;
    return (s.kind === 'plan' && s.plan === plan) || (s.kind === 'project' && s.project === planProject(plan));
  };
  return waivers.filter((w) => w.invariant_id === before.id && applies(w, before) && !applies(w, after));
}

/** How far off an `expires` makes a waiver permanent in effect (docs/plans.md, "Waivers"): validate's waiver-permanent. */
export const PERMANENT_AFTER_YEARS = 100;

/** Whether a waiver ends more than PERMANENT_AFTER_YEARS after `now` (9999-12-31, say): a team's choice, said by validate. */
export function waiverPermanent(w: { expires: string }, now: Date): boolean {
  const horizon = new Date(now.getTime());
  horizon.setUTCFullYear(horizon.getUTCFullYear() + PERMANENT_AFTER_YEARS);
  return waiverExpiry(w.expires) > horizon.getTime();
}
