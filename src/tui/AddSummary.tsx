// The add and edit form's last step (AddForm.tsx holds the steps): what will be written, what the text meets, and the
// question, within the terminal's rows.
import { Box, Text } from 'ink';
import type { ReactElement } from 'react';
import { describeScope, invariantPath, type Guard, type Scope, type ScopedInvariant, type Severity } from '../core/model.ts';
import type { Diagnostic } from '../core/diagnostics.ts';
import type { AddCheck } from '../core/shadow.ts';
import type { NearMatch } from '../service/invariant-service.ts';
import { AddFeedback } from './AddFeedback.tsx';
import { guardSummary } from './GuardStep.tsx';
import { clipToRows, fitColumns, plain } from './plain.ts';

export interface AddSummaryProps {
  text: string;
  scope: Scope | undefined;
  severity: Severity;
  /** The tags as they are saved (typedTags), not as typed. */
  tags: readonly string[];
  rationale: string;
  guard: Guard;
  editing: ScopedInvariant | undefined;
  active: boolean;
  check: AddCheck | undefined;
  near: readonly NearMatch[];
  /** The problems of the invalid files the form left unread, said beside what the text meets. */
  incomplete: readonly Diagnostic[] | undefined;
  inheritedMissing: string | undefined;
  saving: boolean;
  width: number;
  /** The rows the form has for this step: the terminal's, less its title, key line, a problem and the spare row. */
  rows: number;
}

interface Line {
  key: string;
  rows: string[];
  /** Left out, lowest first, when the terminal is too short for every line: an answer left empty, the scope its title names, the file, the severity and state. */
  spare?: number;
}

export function AddSummary(props: AddSummaryProps): ReactElement {
  const { text, scope, tags, rationale, guard, editing, width, rows } = props;
  // A long answer takes up to 5 rows on a tall terminal, one on a short one.
  const summaryRows = Math.max(1, Math.min(5, Math.floor((rows - 11) / 2)));
  // On one row an answer is cut where the row ends: broken at a space, a first word too long for the rest of the
  // label's row (a text without spaces, CJK) went to a row left out, the answer shown as "…" alone.
  const clip = (line: string) => (summaryRows === 1 ? [fitColumns(line, width)] : clipToRows(line, width, summaryRows));
  const guardLine = `guard     ${plain(guardSummary(guard).join('; '))}`;
  const path = editing ? editing.path : scope ? invariantPath(scope, '<new id>') : '';
  const lines: Line[] = [
    { key: 'text', rows: clip(`text      ${plain(text.trim())}`) },
    { key: 'scope', rows: [`scope     ${scope ? describeScope(scope) : ''}`], spare: 2 },
    { key: 'severity', rows: [`severity  ${props.severity}`], spare: 4 },
    tags.length === 0
      ? { key: 'tags', rows: ['tags      (none)'], spare: 1 }
      : { key: 'tags', rows: clip(`tags      ${plain(tags.join(', '))}`) },
    rationale.trim() === ''
      ? { key: 'rationale', rows: ['rationale (none)'], spare: 1 }
      : { key: 'rationale', rows: clip(`rationale ${plain(rationale.trim())}`) },
    Object.values(guard).every((entries) => (entries ?? []).length === 0)
      ? { key: 'guard', rows: [guardLine], spare: 1 }
      : { key: 'guard', rows: clip(guardLine) },
    ...(editing ? [{ key: 'state', rows: [`state     ${props.active ? 'active' : 'inactive'}`], spare: 4 }] : []),
    { key: 'file', rows: [`file      ${plain(path)}`], spare: 3 },
  ];
  // What the text meets takes two rows at least (one, then none, on a terminal of a few rows), and the question one:
  // the spare lines go, lowest first, until the rest fits, so that the form's title stays on screen.
  const feedback = rows >= 5 ? 2 : rows >= 3 ? 1 : 0;
  const room = rows - 1 - feedback;
  const count = (ls: readonly Line[]) => ls.reduce((n, l) => n + l.rows.length, 0);
  let shown = lines;
  for (const level of [1, 2, 3, 4]) {
    if (count(shown) <= room) break;
    shown = shown.filter((l) => (l.spare ?? 0) > level || l.spare === undefined);
  }
  // Still too many (a refusal said under the question on a terminal of a few rows): the answers that fit, from the first.
  if (count(shown) > room) {
    let left = Math.max(0, room);
    shown = shown.filter((l) => (left -= l.rows.length) >= 0);
  }
  return (
    <Box flexDirection="column" width={width}>
      {shown.map((l) => (
        // A line of one row is cut to it (a scope or file longer than the width); longer ones are already clipped to theirs.
        <Text key={l.key} wrap={l.rows.length === 1 ? 'truncate-end' : 'wrap'}>
          {l.rows.join('\n')}
        </Text>
      ))}
      {feedback > 0 ? (
        <AddFeedback
          check={props.check}
          text={text}
          near={props.near}
          incomplete={props.incomplete}
          inheritedMissing={props.inheritedMissing}
          width={width}
          rows={Math.max(feedback, rows - 1 - count(shown))}
        />
      ) : null}
      <Text bold>{props.saving ? 'writing…' : editing ? 'Save the changes? [Y/n]' : 'Add it? [Y/n]'}</Text>
    </Box>
  );
}
