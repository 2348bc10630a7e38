import { describe, expect, it } from 'vitest';
import { planImport, severityOf, type ImportFile } from '../../src/core/import-plan.ts';
import { refuseOverlaps } from '../../src/core/import-overlaps.ts';
import { appliesTo, globKey, importTarget, instructionKind, lenientFrontMatter, projectName } from '../../src/core/import-sources.ts';
import { parseFrontMatter } from '../../src/service/import-files.ts';
import type { ScopedInvariant } from '../../src/core/model.ts';
import { nameProblem } from '../../src/core/names.ts';

describe('instructionKind', () => {
  it.each([
    ['AGENTS.md', 'agents-md'],
    ['apps/web/AGENTS.md', 'agents-md'],
    ['CLAUDE.md', 'claude-md'],
    ['services/api/CLAUDE.local.md', 'claude-md'],
    ['GEMINI.md', 'gemini-md'],
    ['.github/copilot-instructions.md', 'copilot'],
    ['.github/instructions/react.instructions.md', 'copilot-instructions'],
    ['.cursor/rules/api.mdc', 'cursor'],
    ['apps/web/.cursor/rules/ui/forms.mdc', 'cursor'],
    ['.cursorrules', 'cursorrules'],
    ['.windsurfrules', 'windsurfrules'],
    ['.windsurf/rules/style.md', 'windsurf'],
    ['.clinerules', 'clinerules'],
    ['.clinerules/testing.md', 'clinerules'],
    ['.ruler/instructions.md', 'ruler'],
    ['.ruler/AGENTS.md', 'ruler'],
    ['README.md', undefined],
    ['docs/AGENTS.txt', undefined],
    ['.github/instructions/react.md', undefined],
  ])('%s → %s', (rel, kind) => expect(instructionKind(rel)).toBe(kind));
});

describe('lenientFrontMatter: Cursor and Windsurf front matter that YAML refuses', () => {
  it('reads unquoted globs and booleans, trailing blanks cut', () => {
    expect(lenientFrontMatter('globs: **/*.ts, src/**  \t\nalwaysApply: false\n# a comment\n')).toEqual({
      globs: '**/*.ts, src/**',
      alwaysApply: false,
    });
  });

  it('reads no key given twice: its first value would be dropped unsaid, so the file is YAML, and a broken one', () => {
    expect(lenientFrontMatter('globs: a/**\nglobs: b/**\n')).toBeUndefined();
  });

  it('reads a line with a long run of blanks inside its value in one pass', async () => {
    // A lazy value before the trailing blanks tried each blank of the run against the rest of the line.
    await new Promise((resolve) => setImmediate(resolve));
    expect(lenientFrontMatter(`globs: **/*.ts${' '.repeat(300_000)}x`)).toEqual({ globs: `**/*.ts${' '.repeat(300_000)}x` });
  });
});

