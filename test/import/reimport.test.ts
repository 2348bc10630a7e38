// `agents import` again after the files changed (docs/import.md, "Rules gone from their files"): the invariants
// imported from a file whose text it no longer says are listed, and removed with --prune; never those --replace moved.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll, gitInit } from '../helpers/git.ts';
import { errorOf, runAgents } from '../helpers/main.ts';
import { tempDir, writeTree } from '../helpers/tmp.ts';

const run = (top: string, ...args: string[]) => runAgents(args, { cwd: top });
const json = async (top: string, ...args: string[]) => {
  const r = await run(top, '--format', 'json', ...args);
  return { ...r, data: JSON.parse(r.stdout) };
};

function repo(tree: Record<string, string>): string {
  const top = tempDir('agents-reimport-');
  gitInit(top);
  writeTree(top, { '.agents/global/': null, '.agents/projects/': null, '.agents/actions/': null, '.agents/plans/': null, ...tree });
  return top;
}

/** The texts of the store's global invariants. */
async function texts(top: string): Promise<string[]> {
  const r = await json(top, 'invariant', 'list');
  return (r.data as { text: string }[]).map((i) => i.text).sort();
}

const RULES = '# Rules\n\n- Never commit secrets.\n- Use tabs for indentation.\n- Run the tests before pushing.\n';

describe('import again after a file was edited', () => {
  it('lists what the file no longer says, keeps it without --prune, removes it with --yes --prune, and a third import is clean', async () => {
    const top = repo({ 'AGENTS.md': RULES });
    expect((await run(top, 'import', '--yes')).code).toBe(0);
    const ids = Object.fromEntries(
      ((await json(top, 'invariant', 'list')).data as { id: string; text: string }[]).map((i) => [i.text, i.id]),
    );
    // One rule edited, one removed, one kept.
    writeFileSync(join(top, 'AGENTS.md'), '# Rules\n\n- Never commit secrets or tokens.\n- Use tabs for indentation.\n');
    const gone = [
      { id: ids['Never commit secrets.'], text: 'Never commit secrets.', file: 'AGENTS.md', line: 3 },
      { id: ids['Run the tests before pushing.'], text: 'Run the tests before pushing.', file: 'AGENTS.md', line: 5 },
    ];
    const dry = await json(top, 'import', '--dry-run', '--prune');
    expect(dry.code).toBe(0);
    expect(dry.data.gone_from_files).toMatchObject(gone);
    expect(dry.data.pruned).toBeNull();
    // Without --prune they are said and stay.
    const plain = await json(top, 'import', '--yes');
    expect(plain.data.gone_from_files).toMatchObject(gone);
    expect(plain.data.pruned).toBeNull();
    expect(await texts(top)).toEqual([
      'Never commit secrets or tokens.',
      'Never commit secrets.',
      'Run the tests before pushing.',
      'Use tabs for indentation.',
    ]);
    // Removals are confirmed in the review, which needs a terminal: without one (and without --yes), nothing removed.
    const refused = await json(top, 'import', '--prune');
    expect(refused.code).toBe(2);
    expect(errorOf(refused)).toMatchObject({ code: 'confirmation-needed', detail: { candidates: 0, removals: 2 } });
    // In text, what it would remove is shown on stderr, as what it would import is.
    const refusedText = await run(top, 'import', '--prune');
    expect(refusedText.code).toBe(2);
    for (const g of gone) expect(refusedText.stderr).toContain(g.id);
    expect((await texts(top)).length).toBe(4);
    const pruned = await json(top, 'import', '--yes', '--prune');
    expect(pruned.code).toBe(0);
    expect(pruned.data.pruned.map((p: { id: string }) => p.id)).toEqual(gone.map((g) => g.id));
    expect(await texts(top)).toEqual(['Never commit secrets or tokens.', 'Use tabs for indentation.']);
    const third = await json(top, 'import', '--dry-run');
    expect(third.data.gone_from_files).toEqual([]);
  });

  it('rules --replace moved into the store are not gone from their file, also once a rule is added to it below the block', async () => {
    const top = repo({ 'AGENTS.md': RULES });
    commitAll(top, 'rules');
    expect((await run(top, 'import', '--yes', '--replace')).code).toBe(0);
    expect(readFileSync(join(top, 'AGENTS.md'), 'utf8')).not.toContain('- Use tabs for indentation.\n');
    expect((await json(top, 'import', '--dry-run')).data.gone_from_files).toEqual([]);
    writeFileSync(join(top, 'AGENTS.md'), `${readFileSync(join(top, 'AGENTS.md'), 'utf8')}\n- Prefer small PRs.\n`);
    expect((await run(top, 'import', '--yes')).code).toBe(0);
    expect((await json(top, 'import', '--dry-run')).data.gone_from_files).toEqual([]);
    // The rule kept in the file is the file's: edited there, its old text is gone from it.
    writeFileSync(join(top, 'AGENTS.md'), readFileSync(join(top, 'AGENTS.md'), 'utf8').replace('small PRs', 'small pull requests'));
    const edited = await json(top, 'import', '--dry-run');
    expect(edited.data.gone_from_files.map((g: { text: string }) => g.text)).toEqual(['Prefer small PRs.']);
  });

  it('a Cursor rule whose rules --replace moved into the export file is not their source, also imported alone; a file not read is not compared', async () => {
    const rule = '---\nalwaysApply: true\n---\n# Style\n\nThis file is about style.\n\n- Use tabs.\n- Never use var.\n';
    const top = repo({ '.cursor/rules/style.mdc': rule, 'AGENTS.md': RULES });
    commitAll(top, 'rules');
    expect((await run(top, 'import', '.cursor/rules/style.mdc', '--yes', '--replace')).code).toBe(0);
    writeFileSync(join(top, '.cursor/rules/style.mdc'), `${readFileSync(join(top, '.cursor/rules/style.mdc'), 'utf8')}\n- Prefer const.\n`);
    expect((await run(top, 'import', '--yes')).code).toBe(0);
    expect((await json(top, 'import', '--dry-run')).data.gone_from_files).toEqual([]);
    // AGENTS.md's rules gone from it are not looked for by an import of the Cursor rule alone.
    writeFileSync(join(top, 'AGENTS.md'), '# Rules\n');
    expect((await json(top, 'import', '--dry-run', '.cursor/rules/style.mdc')).data.gone_from_files).toEqual([]);
    expect((await json(top, 'import', '--dry-run')).data.gone_from_files).toHaveLength(3);
  });
});

