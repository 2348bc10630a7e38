import { Box, Text } from 'ink';
import type { ReactElement } from 'react';
import type { Plan } from '../core/model.ts';
import { clipToRows, plain } from './plain.ts';
import { useYesNo } from './use-keys.ts';
import { useTheme } from './theme.ts';

export interface ConfirmPlanRemoveProps {
  plan: Plan;
  width?: number;
  /** y → true; n, Enter (the default) or Esc → false. */
  onAnswer(yes: boolean): void;
}

const QUESTION = 'Remove this plan with its invariants, records and waivers? [y/N]';

/** The plan `plan remove` would remove (id, project, action, goal), then y/N (default No), as the other confirmations ask. */
export function ConfirmPlanRemove({ plan, width = 80, onAnswer }: ConfirmPlanRemoveProps): ReactElement {
  const theme = useTheme();
  useYesNo(onAnswer);
  const of = [plan.project ? `project ${plan.project}` : undefined, plan.action ? `action ${plan.action}` : undefined].filter(Boolean);
  return (
    <Box flexDirection="column">
      <Text bold>{clipToRows(`Plan ${plan.id}${of.length > 0 ? ` (${of.join(', ')})` : ''}`, width, 2).join('\n')}</Text>
      {plan.goal ? <Text>{clipToRows(plain(plan.goal), width, 3).join('\n')}</Text> : null}
      <Text color={theme.hue('yellow')}>{clipToRows(QUESTION, width, 2).join('\n')}</Text>
    </Box>
  );
}