describe('parseFrontMatter: why front matter cannot be read, where in the file', () => {
  it('names the lines of the file, the front matter starting on its second', async () => {
    const why = await parseFrontMatter('.cursor/rules/a.mdc', 'globs: a/**\nglobs: b/**');
    // The key given again on line 3, first given on line 2: not the lines of the front matter's own text.
    expect(why).toEqual(expect.stringContaining('.cursor/rules/a.mdc:3:1:'));
    expect(why).toEqual(expect.stringContaining('line 2)'));
    expect(await parseFrontMatter('a.mdc', 'globs: [')).toEqual(expect.stringContaining('a.mdc:2:8:'));
  });

  it('a glob YAML reads as a number is the text the file writes, as the agents read it, alone or in a list', async () => {
    expect(await parseFrontMatter('a.mdc', 'globs: 42\ndescription: 7')).toEqual({ globs: '42', description: 7 });
    expect(await parseFrontMatter('a.mdc', 'globs: [a/**, 3, 0x10]')).toEqual({ globs: ['a/**', '3', '0x10'] });
    expect(await parseFrontMatter('a.md', 'applyTo: 1e3')).toEqual({ applyTo: '1e3' });
    const front = await parseFrontMatter('a.mdc', 'globs:\n  - 007\n  - src/**');
    expect(appliesTo('cursor', front as Record<string, unknown>).globs).toEqual(['007', 'src/**']);
  });

  it('a glob that is no text (a boolean, a map, an empty item) is why the front matter cannot be read, at its place', async () => {
    const why = (text: string, key = 'globs') => parseFrontMatter('.cursor/rules/a.mdc', text, key === 'globs', key);
    expect(await why('description: x\nglobs: [src/**, true]')).toEqual(expect.stringContaining('.cursor/rules/a.mdc:3:17)'));
    expect(await why('globs:\n  - src/**\n  - {a: b}')).toEqual(expect.stringContaining('.cursor/rules/a.mdc:4:5)'));
    expect(await why('applyTo: true', 'applyTo')).toEqual(expect.stringContaining('.cursor/rules/a.mdc:2:10)'));
    expect(await why('paths: [a/**, ]', 'paths')).toEqual({ paths: ['a/**'] });
    expect(await why('paths: [a/**, null]', 'paths')).toEqual(expect.stringContaining(':2:15)'));
    // Text, numbers (read as written) and no globs at all are read as before.
    expect(await why('globs: [src/**, 3]')).toEqual({ globs: ['src/**', '3'] });
    expect(await why('globs:\nalwaysApply: true')).toEqual({ globs: null, alwaysApply: true });
    // Only the kind's own key: another key's values are none of its globs.
    expect(await why('globs: [true]', 'applyTo')).toEqual({ globs: [true] });
  });

  it("Cursor's and Windsurf's bare globs are read to the end of the line, a leading # too (as the export writes them)", async () => {
    const text = 'description: Hash\nglobs: #hash/**\nalwaysApply: false';
    const front = await parseFrontMatter('.cursor/rules/agents-hash.mdc', text, true);
    expect(appliesTo('cursor', front as Record<string, unknown>).globs).toEqual(['#hash/**']);
    // Where the value is YAML (Copilot's applyTo, Cline's paths), a # starts a comment.
    expect(await parseFrontMatter('a.instructions.md', 'globs: #x/**')).toEqual({ globs: null });
  });

  it.each([
    ['cursor', 'description: "API: errors"\nglobs: *.ts, src/**\nalwaysApply: false', ['*.ts', 'src/**']],
    ['cursor', "description: 'It''s TypeScript'\nglobs: **/*.{ts,tsx}", ['**/*.{ts,tsx}']],
    ['cursor', 'description: >\n  Folded\n  text\nglobs: *.ts', ['*.ts']],
    ['cursor', 'globs:\n  - *.ts\n  - "lib/**"\n\n  - !vendor/**\nalwaysApply: false', ['*.ts', 'lib/**', '!vendor/**']],
    ['cursor', 'globs:\n- *.ts\ndescription: "A: b"', ['*.ts']],
    ['cursor', 'description: "A: b"\nglobs: [*.ts, "lib/**", *.{js,jsx},]', ['*.ts', 'lib/**', '*.{js,jsx}']],
    ['cursor', 'globs: [**/*.go]', ['**/*.go']],
    ['cursor', 'globs: {src,lib}/**/*.ts', ['{src,lib}/**/*.ts']],
    ['cursor', 'globs:\n  - {a,b}/*.md', ['{a,b}/*.md']],
    ['windsurf', 'trigger: glob\ndescription: "Go: style"\nglobs: **/*.go', ['**/*.go']],
    ['copilot-instructions', 'name: "Python: style"\napplyTo: **/*.py', ['**/*.py']],
    ['clinerules', 'description: "Docs: style"\npaths:\n  - *.md\n  - docs/**', ['*.md', 'docs/**']],
  ] as const)(
    '%s globs written bare beside a quoted value, in a list or in brackets, are read as their agent reads them: %j',
    async (kind, text, globs) => {
      const front = await parseFrontMatter('r.md', text, kind === 'cursor' || kind === 'windsurf', globKey(kind));
      expect(typeof front).toBe('object');
      expect(appliesTo(kind, front as Record<string, unknown>).globs).toEqual(globs);
    },
  );

  it('a boolean beside bare globs in brackets is no glob, named at its place, as in a list YAML reads', async () => {
    expect(await parseFrontMatter('r.mdc', 'globs: [*.ts, true]', true, 'globs')).toEqual(
      expect.stringContaining('which is no glob (r.mdc:2:'),
    );
  });

  it('a front matter broken elsewhere is still named at its own place, the bare globs quoted or not', async () => {
    expect(await parseFrontMatter('r.mdc', 'description: "open\nglobs: *.ts', true, 'globs')).toEqual(
      expect.stringContaining('its front matter is not valid YAML (r.mdc:'),
    );
    expect(await parseFrontMatter('r.mdc', 'globs: *.ts\nglobs: src/**', true, 'globs')).toEqual(
      expect.stringContaining('its front matter is not valid YAML (r.mdc:3:'),
    );
  });
});