describe('import again after a rule moved from a folder file up to the top one', () => {
  it('writes it globally, and the copy its folder file no longer says is gone from it, and removed with --prune', async () => {
    const top = repo({
      'AGENTS.md': '# Root\n\n- Never push to main.\n',
      'apps/web/AGENTS.md': '# Web\n\n- Use CSS modules.\n- Run the linter.\n',
    });
    expect((await run(top, 'import', '--yes')).code).toBe(0);
    writeFileSync(join(top, 'AGENTS.md'), '# Root\n\n- Never push to main.\n- Run the linter.\n');
    writeFileSync(join(top, 'apps/web/AGENTS.md'), '# Web\n\n- Use CSS modules.\n');
    const pruned = await json(top, 'import', '--yes', '--prune');
    expect(pruned.code).toBe(0);
    expect(pruned.data.gone_from_files).toMatchObject([{ text: 'Run the linter.', file: 'apps/web/AGENTS.md', line: 4 }]);
    expect(pruned.data.pruned).toHaveLength(1);
    const list = (await json(top, 'invariant', 'list')).data as { text: string; scope: string }[];
    expect(list.filter((i) => i.text === 'Run the linter.').map((i) => i.scope)).toEqual(['global']);
  });
});

describe('import again after a rule file changed its globs', () => {
  it("is skipped, naming its project's paths to change, and once they are the file's globs its new rules go there", async () => {
    const top = repo({ '.cursor/rules/style.mdc': '---\nglobs: src/**\n---\n\n- Use tabs.\n', 'src/a.ts': '', 'lib/b.ts': '' });
    expect((await run(top, 'import', '--yes')).code).toBe(0);
    writeFileSync(join(top, '.cursor/rules/style.mdc'), '---\nglobs: src/**, lib/**\n---\n\n- Use tabs.\n- Never use var.\n');
    const skipped = await json(top, 'import', '--dry-run');
    expect(skipped.code).toBe(0);
    expect(skipped.data.files[0].skipped).toContain('projects/style/project.yaml');
    writeFileSync(join(top, '.agents/projects/style/project.yaml'), 'paths:\n  - src/**\n  - lib/**\n');
    const again = await json(top, 'import', '--yes');
    expect(again.code).toBe(0);
    expect(again.data.candidates.map((c: { status: string; scope: unknown }) => [c.status, c.scope])).toEqual([
      ['exists', { kind: 'project', project: 'style' }],
      ['new', { kind: 'project', project: 'style' }],
    ]);
    expect(again.data.written.projects).toEqual([]);
  });
});

