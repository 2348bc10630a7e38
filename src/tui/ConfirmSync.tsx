import { Box, Text } from 'ink';
import type { ReactElement } from 'react';
import { activeChangeText } from '../present/plan.ts';
import type { SyncResult } from '../service/plan-service.ts';
import { plain } from './plain.ts';
import { useKeys } from './use-keys.ts';
import { useTheme } from './theme.ts';

export interface ConfirmSyncProps {
  preview: SyncResult;
  width?: number;
  /** y → true; n, Enter (the default) or Esc → false. */
  onAnswer(yes: boolean): void;
}

/**
 * What `plan sync` would change in a plan — each promoted invariant changed
 * (before → after), removed or added, and what it leaves alone — then y/N
 * (default No), as the remove confirmation asks.
 */
export function ConfirmSync({ preview, width = 80, onAnswer }: ConfirmSyncProps): ReactElement {
  const theme = useTheme();
  useKeys((input, key) => {
    if (input === 'y' || input === 'Y') onAnswer(true);
    else if (input === 'n' || input === 'N' || key.return || key.escape) onAnswer(false);
  });
  const n = preview.changes.length;
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>
        {'Sync plan '}
        <Text color={theme.hue('cyan')}>{preview.plan.id}</Text>
        {` with its action template: ${n} change${n === 1 ? '' : 's'}`}
      </Text>
      {preview.changes.map((c) => {
        if (c.kind === 'changed') {
          const fields = c.drift.fields ?? [];
          return (
            <Box key={`c${c.before.id}`} flexDirection="column" paddingLeft={2}>
              <Text wrap="truncate-end">
                <Text color={theme.hue('yellow')}>changed</Text>
                {`  ${c.before.id} (${fields.join(', ')})`}
              </Text>
              {c.before.text !== c.after.text ? (
                <Text wrap="wrap">{plain(`    "${c.before.text}" → "${c.after.text}"`)}</Text>
              ) : (
                <Text wrap="wrap">{plain(`    ${c.after.text}`)}</Text>
              )}
              {c.before.severity !== c.after.severity ? <Text>{`    severity ${c.before.severity} → ${c.after.severity}`}</Text> : null}
              {c.before.active !== c.after.active ? <Text>{`    ${activeChangeText(c.before, c.after)}`}</Text> : null}
            </Box>
          );
        }
        if (c.kind === 'removed') {
          return (
            <Box key={`r${c.before.id}`} paddingLeft={2}>
              <Text wrap="wrap">
                <Text color={theme.hue('red')}>removed</Text>
                {plain(`  ${c.before.id} "${c.before.text}" (its origin ${c.drift.origin_id} left ${c.drift.action})`)}
              </Text>
            </Box>
          );
        }
        return (
          <Box key={`a${c.origin.id}`} paddingLeft={2}>
            <Text wrap="wrap">
              <Text color={theme.hue('green')}>added</Text>
              {plain(`    "${c.origin.text}" (${c.origin.severity}, from ${c.drift.action} ${c.origin.id})`)}
            </Text>
          </Box>
        );
      })}
      {preview.skipped.map((k) => (
        <Box key={`s${k.drift.kind}${k.drift.origin_id}`} paddingLeft={2}>
          <Text dimColor={theme.dim} wrap="wrap">
            {plain(`skipped  ${k.drift.kind} ${k.drift.origin_id}: ${k.reason}`)}
          </Text>
        </Box>
      ))}
      <Text dimColor={theme.dim}>Invariants added to the plan by hand are not touched.</Text>
      <Text bold>Apply these changes? [y/N]</Text>
    </Box>
  );
}