describe('importTarget: where a file applies', () => {
  it.each([
    ['AGENTS.md', 'agents-md', undefined, { kind: 'global' }],
    ['apps/web/AGENTS.md', 'agents-md', undefined, { kind: 'project', name: 'web', paths: ['apps/web/**'] }],
    ['apps/Web App/CLAUDE.md', 'claude-md', undefined, { kind: 'project', name: 'web-app', paths: ['apps/Web App/**'] }],
    [
      '.cursor/rules/api.mdc',
      'cursor',
      { globs: 'services/api/**/*.ts' },
      { kind: 'project', name: 'api', paths: ['services/api/**/*.ts'] },
    ],
    ['.cursor/rules/all.mdc', 'cursor', { alwaysApply: true }, { kind: 'global' }],
    [
      'apps/web/.cursor/rules/ui.mdc',
      'cursor',
      { globs: ['src/**', 'test/**'] },
      { kind: 'project', name: 'ui', paths: ['apps/web/src/**', 'apps/web/test/**'] },
    ],
    ['apps/web/.cursor/rules/all.mdc', 'cursor', { alwaysApply: true }, { kind: 'project', name: 'web', paths: ['apps/web/**'] }],
    [
      '.github/instructions/react.instructions.md',
      'copilot-instructions',
      { applyTo: '**/*.tsx,**/*.jsx' },
      { kind: 'project', name: 'react', paths: ['**/*.tsx', '**/*.jsx'] },
    ],
    ['.github/instructions/all.instructions.md', 'copilot-instructions', { applyTo: '**' }, { kind: 'global' }],
    // Every form of "every file", and a list that holds one: the others add nothing to it.
    ['.github/instructions/all.instructions.md', 'copilot-instructions', { applyTo: '**/**' }, { kind: 'global' }],
    ['.github/instructions/all.instructions.md', 'copilot-instructions', { applyTo: '**/**/*' }, { kind: 'global' }],
    ['.github/instructions/all.instructions.md', 'copilot-instructions', { applyTo: '**, docs/**' }, { kind: 'global' }],
    ['apps/web/.cursor/rules/all.mdc', 'cursor', { globs: '**/**, src/**' }, { kind: 'project', name: 'web', paths: ['apps/web/**'] }],
    [
      'apps/web/.cursor/rules/all.mdc',
      'cursor',
      { globs: '**, ../../lib/**' },
      { kind: 'project', name: 'all', paths: ['apps/web/**', 'lib/**'] },
    ],
    [
      '.github/instructions/any.instructions.md',
      'copilot-instructions',
      { applyTo: '**/*.ts' },
      { kind: 'project', name: 'any', paths: ['**/*.ts'] },
    ],
    // A list is split at its top-level commas only: a brace alternation's or a character class's comma is its glob's.
    [
      '.github/instructions/ts.instructions.md',
      'copilot-instructions',
      { applyTo: '**/*.{ts,tsx}, src/[a,b]/**' },
      { kind: 'project', name: 'ts', paths: ['**/*.{ts,tsx}', 'src/[a,b]/**'] },
    ],
    [
      '.cursor/rules/css.mdc',
      'cursor',
      { globs: 'src/**/*.{css,scss},docs/**' },
      { kind: 'project', name: 'css', paths: ['src/**/*.{css,scss}', 'docs/**'] },
    ],
    // So is an item of a YAML list: taken whole, `src/**/*.ts,lib/**/*.ts` would be one glob that matches no file.
    [
      '.cursor/rules/list.mdc',
      'cursor',
      { globs: ['src/**/*.ts,lib/**/*.ts', 'docs/*.{md,mdx}'] },
      { kind: 'project', name: 'list', paths: ['src/**/*.ts', 'lib/**/*.ts', 'docs/*.{md,mdx}'] },
    ],
    ['.github/instructions/list.instructions.md', 'copilot-instructions', { applyTo: ['src/**, **'] }, { kind: 'global' }],
    ['.cursor/rules/quoted.mdc', 'cursor', { alwaysApply: 'true' }, { kind: 'global' }],
    ['.cursor/rules/quoted.mdc', 'cursor', { alwaysApply: ' True ', globs: 'src/**' }, { kind: 'global' }],
    [
      '.cursor/rules/quoted.mdc',
      'cursor',
      { alwaysApply: 'false', globs: 'src/**' },
      { kind: 'project', name: 'quoted', paths: ['src/**'] },
    ],
    ['.windsurf/rules/style.md', 'windsurf', { trigger: 'always_on' }, { kind: 'global' }],
    ['.clinerules/web.md', 'clinerules', { paths: ['web/**'] }, { kind: 'project', name: 'web', paths: ['web/**'] }],
    ['.ruler/AGENTS.md', 'ruler', undefined, { kind: 'global' }],
    ['packages/ui/.ruler/style.md', 'ruler', undefined, { kind: 'project', name: 'ui', paths: ['packages/ui/**'] }],
    ['.ruler/style.md', 'ruler', undefined, { kind: 'global' }],
  ] as const)('%s', (rel, kind, front, want) => {
    expect(importTarget(rel, kind, appliesTo(kind, front as Record<string, unknown> | undefined))).toEqual(want);
  });

  it('a Cursor rule neither always on nor tied to files is skipped, with a reason', () => {
    expect(importTarget('.cursor/rules/howto.mdc', 'cursor', appliesTo('cursor', { description: 'How to deploy' })).kind).toBe('skip');
  });

  // VS Code applies an instructions file without applyTo only when it is attached to a chat: no standing rule either.
  it.each([
    ['a Cursor rule on request', '.cursor/rules/howto.mdc', 'cursor', { description: 'How to deploy' }],
    ['a Copilot instruction without applyTo', '.github/instructions/git.instructions.md', 'copilot-instructions', { description: 'Git' }],
    ['a Copilot instruction with an empty applyTo', '.github/instructions/git.instructions.md', 'copilot-instructions', { applyTo: '' }],
    ['a Copilot instruction without front matter', '.github/instructions/git.instructions.md', 'copilot-instructions', undefined],
  ] as const)('%s is skipped, and goes where --project says, as the reason tells', (_name, rel, kind, front) => {
    const applies = appliesTo(kind, front as Record<string, unknown> | undefined);
    expect(importTarget(rel, kind, applies)).toMatchObject({ kind: 'skip', why: expect.stringContaining('--project') });
    expect(importTarget(rel, kind, applies, 'ops')).toEqual({ kind: 'project', name: 'ops', paths: [], given: true });
  });

  // Windsurf's trigger decides how a rule applies: globs count only for `trigger: glob`.
  it.each([
    ['always_on', { trigger: 'always_on', globs: 'src/**' }, { kind: 'global' }],
    ['glob', { trigger: 'glob', globs: 'src/**/*.ts' }, { kind: 'project', name: 'style', paths: ['src/**/*.ts'] }],
    ['none, with globs', { globs: 'src/**/*.ts' }, { kind: 'project', name: 'style', paths: ['src/**/*.ts'] }],
    ['manual, with globs', { trigger: 'manual', globs: 'src/**/*.ts' }, { kind: 'skip', why: expect.stringContaining('manual') }],
    [
      'model_decision',
      { trigger: 'model_decision', description: 'Tests' },
      { kind: 'skip', why: expect.stringContaining('model_decision') },
    ],
    ['glob, without globs', { trigger: 'glob' }, { kind: 'skip', why: expect.stringContaining('glob') }],
    ['unknown', { trigger: 'sometimes', globs: 'src/**' }, { kind: 'skip', why: expect.stringContaining('"sometimes"') }],
  ] as const)('a Windsurf rule with trigger %s', (_name, front, want) => {
    const applies = appliesTo('windsurf', front);
    expect(importTarget('.windsurf/rules/style.md', 'windsurf', applies)).toEqual(want);
    if (want.kind === 'skip') {
      expect(importTarget('.windsurf/rules/style.md', 'windsurf', applies, 'ops')).toEqual({
        kind: 'project',
        name: 'ops',
        paths: [],
        given: true,
      });
    }
  });

  it('a rule file whose globs project.yaml would refuse is skipped, naming the glob', () => {
    for (const glob of ['../../etc/**', '/etc/**', 'src//a', '.git/**', 'a\\b']) {
      const t = importTarget('.cursor/rules/x.mdc', 'cursor', appliesTo('cursor', { globs: glob }));
      expect(t, glob).toMatchObject({ kind: 'skip', why: expect.stringContaining(`"${glob}"`) });
    }
    expect(importTarget('.cursor/rules/x.mdc', 'cursor', appliesTo('cursor', { globs: 'src/**' })).kind).toBe('project');
  });

  it('a glob whose {…} holds a "/" is a glob per alternative, as the agents spread it, not a file skipped', () => {
    const t = (globs: unknown) => importTarget('.cursor/rules/x.mdc', 'cursor', appliesTo('cursor', { globs }));
    expect(t('{apps/web,packages}/**')).toEqual({ kind: 'project', name: 'x', paths: ['apps/web/**', 'packages/**'] });
    expect(t(['src/{a/b,c}.ts', 'lib/**'])).toEqual({ kind: 'project', name: 'x', paths: ['src/a/b.ts', 'src/c.ts', 'lib/**'] });
    // An alternation within one segment stays as written: project.yaml takes it.
    expect(t('{apps/web,apps/web}/**/*.{ts,tsx}')).toEqual({
      kind: 'project',
      name: 'x',
      paths: ['apps/web/**/*.ts', 'apps/web/**/*.tsx'],
    });
    expect(t('src/**/*.{ts,tsx}')).toEqual({ kind: 'project', name: 'x', paths: ['src/**/*.{ts,tsx}'] });
    // From a nested rule file's folder, each alternative is read as a glob of its own.
    const nested = importTarget('apps/web/.cursor/rules/up.mdc', 'cursor', appliesTo('cursor', { globs: '{../../lib,src}/**' }));
    expect(nested).toEqual({ kind: 'project', name: 'up', paths: ['lib/**', 'apps/web/src/**'] });
  });

  it("a nested rule file's glob that climbs out of its folder is read from the repository's top, refused only above it", () => {
    const nested = (globs: string) => importTarget('apps/web/.cursor/rules/up.mdc', 'cursor', appliesTo('cursor', { globs }));
    expect(nested('../../lib/**')).toMatchObject({ kind: 'project', name: 'up', paths: ['lib/**'] });
    expect(nested('./src/../test/*.ts')).toMatchObject({ kind: 'project', paths: ['apps/web/test/*.ts'] });
    // Climbed to the top, every file: global, as a top rule's `**` is; its own folder's every file is its folder's project.
    expect(nested('../../**')).toEqual({ kind: 'global' });
    expect(nested('./**')).toMatchObject({ kind: 'project', name: 'web', paths: ['apps/web/**'] });
    // Above the top, or after a pattern (which folder it leaves is unknown): skipped, naming the glob as written.
    for (const glob of ['../../../x/**', '*/../x/**'])
      expect(nested(glob), glob).toMatchObject({ kind: 'skip', why: expect.stringContaining(`"${glob}"`) });
  });

  it('a folder whose name holds a newline or a control character is skipped, naming the character: project.yaml holds plain text only', () => {
    for (const [dir, code] of [
      ['svc/a\nb', 'U+000A'],
      ['svc/e\u001bx', 'U+001B'],
      ['svc/\u202eevil', 'U+202E'],
    ] as const) {
      const t = importTarget(`${dir}/AGENTS.md`, 'agents-md', {});
      expect(t, dir).toMatchObject({ kind: 'skip', why: expect.stringContaining(code) });
      expect(importTarget(`${dir}/AGENTS.md`, 'agents-md', {}, undefined, true)).toEqual({ kind: 'global' });
    }
  });

  it('a folder whose name a glob reads as a pattern ([, *, ?, {) is skipped: its project would cover other folders', () => {
    for (const [rel, kind] of [
      ['app[1]/AGENTS.md', 'agents-md'],
      ['a*b/CLAUDE.md', 'claude-md'],
      ['x{y}/.cursor/rules/r.mdc', 'cursor'],
    ] as const) {
      const applies = kind === 'cursor' ? appliesTo('cursor', { globs: 'src/**' }) : {};
      expect(importTarget(rel, kind, applies), rel).toMatchObject({ kind: 'skip', why: expect.stringContaining('read as a pattern') });
      expect(importTarget(rel, kind, applies, 'web'), rel).toMatchObject({ kind: 'skip' });
      expect(importTarget(rel, kind, applies, undefined, true)).toEqual({ kind: 'global' });
    }
  });

  it('--project overrides the derived project, and puts a top file in it', () => {
    expect(importTarget('apps/web/AGENTS.md', 'agents-md', {}, 'frontend')).toEqual({
      kind: 'project',
      name: 'frontend',
      paths: ['apps/web/**'],
      given: true,
    });
    expect(importTarget('AGENTS.md', 'agents-md', {}, 'frontend')).toEqual({ kind: 'project', name: 'frontend', paths: [], given: true });
  });

  it.each([
    ['web', 'web'],
    ['My API', 'my-api'],
    ['react.instructions.md', 'react'],
    // Accented letters as their letters, not as gaps: not "d-j-vu", nor "t" for "été".
    ['déjà vu', 'deja-vu'],
    ['été', 'ete'],
    ['---', undefined],
  ])('projectName(%j) = %j', (from, name) => expect(projectName(from)).toBe(name));
});