describe('import again after an invariant was edited in the store', () => {
  /** The store's invariants by their text, each with its file's path. */
  async function byText(top: string): Promise<Record<string, { id: string; path: string }>> {
    const r = await json(top, 'invariant', 'list');
    return Object.fromEntries((r.data as { id: string; path: string; text: string }[]).map((i) => [i.text, { id: i.id, path: i.path }]));
  }

  /** The invariants of `before` written as a version before `text_hash` wrote them: with no hash of their file's text. */
  function withoutTextHashes(top: string, before: Record<string, { path: string }>): void {
    for (const { path } of Object.values(before)) {
      const f = join(top, '.agents', path);
      writeFileSync(f, readFileSync(f, 'utf8').replace(/\n {2}text_hash: .*\n/, '\n'));
    }
  }

  it('keeps a rule reworded with invariant edit or by hand, and writes no copy of its old text; the file edited is pruned', async () => {
    const top = repo({ 'AGENTS.md': RULES });
    expect((await run(top, 'import', '--yes')).code).toBe(0);
    const before = await byText(top);
    const secrets = before['Never commit secrets.']!;
    const tabs = before['Use tabs for indentation.']!;
    expect((await run(top, 'invariant', 'edit', secrets.id, '--text', 'Never commit secrets or API keys.')).code).toBe(0);
    // By hand, in the invariant's file.
    const tabsFile = join(top, '.agents', tabs.path);
    writeFileSync(tabsFile, readFileSync(tabsFile, 'utf8').replace('text: Use tabs for indentation.', 'text: Indent with tabs.'));
    expect((await run(top, 'validate')).code).toBe(0);
    const again = await json(top, 'import', '--dry-run', '--prune');
    expect(again.code).toBe(0);
    expect(again.data.gone_from_files).toEqual([]);
    expect(again.data.candidates.map((c: { status: string; same_as: unknown }) => [c.status, c.same_as])).toEqual([
      ['exists', { id: secrets.id, path: secrets.path }],
      ['exists', { id: tabs.id, path: tabs.path }],
      ['exists', { id: before['Run the tests before pushing.']!.id, path: before['Run the tests before pushing.']!.path }],
    ]);
    // The file edited too: the rule it took out is pruned, the store's edits are kept, and its old texts never come back.
    writeFileSync(join(top, 'AGENTS.md'), '# Rules\n\n- Never commit secrets.\n- Use tabs for indentation.\n- Run the linter.\n');
    const pruned = await json(top, 'import', '--yes', '--prune');
    expect(pruned.code).toBe(0);
    expect(pruned.data.pruned).toEqual([
      { id: before['Run the tests before pushing.']!.id, path: before['Run the tests before pushing.']!.path },
    ]);
    expect(await texts(top)).toEqual(['Indent with tabs.', 'Never commit secrets or API keys.', 'Run the linter.']);
    // The file's rule reworded there is its new rule; the store's edit of the old one stays, never pruned.
    writeFileSync(join(top, 'AGENTS.md'), '# Rules\n\n- Never commit any secrets.\n- Use tabs for indentation.\n- Run the linter.\n');
    const reworded = await json(top, 'import', '--yes', '--prune');
    expect(reworded.data.gone_from_files).toEqual([]);
    expect(await texts(top)).toEqual([
      'Indent with tabs.',
      'Never commit any secrets.',
      'Never commit secrets or API keys.',
      'Run the linter.',
    ]);
  });

  it('an invariant imported before the hash was recorded: edited by hand it is gone from its file, and invariant edit records it', async () => {
    const top = repo({ 'AGENTS.md': RULES });
    expect((await run(top, 'import', '--yes')).code).toBe(0);
    const before = await byText(top);
    withoutTextHashes(top, before);
    expect(readFileSync(join(top, '.agents', before['Never commit secrets.']!.path), 'utf8')).not.toContain('text_hash');
    expect((await run(top, 'validate')).code).toBe(0);
    expect((await json(top, 'import', '--dry-run', '--prune')).data.gone_from_files).toEqual([]);
    const tabs = before['Use tabs for indentation.']!;
    const tabsFile = join(top, '.agents', tabs.path);
    writeFileSync(tabsFile, readFileSync(tabsFile, 'utf8').replace('text: Use tabs for indentation.', 'text: Indent with tabs.'));
    const secrets = before['Never commit secrets.']!;
    expect((await run(top, 'invariant', 'edit', secrets.id, '--text', 'Never commit secrets or API keys.')).code).toBe(0);
    expect(readFileSync(join(top, '.agents', secrets.path), 'utf8')).toMatch(
      /imported_from:\n {2}file: AGENTS.md\n {2}line: 3\n {2}text_hash: /,
    );
    const again = await json(top, 'import', '--dry-run', '--prune');
    expect(again.data.gone_from_files.map((g: { id: string }) => g.id)).toEqual([tabs.id]);
    expect(again.data.candidates.map((c: { status: string }) => c.status)).toEqual(['exists', 'new', 'exists']);
  });

  it('an invariant imported before the hash was recorded and edited by hand after its import was committed is kept, as its history tells', async () => {
    const top = repo({ 'AGENTS.md': RULES });
    expect((await run(top, 'import', '--yes')).code).toBe(0);
    const before = await byText(top);
    withoutTextHashes(top, before);
    commitAll(top, 'import, as an older version wrote it');
    const edit = (text: string, to: string) => {
      const f = join(top, '.agents', before[text]!.path);
      writeFileSync(f, readFileSync(f, 'utf8').replace(`text: ${text}`, `text: ${to}`));
    };
    // One edit committed, one not yet: both are the store's, after the import's commit.
    edit('Use tabs for indentation.', 'Indent with tabs.');
    commitAll(top, 'reword');
    edit('Never commit secrets.', 'Never commit secrets or API keys.');
    // The file drops the third rule: that one is gone from it, and the only one listed and pruned.
    writeFileSync(join(top, 'AGENTS.md'), '# Rules\n\n- Never commit secrets.\n- Use tabs for indentation.\n');
    const run1 = await json(top, 'import', '--dry-run', '--prune');
    const tests = before['Run the tests before pushing.']!;
    expect(run1.data.gone_from_files.map((g: { id: string }) => g.id)).toEqual([tests.id]);
    expect(run1.data.candidates.map((c: { status: string; same_as: unknown }) => [c.status, c.same_as])).toEqual([
      ['exists', before['Never commit secrets.']],
      ['exists', before['Use tabs for indentation.']],
    ]);
    const pruned = await json(top, 'import', '--yes', '--prune');
    expect(pruned.code).toBe(0);
    expect(pruned.data.pruned).toEqual([tests]);
    expect(await texts(top)).toEqual(['Indent with tabs.', 'Never commit secrets or API keys.']);
  });

  it('outside a git repository, where no history tells, one imported before the hash was recorded is compared by its text', async () => {
    const top = tempDir('agents-reimport-');
    writeTree(top, { '.agents/global/': null, '.agents/projects/': null, 'AGENTS.md': RULES });
    expect((await run(top, 'import', '--yes')).code).toBe(0);
    const before = await byText(top);
    withoutTextHashes(top, before);
    writeFileSync(join(top, 'AGENTS.md'), '# Rules\n\n- Never commit secrets.\n- Use tabs for indentation.\n');
    const dry = await json(top, 'import', '--dry-run', '--prune');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.data.gone_from_files.map((g: { id: string }) => g.id)).toEqual([before['Run the tests before pushing.']!.id]);
  });
});
