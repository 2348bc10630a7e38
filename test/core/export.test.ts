import { describe, expect, it } from 'vitest';
import {
  END_MARKER,
  TARGETS,
  exportedEntryIds,
  planExport,
  renderSections,
  scanBlock,
  yamlScalar,
  unexpressedGlobs,
  type ExportProject,
} from '../../src/core/export.ts';
import { mergeBlock, removeBlock } from '../../src/core/export-merge.ts';
import { sameRules } from '../../src/service/export-links.ts';
import { entry, sha256 } from '../helpers/effective.ts';

const hash = sha256;

const G1 = entry('01JDQ6X5Z8W4N3B2C1D0E9F8G1', 'Never delete production data', { kind: 'global' });
const P1 = entry('01JDQ6X5Z8W4N3B2C1D0E9F8G2', 'Amounts are integers of cents', { kind: 'project', project: 'billing' }, 'warning', [
  { id: '01JDQ6X5Z8W4N3B2C1D0E9F8G9', scope: 'global', path: 'global/x.yaml' },
]);

const billing = (paths: string[]): ExportProject => ({ name: 'billing', meta: { paths }, entries: [P1, G1] });

describe('planExport', () => {
  it('gives each target its root file and, per project with paths, its own file or a nested one per folder', () => {
    const files = planExport({
      targets: ['agents-md', 'cursor', 'copilot', 'windsurf', 'cline'],
      global: [G1],
      projects: [billing(['services/billing/**', 'libs/billing/**'])],
      severities: ['error', 'warning', 'info'],
      nested: true,
      storeRel: '.agents',
    });
    expect(files.map((f) => f.path)).toEqual([
      '.clinerules/agents-billing.md',
      '.clinerules/agents-global.md',
      '.cursor/rules/agents-billing.mdc',
      '.cursor/rules/agents-global.mdc',
      '.github/copilot-instructions.md',
      '.github/instructions/agents-billing.instructions.md',
      '.windsurf/rules/agents-billing.md',
      '.windsurf/rules/agents-global.md',
      'AGENTS.md',
      'libs/billing/AGENTS.md',
      'services/billing/AGENTS.md',
    ]);
    const cursor = files.find((f) => f.path === '.cursor/rules/agents-billing.mdc')!;
    expect(cursor.frontMatter).toEqual([
      'description: Invariants of project billing (exported by agents)',
      'globs: services/billing/**,libs/billing/**',
      'alwaysApply: false',
    ]);
    // A project file holds the project's own invariants; the global ones are in the root file.
    expect(cursor.sections[0]!.entries).toEqual([P1]);
  });

  it('gives a project whose paths hold every file (** or **/*) its section in the root AGENTS.md, beside the global one, --project too', () => {
    for (const glob of ['**', '**/*']) {
      const input = {
        targets: ['agents-md', 'cursor'] as const,
        projects: [billing([glob])],
        severities: ['error', 'warning', 'info'] as const,
        nested: true,
        storeRel: '.agents',
      };
      const whole = planExport({ ...input, targets: [...input.targets], severities: [...input.severities], global: [G1] });
      expect(whole.map((f) => f.path)).toEqual(['.cursor/rules/agents-billing.mdc', '.cursor/rules/agents-global.mdc', 'AGENTS.md']);
      const root = whole.find((f) => f.path === 'AGENTS.md')!;
      expect(root.sections.map((s) => [s.scope, s.entries])).toEqual([
        ['global', [G1]],
        ['project billing', [P1]],
      ]);
      expect(unexpressedGlobs([billing([glob])])).toEqual([]);
      // --project billing writes only its files: the root AGENTS.md is one, and keeps its global section.
      const one = planExport({
        ...input,
        targets: [...input.targets],
        severities: [...input.severities],
        global: undefined,
        sharedGlobal: [G1],
      });
      expect(one.map((f) => f.path)).toEqual(['.cursor/rules/agents-billing.mdc', 'AGENTS.md']);
      expect(one.find((f) => f.path === 'AGENTS.md')!.sections).toEqual(root.sections);
    }
  });

  it("writes the nested file in each folder a wildcard path names, as the repository's folders are given", () => {
    const files = planExport({
      targets: ['agents-md'],
      global: undefined,
      projects: [billing(['services/*/api/**', '**/*.sql', 'libs/billing/**'])],
      severities: ['error', 'warning', 'info'],
      nested: true,
      storeRel: '.agents',
      folders: new Map([['services/*/api/**', ['services/billing/api', 'services/ledger/api']]]),
    });
    expect(files.map((f) => f.path)).toEqual(['libs/billing/AGENTS.md', 'services/billing/api/AGENTS.md', 'services/ledger/api/AGENTS.md']);
    // Without the folders (no repository to list), the wildcard path gets none.
    const bare = planExport({
      targets: ['agents-md'],
      global: undefined,
      projects: [billing(['services/*/api/**'])],
      severities: ['error'],
      nested: true,
      storeRel: '.agents',
    });
    expect(bare).toEqual([]);
  });

  it("gives a folder's AGENTS.md a section of each project whose paths hold the folder, after those naming it; CLAUDE.md only the latter", () => {
    const P2 = entry('01JDQ6X5Z8W4N3B2C1D0E9F8G3', 'Services log in JSON', { kind: 'project', project: 'svc' });
    const P3 = entry('01JDQ6X5Z8W4N3B2C1D0E9F8G4', 'Every table has an owner', { kind: 'project', project: 'sql' });
    const P4 = entry('01JDQ6X5Z8W4N3B2C1D0E9F8G5', 'Each service has a README', { kind: 'project', project: 'svcs' });
    const projects: ExportProject[] = [
      billing(['services/billing/**']),
      // The agents that read only the nearest AGENTS.md are bound by these in services/billing too.
      { name: 'svc', meta: { paths: ['services/**'] }, entries: [P2] },
      // Not by one that holds only some files of the folder, nor by one whose folder is below it.
      { name: 'sql', meta: { paths: ['services/**/*.sql', 'services/billing/db/**'] }, entries: [P3] },
      // A wildcard folder names services/billing, and holds the folders below it.
      { name: 'svcs', meta: { paths: ['services/*/**'] }, entries: [P4] },
      // A folder whose own set is empty gets no file, so nothing is added to it: the nearest one above holds them.
      { name: 'quiet', meta: { paths: ['services/quiet/**'] }, entries: [] },
    ];
    const files = planExport({
      targets: ['agents-md', 'claude-md'],
      global: [G1],
      projects,
      severities: ['error', 'warning', 'info'],
      nested: true,
      storeRel: '.agents',
      folders: new Map([['services/*/**', ['services/billing']]]),
    });
    const scopes = (path: string) => files.find((f) => f.path === path)!.sections.map((sec) => sec.scope.slice('project '.length));
    expect(scopes('services/AGENTS.md')).toEqual(['svc']);
    expect(scopes('services/billing/AGENTS.md')).toEqual(['billing', 'svcs', 'svc']);
    expect(scopes('services/billing/db/AGENTS.md')).toEqual(['sql', 'billing', 'svc', 'svcs']);
    expect(scopes('services/billing/CLAUDE.md')).toEqual(['billing', 'svcs']);
    expect(scopes('services/billing/db/CLAUDE.md')).toEqual(['sql']);
    expect(scopes('services/quiet/AGENTS.md')).toEqual(['quiet']);
    // A CLAUDE.md kept as a link to the AGENTS.md beside it gives its agent every rule of its own, and more that bind
    // it there too: it is left as a link. The other way round, the AGENTS.md's agent would miss some.
    const at = (path: string) => files.find((f) => f.path === path)!;
    expect(sameRules(at('services/billing/db/CLAUDE.md'), at('services/billing/db/AGENTS.md'))).toBe(true);
    expect(sameRules(at('services/billing/db/AGENTS.md'), at('services/billing/db/CLAUDE.md'))).toBe(false);
    expect(sameRules(at('services/billing/db/CLAUDE.md'), at('services/billing/AGENTS.md'))).toBe(false);
  });

  it('leaves out projects without paths, nested files when nested is false, and severities not asked for', () => {
    const files = planExport({
      targets: ['claude-md'],
      global: [G1],
      projects: [{ ...billing([]), meta: {} }],
      severities: ['error'],
      nested: true,
      storeRel: '.agents',
    });
    expect(files.map((f) => f.path)).toEqual(['CLAUDE.md']);
    const noNested = planExport({
      targets: ['claude-md'],
      global: [G1],
      projects: [billing(['services/billing/**'])],
      severities: ['error'],
      nested: false,
      storeRel: '.agents',
    });
    expect(noNested.map((f) => f.path)).toEqual(['CLAUDE.md']);
    const onlyErrors = planExport({
      targets: ['cursor'],
      global: [G1],
      projects: [billing(['services/billing/**'])],
      severities: ['error'],
      nested: true,
      storeRel: '.agents',
    });
    expect(onlyErrors.find((f) => f.path.endsWith('agents-billing.mdc'))!.sections[0]!.entries).toEqual([]);
  });

  it('with --project (no global set) writes only the project files', () => {
    const files = planExport({
      targets: ['gemini-md', 'copilot'],
      global: undefined,
      projects: [billing(['services/billing/**'])],
      severities: ['error', 'warning', 'info'],
      nested: true,
      storeRel: '.agents',
    });
    expect(files.map((f) => f.path)).toEqual(['.github/instructions/agents-billing.instructions.md', 'services/billing/GEMINI.md']);
  });
});

