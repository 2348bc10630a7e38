import { describe, expect, it } from 'vitest';
import { makeStyle } from '../../src/core/style.ts';
import { showText } from '../../src/present/invariant.ts';

describe('invariant show as text', () => {
  it('gives every field the file holds, overrides among them', () => {
    const text = showText(
      {
        invariant: {
          id: '01M8KJZS90J6DRJJ8E264B9DFX',
          text: 'Log all changes',
          severity: 'warning',
          active: true,
          tags: [],
          overrides: '01M8KJW430VF8WCABSB8RTQ8RY',
          scope: { kind: 'project', project: 'myapp' },
          path: 'projects/myapp/01M8KJZS90J6DRJJ8E264B9DFX.yaml',
        },
        appliesTo: 'project myapp',
        shadow: { shadows: [], shadowedBy: [] },
      },
      makeStyle(false),
    );
    expect(text.split('\n').map((row) => row.split(/ {2,}/))).toContainEqual(['overrides', '01M8KJW430VF8WCABSB8RTQ8RY']);
  });
});