const file = (f: string, target: ImportFile['target'], texts: string[]): ImportFile => ({
  file: f,
  kind: 'agents-md',
  target,
  candidates: texts.map((text, i) => ({ text, line: i + 1, end_line: i + 1, whole: true, tags: [] })),
  leftOut: [],
});
const inv = (id: string, text: string, scope: ScopedInvariant['scope']): ScopedInvariant => ({
  id,
  text,
  severity: 'error',
  active: true,
  tags: [],
  scope,
  path: scope.kind === 'global' ? `global/${id}.yaml` : `projects/x/${id}.yaml`,
});

describe('planImport: nothing said twice', () => {
  const ID = '01M8KJT9G0XNWEM589ZS7FV0VT';

  it('a text said twice is new once; a project copy of a global rule is a duplicate; the store’s copy makes it exist', () => {
    const plan = planImport(
      [
        file('apps/web/AGENTS.md', { kind: 'project', name: 'web', paths: ['apps/web/**'] }, ['Never commit secrets', 'Use Tailwind']),
        file('AGENTS.md', { kind: 'global' }, ['Never commit secrets', 'Run the tests', 'never  COMMIT secrets']),
        file('CLAUDE.md', { kind: 'global' }, ['Log all changes']),
      ],
      [inv(ID, 'Log all changes', { kind: 'global' })],
      new Map(),
      [],
    );
    expect(plan.candidates.map((c) => [c.file, c.line, c.status, c.scope.project ?? 'global'])).toEqual([
      ['AGENTS.md', 1, 'new', 'global'],
      ['AGENTS.md', 2, 'new', 'global'],
      ['AGENTS.md', 3, 'duplicate', 'global'],
      ['CLAUDE.md', 1, 'exists', 'global'],
      ['apps/web/AGENTS.md', 1, 'duplicate', 'web'],
      ['apps/web/AGENTS.md', 2, 'new', 'web'],
    ]);
    expect(plan.candidates[3]!.same_as).toEqual({ id: ID, path: `global/${ID}.yaml` });
    expect(plan.projects).toEqual([{ name: 'web', paths: ['apps/web/**'], exists: false }]);
  });

  it("a rule copied out of an exported block ends with its invariant's id: that invariant exists; an unknown id is text", () => {
    const OTHER = '01M8KJT9G0XNWEM589ZS7FV0VW';
    const plan = planImport(
      [
        file('CLAUDE.md', { kind: 'global' }, [
          `Log every change (${ID})`,
          `Policy text (inherited acme, ${ID})`,
          `Keep it (${ID}; shadows global ${OTHER})`,
          `See (${OTHER})`,
        ]),
      ],
      [inv(ID, 'Log all changes', { kind: 'global' })],
      new Map(),
      [],
    );
    expect(plan.candidates.map((c) => [c.status, c.same_as])).toEqual([
      ['exists', { id: ID, path: `global/${ID}.yaml` }],
      ['exists', { id: ID, path: `global/${ID}.yaml` }],
      ['exists', { id: ID, path: `global/${ID}.yaml` }],
      ['new', undefined],
    ]);
  });

  it('reports near-duplicates in the store, and reuses a project with the same globs', () => {
    const plan = planImport(
      [
        file('.cursor/rules/frontend.mdc', { kind: 'project', name: 'frontend', paths: ['apps/web/**'] }, [
          'Never deletes production data',
        ]),
      ],
      [inv(ID, 'Never delete production data', { kind: 'global' })],
      new Map([['web', { paths: ['apps/web/**'] }]]),
      ['web'],
    );
    expect(plan.candidates[0]).toMatchObject({ status: 'new', scope: { kind: 'project', project: 'web' }, near: [{ id: ID }] });
    expect(plan.projects).toEqual([{ name: 'web', paths: ['apps/web/**'], exists: true }]);
  });

  it("a project whose globs hold the same files written otherwise (apps/web/**/*) is a nested file's project, not a second one", () => {
    const files = [
      file('apps/web/AGENTS.md', { kind: 'project', name: 'web', paths: ['apps/web/**'] }, ['Use server components']),
      file('.cursor/rules/ui.mdc', { kind: 'project', name: 'ui', paths: ['packages/ui/**/**', 'apps/web/**/*'] }, ['Use tokens']),
    ];
    const existing = new Map([
      ['site', { paths: ['apps/web/**/*'] }],
      ['kit', { paths: ['apps/web/**', 'packages/ui/**'] }],
    ]);
    expect(refuseOverlaps(files, existing, ['site', 'kit'], ['apps/web/a.ts', 'packages/ui/b.ts']).map((f) => f.skipped)).toEqual([
      undefined,
      undefined,
    ]);
    const plan = planImport(files, [], existing, ['site', 'kit']);
    expect(Object.fromEntries(plan.candidates.map((c) => [c.text, c.scope.project]))).toEqual({
      'Use server components': 'site',
      'Use tokens': 'kit',
    });
    expect(plan.projects).toEqual([
      { name: 'kit', paths: ['apps/web/**', 'packages/ui/**'], exists: true },
      { name: 'site', paths: ['apps/web/**/*'], exists: true },
    ]);
  });

  it('a nested file whose folder a wider project holds is skipped, its way out naming the file, not every file, with --project', () => {
    const files = [
      file('AGENTS.md', { kind: 'global' }, ['Never commit secrets']),
      file('apps/web/AGENTS.md', { kind: 'project', name: 'web', paths: ['apps/web/**'] }, ['Use server components']),
    ];
    const existing = new Map([['frontend', { paths: ['apps/web/**', 'apps/docs/**'] }]]);
    const out = refuseOverlaps(files, existing, ['frontend'], ['apps/web/a.ts', 'apps/docs/b.md']);
    expect(out[0]!.skipped).toBeUndefined();
    expect(out[1]!.skipped?.match(/\(`agents import (\S+) --project (\S+)`\)/)?.slice(1)).toEqual(['apps/web/AGENTS.md', 'frontend']);
    // A project of some of the folder's files (its .py) is no way out: the folder's rules would reach the rest of it never.
    const typed = refuseOverlaps(files, new Map([['py', { paths: ['**/*.py'] }]]), ['py'], ['apps/web/a.ts']);
    expect(typed[1]!.skipped).toMatch(/overlap project py/);
    expect(typed[1]!.skipped).not.toMatch(/--project/);
    // With projects.allow_overlap the file is read, and the project it shares files with is named, never passed over.
    const allowed = refuseOverlaps(files, existing, ['frontend'], ['apps/web/a.ts', 'apps/docs/b.md'], true);
    expect(allowed.map((f) => [f.skipped, f.overlaps])).toEqual([
      [undefined, undefined],
      [undefined, [{ project: 'frontend', paths: ['apps/web/**', 'apps/docs/**'] }]],
    ]);
  });

  it('with projects.allow_overlap, a rule file whose globs overlap several projects names every one of them', () => {
    const tsx = file('.cursor/rules/tsx.mdc', { kind: 'project', name: 'tsx', paths: ['**/*.tsx'] }, ['Use hooks']);
    const existing = new Map([
      ['web', { paths: ['apps/web/**'] }],
      ['docs', { paths: ['apps/docs/**'] }],
      ['api', { paths: ['services/api/**'] }],
    ]);
    const repoFiles = ['apps/web/a.tsx', 'apps/docs/b.tsx', 'services/api/c.ts'];
    const [allowed] = refuseOverlaps([tsx], existing, ['web', 'docs', 'api'], repoFiles, true);
    expect(allowed!.skipped).toBeUndefined();
    expect(allowed!.overlaps).toEqual([
      { project: 'web', paths: ['apps/web/**'] },
      { project: 'docs', paths: ['apps/docs/**'] },
      { project: 'api', paths: ['services/api/**'] },
    ]);
    // A second new project over the same files names the store's projects and the new one made before it.
    const also = file('.cursor/rules/web.mdc', { kind: 'project', name: 'webfiles', paths: ['apps/web/**/*.tsx'] }, ['Use tokens']);
    const both = refuseOverlaps([tsx, also], existing, ['web', 'docs', 'api'], repoFiles, true);
    expect(both[1]!.overlaps?.map((o) => o.project)).toEqual(['web', 'tsx']);
  });

  it('without projects.allow_overlap, the reason a file is skipped names every project it overlaps, not only the first', () => {
    const tsx = file('.cursor/rules/tsx.mdc', { kind: 'project', name: 'tsx', paths: ['**/*.tsx'] }, ['Use hooks']);
    const existing = new Map([
      ['web', { paths: ['apps/web/**'] }],
      ['docs', { paths: ['apps/docs/**'] }],
      ['api', { paths: ['services/api/**'] }],
    ]);
    const [skipped] = refuseOverlaps([tsx], existing, ['web', 'docs', 'api'], ['apps/web/a.tsx', 'apps/docs/b.tsx', 'services/api/c.ts']);
    expect(skipped!.overlaps).toBeUndefined();
    const named = [...(skipped!.skipped ?? '').matchAll(/\b(web|docs|api) \(([^)]*)\)/g)].map((m) => [m[1], m[2]]);
    expect(named).toEqual([
      ['web', 'apps/web/**'],
      ['docs', 'apps/docs/**'],
      ['api', 'services/api/**'],
    ]);
  });

  it('a folder whose name no project may have (a scope word) is widened as a taken name is, so the import can write it', () => {
    const at = (dir: string, name: string) => ({ kind: 'project' as const, name, paths: [`${dir}/**`] });
    const plan = planImport(
      [
        file('packages/global/AGENTS.md', at('packages/global', 'global'), ['Share nothing mutable']),
        file('plans/AGENTS.md', at('plans', 'plans'), ['Never edit plans by hand']),
      ],
      [],
      new Map(),
      [],
    );
    for (const p of plan.projects) expect(nameProblem(p.name, 'project')).toBeNull();
    expect(plan.projects.map((p) => [p.name, p.paths])).toEqual([
      ['packages-global', ['packages/global/**']],
      ['plans-2', ['plans/**']],
    ]);
  });

  it('two folders of one name become two projects, each named by its folders; an existing project of that name keeps its own paths', () => {
    const web = (dir: string) => ({ kind: 'project' as const, name: 'web', paths: [`${dir}/**`] });
    const fresh = planImport(
      [
        file('apps/web/AGENTS.md', web('apps/web'), ['Use the app router']),
        file('packages/web/AGENTS.md', web('packages/web'), ['Export ESM only']),
      ],
      [],
      new Map(),
      [],
    );
    expect(fresh.projects).toEqual([
      { name: 'apps-web', paths: ['apps/web/**'], exists: false },
      { name: 'packages-web', paths: ['packages/web/**'], exists: false },
    ]);
    expect(fresh.candidates.map((c) => [c.text, c.scope])).toEqual([
      ['Use the app router', { kind: 'project', project: 'apps-web' }],
      ['Export ESM only', { kind: 'project', project: 'packages-web' }],
    ]);
    // Each file is shown in the project it lands in.
    expect(fresh.files.map((f) => f.target.kind === 'project' && f.target.name)).toEqual(['apps-web', 'packages-web']);
    // An existing web holds apps/web: that file lands there; packages/web gets a name of its own, not web's rules.
    const existing = planImport(
      [
        file('apps/web/AGENTS.md', web('apps/web'), ['Use the app router']),
        file('packages/web/AGENTS.md', web('packages/web'), ['Export ESM only']),
      ],
      [],
      new Map([['web', { paths: ['apps/web/**'] }]]),
      ['web'],
    );
    expect(existing.candidates.map((c) => c.scope)).toEqual([
      { kind: 'project', project: 'web' },
      { kind: 'project', project: 'packages-web' },
    ]);
    // A name --project gives is the user's: both files go there.
    const given = (dir: string) => ({ ...web(dir), given: true as const });
    const chosen = planImport(
      [file('apps/web/AGENTS.md', given('apps/web'), ['A']), file('packages/web/AGENTS.md', given('packages/web'), ['B'])],
      [],
      new Map(),
      [],
    );
    expect(chosen.candidates.map((c) => c.scope)).toEqual([
      { kind: 'project', project: 'web' },
      { kind: 'project', project: 'web' },
    ]);
  });

  it('files of one import with the same globs share one project, named by the first by path, and none is skipped as overlapping', () => {
    const files = [
      file('apps/web/AGENTS.md', { kind: 'project', name: 'web', paths: ['apps/web/**'] }, ['Use Tailwind classes']),
      file('.cursor/rules/react.mdc', { kind: 'project', name: 'react', paths: ['apps/web/**'] }, ['Use hooks']),
      file('.cursor/rules/frontend.mdc', { kind: 'project', name: 'frontend', paths: ['apps/web/**'] }, ['Use function components']),
      file('.cursor/rules/docs.mdc', { kind: 'project', name: 'docs', paths: ['docs/**', 'site/**'] }, ['Write plainly']),
      file('.github/instructions/site.instructions.md', { kind: 'project', name: 'site', paths: ['site/**', 'docs/**'] }, ['Link pages']),
    ];
    for (const list of [files, [...files].reverse()]) {
      expect(refuseOverlaps(list, new Map(), [], ['apps/web/a.ts', 'docs/a.md']).map((f) => f.skipped)).toEqual(list.map(() => undefined));
      const plan = planImport(list, [], new Map(), []);
      expect(plan.projects).toEqual([
        { name: 'docs', paths: ['docs/**', 'site/**'], exists: false },
        { name: 'frontend', paths: ['apps/web/**'], exists: false },
      ]);
      expect(Object.fromEntries(plan.candidates.map((c) => [c.text, c.scope.project]))).toEqual({
        'Use Tailwind classes': 'frontend',
        'Use hooks': 'frontend',
        'Use function components': 'frontend',
        'Write plainly': 'docs',
        'Link pages': 'docs',
      });
    }
  });

  it('rule files of one name in different folders are named by their folders, whatever order the files come in', () => {
    const rule = (rel: string, kind: 'cursor' | 'copilot-instructions', globs: string) => {
      const target = importTarget(rel, kind, appliesTo(kind, kind === 'cursor' ? { globs } : { applyTo: globs }));
      return file(rel, target, [`Rule of ${rel}`]);
    };
    const files = [
      rule('.cursor/rules/fe/style.mdc', 'cursor', 'web/**'),
      rule('.cursor/rules/be/style.mdc', 'cursor', 'api/**'),
      rule('.cursor/rules/style.mdc', 'cursor', 'docs/**'),
      rule('.github/instructions/style.instructions.md', 'copilot-instructions', 'site/**'),
    ];
    const names = (list: ImportFile[]) =>
      Object.fromEntries(planImport(list, [], new Map(), []).projects.map((p) => [p.paths.join(','), p.name]));
    const want = { 'web/**': 'fe-style', 'api/**': 'be-style', 'docs/**': 'style', 'site/**': 'style-2' };
    expect(names(files)).toEqual(want);
    expect(names([...files].reverse())).toEqual(want);
    // A project of that name that exists keeps it: the files that tell nothing apart are numbered.
    const held = planImport(files, [], new Map([['style', { paths: ['other/**'] }]]), ['style']);
    expect(held.projects.map((p) => p.name)).toEqual(['be-style', 'fe-style', 'style-2', 'style-3']);
  });

  it.each([
    ['Never push to main', 'error'],
    ['Prefer small functions', 'warning'],
    ['You should avoid globals', 'warning'],
    ['You must never use eval, and should avoid globals', 'error'],
    ['Snapshot tests are discouraged.', 'warning'],
    ['Keep PRs under 400 lines of diff when you can.', 'warning'],
  ])('severityOf(%j) = %s', (text, want) => expect(severityOf(text)).toBe(want));
});