describe('exportedEntryIds', () => {
  it("reads each entry's own id, with or without its scope, never the ids of the copies it shadows", () => {
    const [A, B, C, D] = [
      '01JDQ6X5Z8W4N3B2C1D0E9F8G1',
      '01JDQ6X5Z8W4N3B2C1D0E9F8G2',
      '01JDQ6X5Z8W4N3B2C1D0E9F8G3',
      '01JDQ6X5Z8W4N3B2C1D0E9F8G4',
    ];
    const text = [
      `- Never delete production data (\`${A}\`)`,
      `- Use UTC (\`${B}\`; shadows global \`${D}\`)`,
      `- No secrets in prompts (inherited policy, \`${C}\`)`,
      `- Log all changes (global, \`${D}\`; shadows inherited policy \`${A}\`, inherited other \`${B}\`)`,
      '- Say (`not an id`) in passing',
    ].join('\n');
    expect(exportedEntryIds(text)).toEqual([A, B, C, D]);
    // A block written with CRLF line ends, into a CRLF file, reads the same.
    expect(exportedEntryIds(text.replace(/\n/g, '\r\n'))).toEqual([A, B, C, D]);
    expect(exportedEntryIds(`- Keep it (\`${A}\`; overrides global \`${B}\`)`)).toEqual([A]);
  });
});

