import { describe, expect, it } from 'vitest';
import { preCommitRuns } from '../../src/core/pre-commit-config.ts';

const config = (hooks: string, top = '') =>
  `${top}repos:\n  - repo: https://github.com/agents-invariants/agents\n    rev: v0.2.0\n    hooks:\n${hooks}`;

describe('preCommitRuns: the hooks of this tool a pre-commit config runs at each commit', () => {
  it('finds each hook by its id, in any repo entry (a local one too)', () => {
    expect([...preCommitRuns(config('      - id: agents-validate\n'), undefined)]).toEqual(['agents-validate']);
    const local =
      'repos:\n  - repo: local\n    hooks:\n      - id: agents-export-check\n        name: x\n        entry: npx agents export --check\n        language: system\n';
    expect([...preCommitRuns(local, undefined)]).toEqual(['agents-export-check']);
    expect([...preCommitRuns(config('      - id: agents-export-check\n      - id: agents-validate\n'), undefined)].sort()).toEqual([
      'agents-export-check',
      'agents-validate',
    ]);
    // A hook of another id that only mentions the command is not the tool's.
    expect(preCommitRuns(config('      - id: lint\n        args: [agents-validate]\n'), undefined).size).toBe(0);
  });

  it('counts a hook only for the store it checks: its args --store, or none for .agents', () => {
    const plain = config('      - id: agents-validate\n');
    expect(preCommitRuns(plain, 'tools/policy').size).toBe(0);
    for (const args of ['[--store, tools/policy]', '[--store=tools/policy/]', '["--store", "./tools/policy"]'])
      expect(
        preCommitRuns(config(`      - id: agents-validate\n        args: ${args}\n`), 'tools/policy').has('agents-validate'),
        args,
      ).toBe(true);
    expect(preCommitRuns(config('      - id: agents-validate\n        args: [--store, other]\n'), undefined).size).toBe(0);
  });

  it('leaves out a hook that runs at other stages only (its own, or the default ones)', () => {
    expect(preCommitRuns(config('      - id: agents-validate\n        stages: [manual]\n'), undefined).size).toBe(0);
    expect(preCommitRuns(config('      - id: agents-validate\n        stages: [commit]\n'), undefined).size).toBe(1);
    expect(preCommitRuns(config('      - id: agents-validate\n', 'default_stages: [pre-push]\n'), undefined).size).toBe(0);
    expect(
      preCommitRuns(config('      - id: agents-validate\n        stages: [pre-commit]\n', 'default_stages: [pre-push]\n'), undefined).size,
    ).toBe(1);
  });

  it('finds none in a text that is not a pre-commit config: not YAML, another shape, empty, or a comment naming the hook', () => {
    for (const text of ['', 'repos: [', 'repos: agents-validate\n', '- id: agents-validate\n', '# - id: agents-validate\nrepos: []\n'])
      expect(preCommitRuns(text, undefined).size, JSON.stringify(text)).toBe(0);
  });
});
