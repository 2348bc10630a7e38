// The browser's rows: the list of a scope or an effective set, kept to what the filter's pattern matches.
import { useEffect, useMemo, useState } from 'react';
import { AgentsError } from '../core/errors.ts';
import type { ScopedInvariant } from '../core/model.ts';
import type { EffectiveResult } from '../service/invariant-service.ts';
import { compileFilter, filterByRegex } from '../service/regex.ts';
import { effectiveRows, inScope, listRows, type Row, type ScopeChoice } from './browser-rows.ts';
import type { StoreData } from './use-store-data.ts';

/** How long typing into the filter pauses before its pattern is run over the store. */
export const FILTER_PAUSE_MS = 150;

/**
 * The pattern the list is filtered by: while it is typed, the one typing last paused on, so that a pattern slow to
 * run (up to the time limit, over a large store) holds up no key; kept, cleared or given, the pattern at once.
 */
export function useSettledPattern(pattern: string, typing: boolean): string {
  const [settled, setSettled] = useState(pattern);
  const now = !typing || pattern === '';
  // Kept in step outside typing, so that typing again starts from the pattern the list shows, not an older one.
  if (now && settled !== pattern) setSettled(pattern);
  useEffect(() => {
    if (now) return;
    const timer = setTimeout(() => setSettled(pattern), FILTER_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [pattern, now]);
  return now ? pattern : settled;
}

/**
 * The rows shown, and `whole`, the effective set's rows unfiltered (its title counts against them). `problem`: why the
 * pattern filters nothing (invalid, or stopped for taking too long), the list then left unfiltered.
 */
export function useFilteredRows(
  data: StoreData | undefined,
  effective: EffectiveResult | undefined,
  pattern: string,
  scope: ScopeChoice,
): { rows: Row[]; whole?: Row[]; problem?: string } {
  const { regex, regexProblem } = useMemo(() => {
    if (pattern === '') return { regex: undefined, regexProblem: undefined };
    try {
      return { regex: compileFilter(pattern), regexProblem: undefined };
    } catch (error) {
      return { regex: undefined, regexProblem: error instanceof AgentsError ? error.message : String(error) };
    }
  }, [pattern]);

  const { rows, filterProblem, whole } = useMemo((): { rows: Row[]; filterProblem?: string; whole?: Row[] } => {
    if (!data) return { rows: [] };
    let filterProblem: string | undefined;
    // A pattern stopped for taking too long is said on the filter line and leaves the list unfiltered, as an invalid one does.
    const matching = <T>(list: T[], invariant: (x: T) => ScopedInvariant): T[] => {
      if (!regex) return list;
      try {
        const keep = new Set(filterByRegex(list.map(invariant), regex));
        return list.filter((x) => keep.has(invariant(x)));
      } catch (error) {
        filterProblem = error instanceof AgentsError ? error.message : String(error);
        return list;
      }
    };
    if (effective) {
      const known = [...data.items.map((i) => i.invariant), ...data.inherited];
      const entries = matching(effective.entries, (e) => e.invariant);
      const rows = effectiveRows({ ...effective, entries }, known);
      // A filtered set is counted against the whole, so the title never says the set is only what the filter kept.
      const whole = entries.length === effective.entries.length ? rows : effectiveRows(effective, known);
      return { rows, whole, ...(filterProblem ? { filterProblem } : {}) };
    }
    const items = matching(
      data.items.filter((i) => inScope(i.invariant, scope)),
      (i) => i.invariant,
    );
    return { rows: listRows(items), ...(filterProblem ? { filterProblem } : {}) };
  }, [data, effective, regex, scope]);
  const problem = regexProblem ?? filterProblem;
  return { rows, ...(whole ? { whole } : {}), ...(problem !== undefined ? { problem } : {}) };
}
