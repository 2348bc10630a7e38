// A policy source config.yaml names without a matching pin is refused (extends-not-pinned) at its place in
// config.yaml, as config.yaml's other errors are: with several sources, the one to update is named by line.
import { describe, expect, it } from 'vitest';
import { errorOf, runAgents } from '../helpers/main.ts';
import { testStore } from '../helpers/tmp.ts';

const COMMIT = 'a'.repeat(40);

/** A lock pinning `org` at v1 by tag: what `extends update` would write for the first source below. */
const LOCK = `version: 1\nsources:\n  - name: org\n    url: https://git.example.com/org.git\n    ref: v1\n    kind: tag\n    commit: ${COMMIT}\n`;

async function refusal(tree: Record<string, string>) {
  const store = testStore(tree);
  const r = await runAgents(['--store', store, '--format', 'json', 'invariant', 'list', '--effective', '--project', 'web']);
  const text = await runAgents(['--store', store, 'invariant', 'list', '--effective', '--project', 'web']);
  return { code: r.code, error: errorOf(r), stderr: text.stderr };
}

describe('extends-not-pinned names the source and its file:line:col in config.yaml', () => {
  it('a source with no pin: its entry', async () => {
    const r = await refusal({
      'projects/web/project.yaml': 'paths: [web/**]\n',
      'config.yaml': 'version: 1\n# the organisation rules\nextends:\n  - url: https://git.example.com/org.git\n    ref: v1\n',
    });
    expect([r.code, r.error.code, r.error.detail]).toEqual([
      2,
      'extends-not-pinned',
      { source: 'org', file: 'config.yaml', line: 4, col: 5 },
    ]);
    expect(r.stderr).toContain('config.yaml:4:5');
  });

  it('of two sources, the second (a flow map) not pinned: its entry, not the first', async () => {
    const r = await refusal({
      'projects/web/project.yaml': 'paths: [web/**]\n',
      'config.yaml':
        'extends:\n  - url: https://git.example.com/org.git\n    ref: v1\n  - {url: https://git.example.com/team.git, ref: main}\n',
      'extends.lock.yaml': LOCK,
    });
    expect([r.error.code, r.error.detail]).toEqual(['extends-not-pinned', { source: 'team', file: 'config.yaml', line: 4, col: 5 }]);
  });

  it.each([
    ['ref', 'extends:\n  - url: https://git.example.com/org.git\n    ref: v2\n', { line: 3, col: 10 }],
    ['url', 'extends:\n  - name: org\n    url: https://git.example.com/other/org.git\n    ref: v1\n', { line: 3, col: 10 }],
    ['path', 'extends:\n  - url: https://git.example.com/org.git\n    ref: v1\n    path: policy\n', { line: 4, col: 11 }],
  ])('a %s that differs from the pin: that key', async (_, config, place) => {
    const r = await refusal({ 'projects/web/project.yaml': 'paths: [web/**]\n', 'config.yaml': config, 'extends.lock.yaml': LOCK });
    expect([r.error.code, r.error.detail]).toEqual(['extends-not-pinned', { source: 'org', file: 'config.yaml', ...place }]);
  });
});
