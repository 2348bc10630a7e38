// The browser's pieces drawn from data alone: the scope picker's items, a
// row of the list, the detail pane and the filter line (Browser.tsx holds the state and keys).
import { Box, Text } from 'ink';
import { clipToRows, fitColumns, plain } from './plain.ts';
import type { ReactElement } from 'react';
import { type Diagnostic, location } from '../core/diagnostics.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import { actionName, describeScope, type ScopedInvariant, type Target } from '../core/model.ts';
import { waiverPlainLine } from '../present/effective.ts';
import { relationWords } from '../present/invariant.ts';
import type { SelectItem } from './SelectList.tsx';
import { type Row, type ScopeChoice, scopeLabel } from './browser-rows.ts';
import { TextInput } from './TextInput.tsx';
import { useTheme, type Theme } from './theme.ts';
import type { StoreData } from './use-store-data.ts';

/** The scope picker's items: every scope of the store, projects and plans with their effective-set key. */
export function scopeChoices(data: StoreData): SelectItem<ScopeChoice>[] {
  const items: SelectItem<ScopeChoice>[] = [
    { label: 'all scopes', value: { kind: 'all' } },
    { label: 'global', value: { kind: 'global' } },
  ];
  const projects = new Set(data.catalog.projects);
  for (const { invariant } of data.items) if (invariant.scope.kind === 'project') projects.add(invariant.scope.project);
  for (const p of [...projects].sort())
    items.push({ label: `project ${p}`, value: { kind: 'project', project: p }, hint: 'e: effective set' });
  for (const a of data.catalog.actions) {
    const [ns = '', name = ''] = a.split('/');
    items.push({ label: `action ${a}`, value: { kind: 'action', ns, name } });
  }
  // The policy sources' templates, as the listing of every scope holds them (SOURCE:NS/NAME), after the store's own.
  const fromSources = new Map<string, ScopeChoice>();
  for (const { invariant } of data.items)
    if (invariant.scope.kind === 'action' && invariant.scope.source !== undefined)
      fromSources.set(actionName(invariant.scope), invariant.scope);
  for (const [a, value] of [...fromSources].sort(([x], [y]) => (x < y ? -1 : 1))) items.push({ label: `action ${a}`, value });
  for (const plan of data.catalog.plans) {
    items.push({
      label: `plan ${plan.id}`,
      value: { kind: 'plan', plan: plan.id },
      hint: plain(['e: effective set', plan.project ? `project ${plan.project}` : '', plan.goal ?? ''].filter(Boolean).join(' · ')),
    });
  }
  return items;
}

/**
 * A warning of the effective set on the notice line: what it says first (the plan and the project a plan whose project
 * is gone names), then its code and place, then what to do, so that a narrow terminal cuts the place and the hint
 * rather than the names (the stderr line, `warningLine`, leads with the place, which takes a row of 40 columns alone).
 */
export function noticeWords(d: Diagnostic): string {
  return `${d.code}: ${escapeUnsafe(d.message)} (${location(d)})${d.hint ? `. ${escapeUnsafe(d.hint)}` : ''}`;
}

/** `e` where the set is no project's or plan's: from the list, and from the scope picker. */
export const EFFECTIVE_NEEDS_TARGET =
  'The effective set belongs to a project or a plan: choose one with s (or select one of its invariants).';
export const EFFECTIVE_PICK_TARGET = 'The effective set belongs to a project or a plan: pick one of those and press e.';

/**
 * The status line's words in the rows it has: the browser's own long hints in fewer words where the whole one would be
 * cut (25 columns by 8 rows), the first wording that fits whole, so that what to do is said whole; any other message,
 * and the shortest where none fits, is cut with "…" past the rows.
 */
export function statusWords(status: string, width: number, rows: number): string[] {
  const wordings =
    status === EFFECTIVE_NEEDS_TARGET
      ? [status, 'The effective set belongs to a project or plan: press s.', 'e: choose a project or plan with s.']
      : status === EFFECTIVE_PICK_TARGET
        ? [status, 'The effective set belongs to a project or plan: pick one.', 'e: pick a project or plan.']
        : [status];
  let lines: string[] = [];
  for (const words of wordings) {
    lines = clipToRows(plain(words), width, rows);
    if (!lines.at(-1)!.endsWith('…')) break;
  }
  return lines;
}

/**
 * The title's parts within `width`: whether it starts with "agents · " (`brand`), what it says is shown (`mode`: the
 * scope, or the effective set of a project or plan) and the store's total after `count` (`total`, dimmed). So that the
 * count, which past the width was cut off, stays in the title: "agents · " gives way where it would leave the name a
 * few columns, then the total where not even those are left; a plan's id is whole where there is room for it and the
 * count, else short (as its rows give ids); "effective set of" is left to the count ("in effect") where it leaves the
 * name no room; a long name is cut with "…".
 */
