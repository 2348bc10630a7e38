import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { diffJson, diffJsonDeferred, diffText } from '../../src/present/diff.ts';
import { diffMarkdownLines } from '../../src/present/diff-markdown.ts';
import { ReviewService } from '../../src/service/review-service.ts';
import { makeStyle } from '../../src/core/style.ts';
import { runAgents } from '../helpers/main.ts';
import { Repo, ulid } from './repo.ts';

/**
 * A store of 9 projects (more than one piece of effective sets in JSON, 4 a
 * piece) where 5 global invariants are added, one edited and one removed:
 * each change is listed in every project's effective set.
 */
function manyTargets(): Repo {
  const repo = new Repo();
  repo.inv('global', ulid('GA'), 'Keep the changelog current').inv('global', ulid('GB'), 'Log all changes');
  for (let p = 0; p < 9; p++) repo.inv(`projects/p${p}`, ulid(`P${p}`), `Project ${p} keeps its own rule`);
  repo.commit('base');
  for (let g = 0; g < 5; g++) repo.inv('global', ulid(`N${g}`), `New global rule number ${g}`);
  repo.inv('global', ulid('GA'), 'Keep the changelog current and dated', { severity: 'warning' });
  repo.rm(`global/${ulid('GB')}.yaml`);
  // A project copy that shadows a new global rule in one project only.
  repo.inv('projects/p3', ulid('S3'), 'New global rule number 2');
  return repo;
}

describe('invariant diff writes what it makes, piece by piece', () => {
  it('prints the same text, markdown, JSON and YAML as the whole documents', async () => {
    const repo = manyTargets();
    const d = await new ReviewService(repo.store).diff({});
    expect(d.targets.length).toBe(9);
    expect(d.targets.every((t) => t.entered.length >= 5)).toBe(true);

    const text = await runAgents(['invariant', 'diff'], { cwd: repo.dir });
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(`${diffText(d, makeStyle(false))}\n`);

    const md = await runAgents(['invariant', 'diff', '--format', 'markdown'], { cwd: repo.dir });
    expect(md.stdout).toBe([...diffMarkdownLines(d)].map((l) => `${l}\n`).join(''));
    expect(md.stdout.startsWith('<!-- agents-invariant-diff -->\n### Invariant changes\n')).toBe(true);

    const json = await runAgents(['--format', 'json', 'invariant', 'diff'], { cwd: repo.dir });
    expect(json.stdout).toBe(`${JSON.stringify(diffJson(d), null, 2)}\n`);
    expect(JSON.stringify(diffJsonDeferred(d), null, 2)).toBe(JSON.stringify(diffJson(d), null, 2));

    const yaml = await runAgents(['--format', 'yaml', 'invariant', 'diff'], { cwd: repo.dir });
    expect(yaml.code).toBe(0);
    expect(yaml.stdout).toBe(stringify(diffJson(d), { aliasDuplicateObjects: false, lineWidth: 0 }));
  });

  it('answers --exit-code after writing the pieces', async () => {
    const repo = manyTargets();
    const r = await runAgents(['invariant', 'diff', '--exit-code'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('Effective set of project')).length).toBe(9);
  });
});
