import { Box, Text, type Key } from 'ink';
import { clipToRows, fitKeys, plain } from './plain.ts';
import { useKeys } from './use-keys.ts';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import { errorSummary } from '../present/diagnostics.ts';
import { AgentsError, EXIT_CODES } from '../core/errors.ts';
import { IdAbbreviations } from '../core/id-prefix.ts';
import { scopeFolder } from '../core/model.ts';
import type { EffectiveResult, InvariantService } from '../service/invariant-service.ts';
import { BrowserWrite, type WriteOverlay } from './BrowserWrite.tsx';
import { Help, helpFits } from './Help.tsx';
import { SelectList } from './SelectList.tsx';
import { windowTop, type Row, type ScopeChoice } from './browser-rows.ts';
import { useTheme } from './theme.ts';
import { storeGone, useStoreData } from './use-store-data.ts';
import { useTerminalSize, type TerminalSize } from './use-terminal-size.ts';
import { FitsOrTooSmall, MIN_SIZE, tooSmall } from './TooSmall.tsx';
import {
  Detail,
  EFFECTIVE_NEEDS_TARGET,
  EFFECTIVE_PICK_TARGET,
  FilterLine,
  MessageLines,
  RowLine,
  noticeWords,
  scopeChoices,
  statusWords,
  titleParts,
} from './browser-parts.tsx';
import { useFilteredRows, useSettledPattern } from './use-filtered-rows.ts';

export interface BrowserProps {
  service: InvariantService;
  scope?: ScopeChoice;
  pattern?: string;
  /** Start with the effective set of `scope` (a project or a plan). */
  effective?: boolean;
  /** Fixed size (tests); the terminal's otherwise. */
  size?: TerminalSize;
  onQuit(): void;
  /** Errors the browser cannot show inline (an unreadable store). */
  onError(error: unknown): void;
}

type Overlay = { kind: 'none' } | { kind: 'help' } | { kind: 'scope' } | WriteOverlay;
type Target = { project: string } | { plan: string };

/** The project or plan a scope names, whose effective set `e` opens. */
function targetOf(scope: ScopeChoice): Target | undefined {
  return scope.kind === 'project' ? { project: scope.project } : scope.kind === 'plan' ? { plan: scope.plan } : undefined;
}

/**
 * The store browser (`agents tui`): every invariant grouped by scope, a live
 * regex filter, a scope switcher, the effective set of a project or plan with
 * hidden copies greyed under what hides them, and a detail pane. Only the
 * rows that fit on screen are rendered.
 */
export function Browser(props: BrowserProps): ReactElement {
  const terminal = useTerminalSize();
  const size = props.size ?? terminal;
  // Behind the too-small notice the browser takes no key, but q (and Esc) still leave it: leaving acts on nothing.
  useKeys(
    (input, key) => {
      if (input === 'q' || key.escape) props.onQuit();
    },
    { isActive: tooSmall(size) },
  );
  return (
    <FitsOrTooSmall size={size} width={props.size ? props.size.columns : '100%'}>
      <BrowserScreen {...props} size={size} />
    </FitsOrTooSmall>
  );
}