export function titleParts(
  scope: ScopeChoice,
  effective: Target | undefined,
  count: string,
  storeTotal: string,
  width: number,
  short: (id: string) => string,
): { brand: boolean; mode: string; total: string } {
  const left = (brand: boolean, total: string) => width - `${brand ? 'agents · ' : ''} · ${count}${total}`.length;
  const brand = left(true, storeTotal) >= 12;
  const total = brand || left(false, storeTotal) >= 4 ? storeTotal : '';
  const room = Math.max(4, left(brand, total));
  if (!effective) return { brand, total, mode: fitColumns(scopeLabel(scope), room) };
  const set = 'effective set of ';
  const name =
    effective.kind === 'project'
      ? `project ${effective.project}`
      : `plan ${`${set}plan ${effective.plan}`.length <= room ? effective.plan : short(effective.plan)}`;
  return { brand, total, mode: fitColumns(`${set}${name}`.length <= room || room - set.length >= 12 ? `${set}${name}` : name, room) };
}

/** The status or notice line's rows (cut to the terminal's width already, by clipToRows), in one colour. */
export function MessageLines({ lines, color }: { lines: readonly string[]; color: ReturnType<Theme['hue']> }): ReactElement {
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the rows of one message, which never move.
        <Text key={i} color={color} wrap="truncate-end">
          {line}
        </Text>
      ))}
    </Box>
  );
}

/** E, W or I in the severity's colour. */
function sevMark(theme: Theme, inv: ScopedInvariant): ReactElement {
  const mark = inv.severity === 'error' ? 'E' : inv.severity === 'warning' ? 'W' : 'I';
  return <Text color={theme.hue(inv.severity === 'error' ? 'red' : inv.severity === 'warning' ? 'yellow' : 'cyan')}>{mark}</Text>;
}

/** The columns a row keeps for its marker, severity and text before the id beside them gives way. */
const MIN_TEXT_COLUMNS = 12;

/** One line of the list: a scope heading, or an invariant (greyed when hidden or inactive, with a note saying why). */
export function RowLine({
  row,
  selected,
  width,
  short,
  idWidth,
}: {
  row: Row;
  selected: boolean;
  width: number;
  short: (id: string) => string;
  idWidth: number;
}): ReactElement {
  const theme = useTheme();
  if (row.kind === 'header') {
    return (
      <Text bold color={theme.hue('cyan')} wrap="truncate-end">
        {`${row.label} (${row.count})`}
      </Text>
    );
  }
  const inv = row.invariant;
  // The shortest prefix unique in the store: any command takes it back (core/id-prefix.ts). Where it would leave the
  // text less than a word or two (ids that share most of their characters, on a narrow terminal), it gives way: cut,
  // it would be a prefix no command takes back, and the detail pane gives the selected one whole.
  const id = idWidth + 1 + MIN_TEXT_COLUMNS <= width ? ` ${short(inv.id).padStart(idWidth)}` : '';
  const greyed = row.hiddenBy !== undefined || !inv.active;
  const note = row.hiddenBy
    ? `↳ hidden by ${short(row.hiddenBy.id)}: `
    : !inv.active
      ? '(inactive) '
      : row.shadow?.shadowedBy.length
        ? // Hidden on purpose (a copy names it in `overrides`) is said as the other views say it.
          relationWords(inv, row.shadow).hiddenBy.every(([word]) => word === 'overridden by')
          ? '(overridden) '
          : '(shadowed) '
        : row.waivers?.some((w) => w.holds)
          ? '(waived) '
          : row.waivers?.length
            ? '(waiver expired) '
            : '';
  const textWidth = Math.max(1, width - id.length);
  return (
    <Box width={width}>
      <Box width={textWidth} height={1} overflow="hidden">
        <Text wrap="truncate-end" inverse={selected} dimColor={greyed && theme.dim} color={greyed ? theme.hue('gray') : undefined}>
          {selected ? '› ' : '  '}
          {sevMark(theme, inv)}
          {/* After the marker and the severity letter: three columns. */}
          {fitColumns(` ${note}${plain(inv.text)}`, textWidth - 3)}
        </Text>
      </Box>
      <Text dimColor={theme.dim}>{id}</Text>
    </Box>
  );
}