describe('refuseOverlaps: an import never makes projects whose paths overlap', () => {
  const nested = (dir: string) =>
    file(`${dir}/AGENTS.md`, { kind: 'project', name: dir.slice(dir.lastIndexOf('/') + 1), paths: [`${dir}/**`] }, ['Use tabs']);

  it('a folder inside a project, a folder around one, a glob over one: skipped; disjoint folders: kept', () => {
    const files = [
      nested('apps/web'),
      nested('apps/web/admin'),
      nested('apps'),
      nested('libs/ui'),
      file('.cursor/rules/tsx.mdc', { kind: 'project', name: 'tsx', paths: ['**/*.tsx'] }, ['Use hooks']),
    ];
    const out = refuseOverlaps(files, new Map([['web', { paths: ['apps/web/**'] }]]), ['web'], ['apps/web/a.ts', 'libs/ui/b.tsx']);
    expect(Object.fromEntries(out.map((f) => [f.file, f.skipped?.match(/overlap project (\S+)/)?.[1] ?? null]))).toEqual({
      'apps/web/AGENTS.md': null,
      'apps/web/admin/AGENTS.md': 'web',
      'apps/AGENTS.md': 'web',
      'libs/ui/AGENTS.md': null,
      '.cursor/rules/tsx.mdc': 'web',
    });
  });

  it("a file whose globs changed since the import made its project of them names that project's paths to change", () => {
    const style = file('.cursor/rules/style.mdc', { kind: 'project', name: 'style', paths: ['src/**', 'lib/**'] }, ['Use tabs']);
    const existing = new Map([['style', { paths: ['src/**'] }]]);
    const repo = ['src/a.ts', 'lib/b.ts'];
    const [made] = refuseOverlaps(
      [style],
      existing,
      ['style'],
      repo,
      false,
      'agents',
      (r) => r,
      new Map([['style', new Set([style.file])]]),
    );
    expect(made!.skipped).toContain('projects/style/project.yaml');
    expect(made!.skipped).not.toContain('allow_overlap');
    // A project another file's rules made is overlapped as any other.
    const [other] = refuseOverlaps(
      [style],
      existing,
      ['style'],
      repo,
      false,
      'agents',
      (r) => r,
      new Map([['style', new Set(['AGENTS.md'])]]),
    );
    expect(other!.skipped).toContain('allow_overlap');
  });

  it('a file without rules makes no project, so it takes no paths from the files after it', () => {
    const files = [
      file('.cursor/rules/a-empty.mdc', { kind: 'project', name: 'a-empty', paths: ['src/**/*.ts'] }, []),
      file('.cursor/rules/b-ts.mdc', { kind: 'project', name: 'b-ts', paths: ['src/**/*.ts', 'lib/**'] }, ['Use strict mode']),
    ];
    expect(refuseOverlaps(files, new Map(), [], ['src/a.ts']).map((f) => f.skipped)).toEqual([undefined, undefined]);
  });

  it("reads the repository's files once for many rule files with globs, not once for each pair of projects", () => {
    // The files, counting each pass over them: a pass for each new project and each one before it grew as their square.
    class Counted extends Array<string> {
      passes = 0;
      override [Symbol.iterator]() {
        this.passes++;
        return super[Symbol.iterator]();
      }
    }
    const repoFiles = new Counted();
    repoFiles.push('lib/x.ts', 'src/m3/a.ts', 'docs/a.md');
    const files = Array.from({ length: 60 }, (_, i) =>
      file(`.cursor/rules/r${i}.mdc`, { kind: 'project', name: `r${i}`, paths: [`src/m${i}/**/*.ts`] }, [`Use rule ${i}`]),
    );
    // One over another's folder (by the globs), one sharing a file of the repository (lib/x.ts) with a project of the store.
    files.push(file('.cursor/rules/wide.mdc', { kind: 'project', name: 'wide', paths: ['src/m3/**'] }, ['Use wide']));
    files.push(file('.cursor/rules/lib.mdc', { kind: 'project', name: 'lib', paths: ['lib/**/*.ts'] }, ['Use lib']));
    const out = refuseOverlaps(files, new Map([['ts', { paths: ['lib/*.ts'] }]]), ['ts'], repoFiles);
    expect(out.filter((f) => f.skipped !== undefined).map((f) => [f.file, f.skipped?.match(/overlap project (\S+)/)?.[1]])).toEqual([
      ['.cursor/rules/wide.mdc', 'r3'],
      ['.cursor/rules/lib.mdc', 'ts'],
    ]);
    expect(repoFiles.passes).toBeLessThanOrEqual(2);
  });
});
