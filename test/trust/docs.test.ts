// What a new user reads (issue 30, H): the library's import name and the
// install instructions match the package as it is.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';

const read = (p: string) => readFileSync(join(REPO, p), 'utf8');

describe('docs a new user follows', () => {
  it('docs/library.md imports from the package name (package.json), never from "agents"', () => {
    const name = (JSON.parse(read('package.json')) as { name: string }).name;
    const imports = [...read('docs/library.md').matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
    expect(imports.length).toBeGreaterThan(0);
    for (const i of imports) expect(i === name || i.startsWith(`${name}/`), i).toBe(true);
  });

  it('the README installs from the repository at the tag the pre-commit docs name, and does not say the package is on npm', () => {
    const readme = read('README.md');
    const install = readme.slice(readme.indexOf('## Install'), readme.indexOf('## Commands'));
    expect(install).not.toMatch(/published on npm/);
    const rev = /rev: (v[0-9.]+)/.exec(read('docs/validation.md'))![1]!;
    expect(install).toContain(`npm install --save-dev github:agents-invariants/agents#${rev}`);
    const version = (JSON.parse(read('package.json')) as { version: string }).version;
    expect(rev).toBe(`v${version}`);
  });

  it('every install from the repository, in the README and docs/, names the tag of this version', () => {
    const version = (JSON.parse(read('package.json')) as { version: string }).version;
    const pages = [
      'README.md',
      ...readdirSync(join(REPO, 'docs'))
        .filter((f) => f.endsWith('.md') || f.endsWith('.yml'))
        .map((f) => `docs/${f}`),
    ];
    const tags = pages.flatMap((p) => [...read(p).matchAll(/github:agents-invariants\/agents#([^\s`'")]+)/g)].map((m) => `${p}: ${m[1]}`));
    expect(tags.length).toBeGreaterThan(2);
    expect(tags.filter((t) => !t.endsWith(`: v${version}`))).toEqual([]);
  });

  it('docs/guarantees.md says who is trusted with the git folder', () => {
    expect(read('docs/guarantees.md')).toMatch(/A user who can write `\.git\/` is trusted/);
  });
});