function BrowserScreen({
  service,
  scope: initialScope,
  pattern: initialPattern,
  effective: startEffective,
  size,
  onQuit,
  onError,
}: BrowserProps & { size: TerminalSize }): ReactElement {
  const theme = useTheme();
  const { columns, rows: height } = size;
  const width = Math.max(MIN_SIZE.columns, columns);
  const { data, reload, problem: unread } = useStoreData(service, onError);
  const abbreviations = useMemo(
    () =>
      new IdAbbreviations(
        data ? [...data.items.map((i) => i.invariant.id), ...data.inherited.map((i) => i.id), ...data.catalog.plans.map((p) => p.id)] : [],
      ),
    [data],
  );
  const short = useCallback((id: string) => abbreviations.short(id), [abbreviations]);
  const [scope, setScope] = useState<ScopeChoice>(initialScope ?? { kind: 'all' });
  const [pattern, setPattern] = useState(initialPattern ?? '');
  const [filtering, setFiltering] = useState(false);
  const [effective, setEffective] = useState<EffectiveResult | undefined>();
  const [cursor, setCursor] = useState(0);
  const [showDetail, setShowDetail] = useState(true);
  const [overlay, setOverlay] = useState<Overlay>({ kind: 'none' });
  const [status, setStatus] = useState('');
  const top = useRef(0);

  const applied = useSettledPattern(pattern, filtering);
  const { rows, whole, problem } = useFilteredRows(data, effective, applied, scope);

  const selectable = useMemo(() => rows.flatMap((r, i) => (r.kind === 'item' ? [i] : [])), [rows]);
  const sel = Math.min(cursor, Math.max(0, selectable.length - 1));
  const selectedRow = selectable.length ? selectable[sel] : undefined;
  const selected = selectedRow !== undefined ? rows[selectedRow] : undefined;

  // Height: title, filter/status line, list, detail pane, key line; one spare row so Ink never scrolls the screen.
  // The list keeps at least one row: on a short terminal the detail pane shrinks, and goes when not even its rule and
  // one line fit, so the screen never outgrows the terminal.
  // A line of its own, where the terminal has rows to spare: a store that could not be read again (while that lasts),
  // the inherited invariants a policy source not fetched leaves out of the list, or what the effective set lacks.
  const notice =
    unread !== undefined
      ? { text: `✗ ${unread} · the list is as read before`, hue: 'red' as const }
      : data?.inheritedMissing !== undefined
        ? { text: `! ${data.inheritedMissing}`, hue: 'yellow' as const }
        : effective !== undefined && effective.warnings.length > 0
          ? { text: `! ${effective.warnings.map(noticeWords).join(' · ')}`, hue: 'yellow' as const }
          : undefined;
  // The status and notice lines get the rows they need, taken from the list (the detail pane gives way first) down to
  // its one row: a refusal's point is at its end ("this store cannot change it", the file and line to fix), which a
  // row or two cut off on a short or narrow terminal. Only what the screen has no rows for at all is cut with "…".
  // The scope picker keeps its question, its position and one choice below them (the question alone on one row below 8).
  const spare = height - 3 - (overlay.kind === 'scope' ? (height >= 8 ? 3 : 2) : 1);
  const showNotice = notice !== undefined && height >= 7;
  const statusLines = !filtering && !problem && status ? statusWords(status, width, Math.max(1, spare - (showNotice ? 1 : 0))) : [];
  const noticeLines = showNotice ? clipToRows(plain(notice.text), width, Math.max(1, spare - statusLines.length)) : [];
  // On 5 rows the scope picker's question, with the list's position, takes the status row while nothing is said there.
  const questionOnStatus = overlay.kind === 'scope' && height < 6 && !filtering && !problem && statusLines.length === 0 && pattern === '';
  const room = Math.max(1, height - 3 - Math.max(1, statusLines.length) - noticeLines.length);
  const paneFits = Math.min(9, Math.max(4, Math.floor(height / 3)), room - 1);
  const detailHeight = showDetail && paneFits >= 2 ? paneFits : 0;
  const listHeight = Math.max(1, room - detailHeight);
  top.current = windowTop(rows.length, selectedRow ?? 0, listHeight, top.current);
  const visible = rows.slice(top.current, top.current + listHeight);
  const idWidth = visible.reduce((w, r) => (r.kind === 'item' ? Math.max(w, short(r.invariant.id).length) : w), 0);

  const target = useCallback(
    (): Target | undefined => targetOf(scope) ?? (selected?.kind === 'item' ? targetOf(selected.invariant.scope) : undefined),
    [scope, selected],
  );

  /**
   * A change or a set the store refused: said on the status line. Where the refusal names something the store no
   * longer holds (an invariant or plan another process removed while the screen was open), the store is read again so
   * that its rows go too; an invalid file is left to the status line, which already says what reading again would.
   */
  const refused = useCallback(
    (error: unknown) => {
      if (!(error instanceof AgentsError) || error.exitCode === EXIT_CODES.internal) return onError(error);
      // A store removed meanwhile is the cause, not the id it no longer holds: the reload says it is gone, once.
      if (storeGone(service)) return void reload();
      setStatus(errorSummary(error));
      if (error.exitCode === EXIT_CODES.usage) void reload();
    },
    [service, onError, reload],
  );

  /** The project or plan whose effective set the view shows or is opening; `loads` counts the reads of a set, so that only the latest lands. */
  const wanted = useRef<Target | undefined>(
    startEffective && (initialScope?.kind === 'project' || initialScope?.kind === 'plan') ? targetOf(initialScope) : undefined,
  );
  const loads = useRef(0);
  /** Whether the set loading is one `e` opened (the cursor goes to its top) rather than the one shown, read again. */
  const opening = useRef(false);
  const closeEffective = () => {
    wanted.current = undefined;
    loads.current++;
    setEffective(undefined);
  };

  const loadEffective = useCallback(
    async (t: Target, options: { refresh?: boolean } = {}) => {
      const mine = ++loads.current;
      try {
        const result = await service.effective(t);
        if (mine !== loads.current) return;
        setEffective(result);
        // A refresh of the same set keeps the cursor and the status line (which says what the change was).
        if (!options.refresh || opening.current) {
          opening.current = false;
          setCursor(0);
          setStatus('');
        }
      } catch (error) {
        if (mine !== loads.current) return;
        wanted.current = undefined;
        opening.current = false;
        if (!options.refresh || !(error instanceof AgentsError) || error.exitCode === EXIT_CODES.internal || storeGone(service))
          return refused(error);
        // The set is gone with the change (a project's last invariant removed takes its folder): the view goes back to
        // the list instead of showing the set as it was, and the status line keeps what the change did.
        setEffective(undefined);
        setStatus((said) => (said ? `${said} · ${errorSummary(error)}` : errorSummary(error)));
      }
    },
    [service, refused],
  );

  /**
   * `e` off the effective view: the set of the chosen project or plan, or of the selected invariant's. The store is
   * read again first (unless `read` says it just was) and the set loaded once it is, so that the set's hidden copies
   * and ids are found among the files as they are now, not as the screen first read them.
   */
  const openEffective = (t = target(), read = true) => {
    if (!t) return setStatus(EFFECTIVE_NEEDS_TARGET);
    wanted.current = t;
    loads.current++;
    opening.current = true;
    // A store that cannot be read again (a file broken meanwhile) leaves no new data to load the set on: it is loaded now,
    // unless `e` closed it (or another set was asked for) while the store was being read.
    if (read) void reload().then((fresh) => (fresh || wanted.current !== t ? undefined : loadEffective(t)));
  };
  /** A key that needs the list (`e`, `d`) typed before the store's first read landed, made once it has. */
  const ahead = useRef<'e' | 'd' | undefined>(undefined);

  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed only when the store's data changes, not when the view does.
  useEffect(() => {
    if (data && ahead.current) {
      const key = ahead.current;
      ahead.current = undefined;
      if (key === 'e' && !wanted.current) openEffective(target(), false);
      else if (key === 'd') removeSelected();
    }
    // After a read (a change made, an effective set opened, the first read), the set shown or opening is loaded from
    // the store as read, the cursor where the user put it.
    if (wanted.current && data) void loadEffective(wanted.current, { refresh: true });
  }, [data]);

  /** `d`: the remove confirmation of the selected invariant. */
  const removeSelected = () => {
    if (selected?.kind !== 'item') return;
    const id = selected.invariant.id;
    // As `invariant remove`: an id this store cannot remove (inherited from a policy source) is refused before asking.
    service
      .resolveId(id)
      .then(() => service.show(id))
      .then((info) => setOverlay({ kind: 'remove', info }), refused);
  };

  // Before the store's first read lands (seconds, for a large store), moves typed ahead count from the top and the
  // render clamps them to the list once it is there: against an empty list, G and the first j or PgDn went nowhere.
  const last = data ? Math.max(0, selectable.length - 1) : Number.MAX_SAFE_INTEGER;
  const clamp = (n: number) => Math.min(Math.max(n, 0), last);
  /** One key of the list; false when the key changed the mode, so the rest of a typed-ahead chunk goes elsewhere. */
  const listKey = (input: string, key: Key): boolean => {
    const page = Math.max(1, listHeight - 1);
    if (key.upArrow || input === 'k') setCursor((c) => clamp(Math.min(c, last) - 1));
    else if (key.downArrow || input === 'j') setCursor((c) => clamp(Math.min(c, last) + 1));
    else if (key.pageUp) setCursor((c) => clamp(Math.min(c, last) - page));
    else if (key.pageDown || input === ' ') setCursor((c) => clamp(Math.min(c, last) + page));
    else if (key.home || input === 'g') setCursor(0);
    else if (key.end || input === 'G') setCursor(last);
    else if (key.return || key.tab) setShowDetail((d) => !d);
    else if (input === '/') {
      setFiltering(true);
      return false;
    } else if (input === 's') setOverlay({ kind: 'scope' });
    else if (input === '?') setOverlay({ kind: 'help' });
    else if (input === 'a') setOverlay({ kind: 'add' });
    else if (input === 'e') {
      if (wanted.current) {
        closeEffective();
        setCursor(0);
      } else if (!data && !target()) {
        // Before the store is read, the selected invariant is not known yet: e is made once the list is there (as the
        // moves typed ahead are), instead of told that nothing is selected; a second e takes it back.
        ahead.current = ahead.current === 'e' ? undefined : 'e';
      } else openEffective();
    } else if (input === 'd') {
      // As e: before the store is read, on the row the moves typed with it select once the list is there.
      if (!data) ahead.current = 'd';
      else if (selected?.kind !== 'item') return true;
      else removeSelected();
    } else if (input === 'q') onQuit();
    else if (key.escape) {
      if (pattern !== '') setPattern('');
      else onQuit();
    } else return true;
    return !['s', '?', 'a', 'e', 'd', 'q'].includes(input);
  };

  useKeys(
    (input, key) => {
      setStatus('');
      const plain = !key.ctrl && !key.meta && input.length > 1;
      if (!plain) return void listKey(input, key);
      // Keys typed ahead arrive as one chunk: take them one by one; after `/` the rest is the pattern.
      const chars = [...input];
      for (let i = 0; i < chars.length; i++) {
        if (listKey(chars[i]!, { ...key, return: false })) continue;
        if (chars[i] === '/') setPattern((p) => p + chars.slice(i + 1).join(''));
        break;
      }
    },
    { isActive: overlay.kind === 'none' && !filtering },
  );

  useKeys(
    (_input, key) => {
      if (key.escape) {
        setPattern('');
        setFiltering(false);
      }
    },
    { isActive: overlay.kind === 'none' && filtering },
  );

  useKeys(
    (_input, key) => {
      if (key.escape) setOverlay({ kind: 'none' });
    },
    { isActive: overlay.kind === 'scope' },
  );

  const hiddenIn = (list: readonly Row[]) => list.filter((r) => r.kind === 'item' && r.hiddenBy).length;
  const itemsIn = (list: readonly Row[]) => list.filter((r) => r.kind === 'item').length;
  const hidden = hiddenIn(rows);
  let count = `${selectable.length} shown`;
  if (effective && whole && whole !== rows) {
    const allHidden = hiddenIn(whole);
    count = `${selectable.length - hidden} of ${itemsIn(whole) - allHidden} in effect, ${hidden} of ${allHidden} hidden`;
  } else if (effective) count = `${selectable.length - hidden} in effect, ${hidden} hidden`;
  // The store's whole count, dimmed after the list's: measured with it, so that titleParts leaves it room.
  const storeTotal = data && !effective ? ` of ${data.items.length}` : '';
  const { brand, mode, total } = titleParts(scope, effective?.target, count, storeTotal, width, short);
  const title = (
    <Text wrap="truncate-end">
      {brand ? <Text bold>agents · </Text> : null}
      {/* No count before the store is read: "0 shown" would say, for the seconds a large store takes, that it holds none. */}
      {data ? `${mode} · ${count}` : mode}
      {total ? <Text dimColor={theme.dim}>{total}</Text> : null}
    </Text>
  );

  if (overlay.kind === 'add' || overlay.kind === 'remove') {
    return (
      <BrowserWrite
        overlay={overlay}
        service={service}
        width={width}
        rows={height}
        close={() => setOverlay({ kind: 'none' })}
        say={setStatus}
        reload={reload}
        refused={refused}
        onError={onError}
      />
    );
  }

  let middle: ReactElement;
  if (overlay.kind === 'help') middle = <Help width={width} height={room} onClose={() => setOverlay({ kind: 'none' })} />;
  else if (overlay.kind === 'scope' && data) {
    const choices = scopeChoices(data);
    const at = choices.findIndex((c) =>
      c.value.kind === 'all' ? scope.kind === 'all' : scope.kind !== 'all' && scopeFolder(c.value) === scopeFolder(scope),
    );
    // Title, status (and notice), this question, the list's position line, the key line and the spare row; on a terminal
    // too short for all of them, the position goes after the question, which takes the blank status row on 5 rows.
    const roomy = height >= 8;
    const asks = height >= 6 || questionOnStatus;
    middle = (
      <Box flexDirection="column">
        <SelectList
          items={choices}
          initialIndex={Math.max(0, at)}
          width={width}
          label={asks ? 'Show which scope? (↑↓, Enter; e effective set of a project or plan; Esc back)' : undefined}
          height={Math.max(1, roomy ? room - 2 : questionOnStatus ? room : room - 1)}
          position={roomy ? true : 'label'}
          onSelect={(choice) => {
            setScope(choice);
            closeEffective();
            setCursor(0);
            setOverlay({ kind: 'none' });
          }}
          onKey={(input, choice) => {
            if (input !== 'e' || !choice) return;
            if (choice.kind !== 'project' && choice.kind !== 'plan') return setStatus(EFFECTIVE_PICK_TARGET);
            setScope(choice);
            setOverlay({ kind: 'none' });
            openEffective(targetOf(choice));
          }}
        />
      </Box>
    );
  } else if (!data) middle = <Text dimColor={theme.dim}>reading the store…</Text>;
  else {
    // Wrapped in the rows the list has, cut with "…" past them: a wrapped line the list's height clipped lost its end unsaid.
    const nothing = applied ? 'No invariants match the filter.' : 'No invariants here. Press a to add one.';
    middle = (
      <Box flexDirection="column" width={width}>
        <Box flexDirection="column" height={listHeight}>
          {visible.length === 0 ? <Text dimColor={theme.dim}>{clipToRows(nothing, width, listHeight).join('\n')}</Text> : null}
          {visible.map((row, i) => (
            <RowLine
              // biome-ignore lint/suspicious/noArrayIndexKey: a row is keyed by its position in the whole list, not in the window.
              key={top.current + i}
              row={row}
              selected={top.current + i === selectedRow}
              width={width}
              short={short}
              idWidth={idWidth}
            />
          ))}
        </Box>
        {showDetail ? <Detail row={selected} height={detailHeight} width={width} /> : null}
      </Box>
    );
  }

  const filterLine = (
    <FilterLine
      filtering={filtering}
      pattern={pattern}
      setPattern={setPattern}
      done={() => setFiltering(false)}
      problem={problem}
      statusLines={statusLines}
      width={width}
    />
  );

  return (
    <Box flexDirection="column" width={width}>
      {title}
      {questionOnStatus ? null : filterLine}
      {notice && noticeLines.length > 0 ? <MessageLines lines={noticeLines} color={theme.hue(notice.hue)} /> : null}
      {middle}
      <Text dimColor={theme.dim} wrap="truncate-end">
        {keyLine(filtering, overlay.kind, width, overlay.kind === 'help' && !helpFits(width, room))}
      </Text>
    </Box>
  );
}