describe('renderSections', () => {
  it('groups by severity, with ids, shadows and foreign scopes, and escapes comment markers', () => {
    const odd = entry('01JDQ6X5Z8W4N3B2C1D0E9F8G3', 'Never write <!-- agents:end --> here\nsecond line', { kind: 'global' }, 'info');
    const md = renderSections(
      [{ title: 'Project billing', scope: 'project billing', notes: ['Note.'], entries: [P1, G1, odd] }],
      '.agents',
    );
    expect(md).toContain(
      '### Project billing\n\nNote.\n\n#### Must (error): never break these\n\n- Never delete production data (global, `01JDQ6X5Z8W4N3B2C1D0E9F8G1`)',
    );
    expect(md).toContain('- Amounts are integers of cents (`01JDQ6X5Z8W4N3B2C1D0E9F8G2`; shadows global `01JDQ6X5Z8W4N3B2C1D0E9F8G9`)');
    expect(md).toContain('- Never write &lt;!-- agents:end --&gt; here\n  second line (global, ');
    expect(md).not.toContain(END_MARKER);
  });

  it('says a copy hidden on purpose (named by overrides) as overridden, apart from one shadowed by accident, as the other views say them', () => {
    const both = entry('01JDQ6X5Z8W4N3B2C1D0E9F8G4', 'Keep it', { kind: 'project', project: 'billing' }, 'error', [
      { id: '01JDQ6X5Z8W4N3B2C1D0E9F8G5', scope: 'global', path: 'global/a.yaml', overridden: true },
      { id: '01JDQ6X5Z8W4N3B2C1D0E9F8G6', scope: 'inherited', path: 'extends/p/global/b.yaml' },
    ]);
    const md = renderSections([{ title: 'Project billing', scope: 'project billing', notes: [], entries: [both] }], '.agents');
    expect(md).toContain(
      '- Keep it (`01JDQ6X5Z8W4N3B2C1D0E9F8G4`; shadows inherited `01JDQ6X5Z8W4N3B2C1D0E9F8G6`; overrides global `01JDQ6X5Z8W4N3B2C1D0E9F8G5`)',
    );
  });

  it('escapes the < of an HTML block the text opens and does not close or a block tag opens, and only that; a $$ that would open math; an empty link destination; a heading; a character reference', () => {
    const texts = [
      '<style> only in CSS',
      '<?xml first',
      '<!DOCTYPE first',
      '<pre>kept</pre> here',
      '<?php echo 1; ?> in views',
      '<div> x',
      '$$ is a PID, $x$ is not',
      'the [docs]() and ![logo]() but `[x]()` as code',
      '# Migrations are append-only',
      '- ###',
      '#hashtag and ####### seven are text',
      'Never name a file exe&#x202E;txt.doc, &rlm; or \\&#8238;, R&D and `&rlm;` kept',
      '<pre>&rlm;</pre> in raw HTML, where no backslash escapes it',
    ];
    const md = renderSections(
      [
        {
          title: 'Global',
          scope: 'global',
          notes: [],
          entries: texts.map((t, i) => entry(`01JDQ6X5Z8W4N3B2C1D0E9F8H${i}`, t, { kind: 'global' })),
        },
      ],
      '.agents',
    );
    expect(
      md
        .split('\n')
        .filter((l) => l.startsWith('- '))
        .map((l) => l.replace(/ \(`.*$/, '')),
    ).toEqual([
      '- \\<style> only in CSS',
      '- \\<?xml first',
      '- \\<!DOCTYPE first',
      '- <pre>kept</pre> here',
      '- <?php echo 1; ?> in views',
      '- \\<div> x',
      '- \\$$ is a PID, $x$ is not',
      '- the [docs]\\() and ![logo]\\() but `[x]()` as code',
      '- \\# Migrations are append-only',
      '- - \\###',
      '- #hashtag and ####### seven are text',
      '- Never name a file exe\\&#x202E;txt.doc, \\&rlm; or \\\\\\&#8238;, R&D and `&rlm;` kept',
      '- \\<pre>\\&rlm;</pre> in raw HTML, where no backslash escapes it',
    ]);
  });
});

describe('mergeBlock', () => {
  const inner = '## Invariants\n\n- A\n';
  it('creates a file, appends to a file without a block, and replaces only the block', () => {
    const created = mergeBlock(undefined, undefined, inner, hash, false);
    expect(created).toMatchObject({ kind: 'write', action: 'create' });
    const mine = '# My notes\n\nKeep me.\n';
    const appended = mergeBlock(mine, undefined, inner, hash, false);
    if (appended.kind !== 'write') throw new Error('expected a write');
    expect(appended.text.startsWith(`${mine}\n<!-- agents:begin`)).toBe(true);
    const around = `${appended.text}\nAfter the block, by hand.\r\nno newline at the end`;
    const again = mergeBlock(around, undefined, '## Invariants\n\n- B\n', hash, false);
    if (again.kind !== 'write') throw new Error('expected a write');
    expect(again.action).toBe('update');
    expect(again.text.startsWith(`${mine}\n<!-- agents:begin`)).toBe(true);
    expect(again.text.endsWith(`${END_MARKER}\n\nAfter the block, by hand.\r\nno newline at the end`)).toBe(true);
    expect(mergeBlock(again.text, undefined, '## Invariants\n\n- B\n', hash, false)).toMatchObject({
      kind: 'write',
      action: 'unchanged',
      text: again.text,
    });
  });

  it('refuses a block edited by hand unless forced, and a damaged one always', () => {
    const made = mergeBlock(undefined, undefined, inner, hash, false);
    if (made.kind !== 'write') throw new Error('expected a write');
    const edited = made.text.replace('- A', '- A, edited');
    // The line where the edit starts, after the owner's own lines above the block: what the export wrote is known.
    const line = edited.split('\n').findIndex((l) => l.includes('- A, edited')) + 3;
    expect(mergeBlock(`mine\n\n${edited}`, undefined, inner, hash, false)).toEqual({
      kind: 'refuse',
      reason: 'hand-edited',
      why: expect.any(String),
      line,
    });
    // A line added at the end of the block's inside is where it starts; none is known once the store's text changed.
    const added = made.text.replace(END_MARKER, `mine\n${END_MARKER}`);
    expect(mergeBlock(added, undefined, inner, hash, false)).toMatchObject({ line: added.split('\n').indexOf('mine') + 1 });
    expect(mergeBlock(edited, undefined, `${inner}- B\n`, hash, false)).not.toHaveProperty('line');
    expect(mergeBlock(edited, undefined, inner, hash, true)).toMatchObject({ kind: 'write', text: made.text });
    const damaged = made.text.replace(END_MARKER, '');
    expect(scanBlock(damaged)).toEqual({
      kind: 'damaged',
      why: 'it holds an "agents:begin" marker (line 1) without its "agents:end"',
      line: 1,
    });
    expect(mergeBlock(damaged, undefined, inner, hash, true)).toMatchObject({ kind: 'refuse', reason: 'damaged', line: 1 });
    expect(mergeBlock(`${made.text}${made.text}`, undefined, inner, hash, true)).toMatchObject({ kind: 'refuse', reason: 'damaged' });
  });

  it('owns the front matter: an edit there is a hand edit, and a file of that name without a block is foreign', () => {
    const front = '---\ntrigger: glob\nglobs: a/**\n---\n';
    const made = mergeBlock(undefined, front, inner, hash, false);
    if (made.kind !== 'write') throw new Error('expected a write');
    expect(made.text.startsWith(front)).toBe(true);
    expect(mergeBlock(made.text.replace('a/**', 'b/**'), front, inner, hash, false)).toMatchObject({
      kind: 'refuse',
      reason: 'hand-edited',
      line: 3,
    });
    expect(mergeBlock('---\nx: 1\n---\nmine\n', front, inner, hash, false)).toMatchObject({ kind: 'refuse', reason: 'foreign' });
    const newFront = '---\ntrigger: glob\nglobs: c/**\n---\n';
    const moved = mergeBlock(`${made.text}kept\n`, newFront, inner, hash, false);
    if (moved.kind !== 'write') throw new Error('expected a write');
    expect(moved.text.startsWith(newFront)).toBe(true);
    expect(moved.text.endsWith(`${END_MARKER}\nkept\n`)).toBe(true);
  });

  it('removeBlock deletes a file that held only the block, and keeps text around it otherwise', () => {
    const made = mergeBlock(undefined, '---\na: 1\n---\n', inner, hash, false);
    if (made.kind !== 'write') throw new Error('expected a write');
    expect(removeBlock(made.text, hash, true)).toEqual({ kind: 'delete' });
    expect(removeBlock(`${made.text}mine\n`, hash, true)).toMatchObject({ kind: 'write', text: '---\na: 1\n---\nmine\n' });
  });
});

describe('front matter values', () => {
  it('yamlScalar quotes what a plain scalar cannot hold', () => {
    expect(yamlScalar('services/billing/**')).toBe('services/billing/**');
    expect(yamlScalar('**/*.ts')).toBe('"**/*.ts"');
    expect(yamlScalar('true')).toBe('"true"');
    expect(yamlScalar('a: b')).toBe('"a: b"');
  });

  it('every target is described', () => {
    expect(Object.keys(TARGETS).sort()).toEqual(['agents-md', 'claude-md', 'cline', 'copilot', 'cursor', 'gemini-md', 'windsurf']);
  });
});