/** The detail pane of the selected row: its fields, what hides or shadows it, its waivers; cut to the pane. */
export function Detail({ row, height, width }: { row: Row | undefined; height: number; width: number }): ReactElement {
  const theme = useTheme();
  const lines: ReactElement[] = [];
  // A line the pane cuts keeps its "…" though a wide character crosses the edge (plain.ts).
  const cut = (text: string) => fitColumns(text, width);
  if (row?.kind === 'item') {
    const inv = row.invariant;
    const meta = [describeScope(inv.scope), inv.severity, inv.active ? 'active' : 'inactive', ...inv.tags.map((t) => `#${t}`)].join(' · ');
    lines.push(
      <Text key="id" bold wrap="truncate-end">
        {cut(plain(`${inv.id}  ${meta}`))}
      </Text>,
    );
    // Broken as clipToRows breaks it, so that the rows left for the copies it hides or is hidden by are known.
    const textRows = clipToRows(plain(inv.text), width, Math.max(1, height - 2));
    lines.push(<Text key="text">{textRows.join('\n')}</Text>);
    if (inv.rationale)
      lines.push(
        <Text key="why" wrap="truncate-end" dimColor={theme.dim}>
          {cut(`rationale: ${plain(inv.rationale.replace(/\s+/g, ' '))}`)}
        </Text>,
      );
    lines.push(
      <Text key="path" wrap="truncate-end" dimColor={theme.dim}>
        {cut(`path: ${plain(inv.path)}`)}
      </Text>,
    );
    if (inv.created_at || inv.created_by)
      lines.push(
        <Text key="by" wrap="truncate-end" dimColor={theme.dim}>
          {cut(plain(`created ${inv.created_at ?? ''}${inv.created_by ? ` by ${inv.created_by}` : ''}`))}
        </Text>,
      );
    if (row.hiddenBy)
      lines.push(
        <Text
          key="hb"
          color={theme.hue('yellow')}
          wrap="truncate-end"
        >{`hidden here by ${describeScope(row.hiddenBy.scope)} ${row.hiddenBy.id}`}</Text>,
      );
    const relations = row.shadow ? relationWords(inv, row.shadow) : { hides: [], hiddenBy: [] };
    const related = [...relations.hiddenBy.map((r) => ['b', ...r] as const), ...relations.hides.map((r) => ['s', ...r] as const)];
    // Two rows each: after its date, scope and owner (an e-mail address), one row left the reason a word or two.
    const waivers = (row.waivers ?? []).map((w) => ({ w, rows: clipToRows(plain(waiverPlainLine(w)), width, 2) }));
    // The copies it hides or is hidden by, as many as fit above its waivers, the last row counting the rest (`invariant
    // show` lists them all): a global copy that 20 projects shadow is never shown as shadowed by the first few alone.
    const room = height - lines.length - textRows.length - waivers.reduce((n, { rows }) => n + rows.length, 0);
    const shown = related.length <= room ? related.length : Math.max(0, room - 1);
    for (const [key, word, o] of related.slice(0, shown))
      lines.push(
        <Text key={`${key}${o.path}`} color={theme.hue('yellow')} wrap="truncate-end">{`${word} ${describeScope(o.scope)} ${o.id}`}</Text>,
      );
    if (shown < related.length && room > 0)
      lines.push(
        <Text key="more" color={theme.hue('yellow')}>
          {fitColumns(`${shown > 0 ? '… and ' : '… '}${related.length - shown} more (invariant show ${inv.id} lists them all)`, width)}
        </Text>,
      );
    for (const { w, rows } of waivers) {
      lines.push(
        <Text key={`w${w.id}`} color={theme.hue(w.holds ? 'yellow' : 'red')}>
          {rows.join('\n')}
        </Text>,
      );
    }
  } else {
    lines.push(
      <Text key="none" dimColor={theme.dim}>
        Nothing selected.
      </Text>,
    );
  }
  return (
    <Box flexDirection="column" height={height} width={width} overflow="hidden">
      {/* At its full height, cut at the pane's foot: lines in a box of fixed height would shrink and be drawn over each other. */}
      <Box flexDirection="column" flexShrink={0}>
        <Text dimColor={theme.dim}>{'─'.repeat(width)}</Text>
        {lines}
      </Box>
    </Box>
  );
}

/**
 * The line under the title: the filter being typed (with why its pattern filters nothing), else that problem, the
 * status, or the pattern in force.
 */
export function FilterLine({
  filtering,
  pattern,
  setPattern,
  done,
  problem,
  statusLines,
  width,
}: {
  filtering: boolean;
  pattern: string;
  setPattern: (pattern: string) => void;
  /** Enter: the pattern is kept and typing ends. */
  done: () => void;
  problem: string | undefined;
  statusLines: readonly string[];
  width: number;
}): ReactElement {
  const theme = useTheme();
  return filtering ? (
    <Box>
      {/* Kept whole: a field filled to its width beside a problem would otherwise squeeze the "/" out of the row. */}
      <Box flexShrink={0}>
        <Text color={theme.hue('cyan')}>/</Text>
      </Box>
      {/* One row: a pattern longer than the terminal shows its end (where typing goes), never pushing the title off;
          beside a problem, within half the row. */}
      <Box flexShrink={0}>
        <TextInput
          value={pattern}
          onChange={setPattern}
          onSubmit={done}
          fit={{ columns: problem ? Math.floor(width / 2) : width - 1, rows: 1 }}
        />
      </Box>
      {problem ? <Text color={theme.hue('red')} wrap="truncate-end">{`  ✗ ${plain(problem)}`}</Text> : null}
    </Box>
  ) : problem ? (
    <Text color={theme.hue('red')} wrap="truncate-end">
      {fitColumns(plain(`/${pattern}  ✗ ${problem}`), width)}
    </Text>
  ) : statusLines.length > 0 ? (
    <MessageLines lines={statusLines} color={theme.hue('green')} />
  ) : pattern ? (
    <Text wrap="truncate-end">{fitColumns(plain(`/${pattern}`), width)}</Text>
  ) : (
    <Text dimColor={theme.dim}> </Text>
  );
}