/**
 * The keys of the mode the browser is in, as the forms' key lines give only those of their step: while a pattern is
 * typed, `q` is a letter of it, and the scope picker takes no `/` or `a`. On a narrow terminal keys give way in the
 * order given (`giveWay`, indices), so that the way out (and to the help) stays on screen instead of being cut off the
 * line's end, and in the scope picker the key that chooses (Enter) stays after the arrows its question names.
 */
function keyLine(filtering: boolean, overlay: Overlay['kind'], width: number, helpScrolls: boolean): string {
  const [parts, giveWay]: [string[], number[]] =
    overlay === 'scope'
      ? [
          ['↑↓ move', 'Enter show it', 'e effective set', 'Esc back'],
          [2, 0, 1],
        ]
      : overlay === 'help'
        ? // Scrolled, the help keeps both ways on the line: the short words where the long ones do not fit.
          [helpScrolls ? ['↑↓ more', width >= 28 ? 'any other key back' : 'else back'] : ['any key back'], []]
        : filtering
          ? [['Enter keep the filter', 'Esc clear it'], [0]]
          : [
              ['↑↓ move', '/ filter', 's scope', 'e effective', 'a add', 'd remove', '? help', 'q quit'],
              [5, 4, 3, 2, 1, 0],
            ];
  return fitKeys(parts, giveWay, width);
}
