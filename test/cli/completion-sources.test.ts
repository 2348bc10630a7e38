// Shell completion of a policy source's action templates, named SOURCE:NS/NAME (docs/extends.md, "Actions"): the
// colon is a word break to bash and a description's start to zsh, so each script is asked as it asks.
import { appendFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appWithTemplate, consumer, LOCAL, LOCKED, policyRepo, SECRETS, TEMPLATE } from '../extends/repos.ts';
import { BIN } from '../helpers/cli.ts';
import { runMain } from '../helpers/main.ts';
import { exampleStore } from '../helpers/plans.ts';
import { tempDir } from '../helpers/tmp.ts';
import { bashCompletion } from '../helpers/bash-completion.ts';

/** appWithTemplate, with an action of its own (local/cover) beside the source's. */
async function appWithActions(): Promise<string> {
  const app = await appWithTemplate();
  mkdirSync(join(app, '.agents/actions/local/cover'), { recursive: true });
  return app;
}

/** Completions of the last word as a shell's script asks for them (SHELL names it). */
async function complete(cwd: string, shell: string, ...words: string[]): Promise<string[]> {
  const r = await runMain(['--get-yargs-completions', 'agents', ...words], { cwd, env: { SHELL: shell } });
  expect(r.code).toBe(0);
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter((l) => l !== '');
}

describe("completion of a policy source's templates", () => {
  it('offers them where a template is read (plan use, --action of a listing), the store’s own where one is written', async () => {
    const app = await appWithActions();
    expect(await complete(app, 'fish', 'plan', 'use', '')).toEqual(['local/cover', 'policy:org/release']);
    expect(await complete(app, 'fish', 'invariant', 'list', '--action', 'po')).toEqual(['policy:org/release']);
    expect(await complete(app, 'fish', 'plan', 'list', '--action=p')).toEqual(['--action=policy:org/release']);
    // add and move refuse a source's template: not offered.
    expect(await complete(app, 'fish', 'invariant', 'add', '--action', '')).toEqual(['local/cover']);
    // zsh reads a colon in a candidate as the start of its description: escaped.
    expect(await complete(app, 'zsh', 'plan', 'use', 'pol')).toEqual(['policy\\:org/release']);
    // bash splits the word at the colon: the pieces are read as one word, each candidate written from the piece typed.
    expect(await complete(app, 'bash', 'plan', 'use', 'policy', ':', 'org/r')).toEqual(['org/release']);
    // After the colon, bash completes the empty word there.
    expect(await complete(app, 'bash', 'plan', 'use', 'policy', ':')).toEqual(['org/release']);
    expect(await complete(app, 'bash', 'invariant', 'list', '--action', '=', 'policy', ':', 'o')).toEqual(['org/release']);
    // A blank after the colon starts a new word, a second argument: no template.
    expect(await complete(app, 'bash', 'plan', 'use', 'policy', ':', '')).toContain('--project');
    // A template named before, split too, is no argument of its own: the options come after it.
    expect(await complete(app, 'bash', 'invariant', 'list', '--action', 'policy', ':', 'org/release', '--f')).toContain('--format');
  });

  it("offers the sources' invariant ids where an id is read, waived or overridden, the store's own where one is changed", async () => {
    const app = await appWithActions();
    const theirs = [LOCKED, SECRETS, TEMPLATE].sort();
    expect(await complete(app, 'fish', 'invariant', 'show', '')).toEqual([LOCAL, ...theirs]);
    expect(await complete(app, 'fish', 'invariant', 'waive', LOCKED.toLowerCase())).toEqual([LOCKED.toLowerCase()]);
    expect(await complete(app, 'fish', 'invariant', 'edit', 'x', '--overrides', '')).toEqual([LOCAL, ...theirs]);
    expect(await complete(app, 'fish', 'invariant', 'violation', 'add', '--invariant', '')).toEqual([LOCAL, ...theirs]);
    for (const command of ['edit', 'move', 'remove', 'log']) {
      expect(await complete(app, 'fish', 'invariant', command, ''), command).toEqual([LOCAL]);
    }
  });

  it('offers the names of the sources config.yaml extends to extends fetch and update, each not named yet', async () => {
    const dir = tempDir();
    const app = consumer(dir, `  - url: ${policyRepo(dir).url}\n    ref: main\n  - url: ${policyRepo(dir, 'rules').url}\n    ref: main\n`);
    expect(await complete(app, 'fish', 'extends', 'fetch', '')).toEqual(['policy', 'rules']);
    expect(await complete(app, 'fish', 'extends', 'update', 'r')).toEqual(['rules']);
    expect(await complete(app, 'fish', 'extends', 'update', 'rules', '')).toEqual(['policy']);
    expect(await complete(app, 'fish', 'extends', 'fetch', '--rev', 'HEAD', '--', 'p')).toEqual(['policy']);
  });

  it("offers the store's own templates and ids where config.yaml's extends cannot be read", async () => {
    const root = exampleStore();
    appendFileSync(join(root, 'config.yaml'), 'extends:\n  - url: 5\n');
    const top = dirname(root);
    expect(await complete(top, 'fish', 'plan', 'use', '')).toEqual(['local/code-coverage']);
    expect(await complete(top, 'fish', 'invariant', 'show', '01M8KJT')).toEqual(['01M8KJT9G0XNWEM589ZS7FV0VT']);
  });

  it('completes through the bash script, the colon a word break there', async () => {
    const app = await appWithActions();
    const bin = join(tempDir(), 'bin');
    mkdirSync(bin);
    symlinkSync(BIN, join(bin, 'agents'));
    const bash = (line: string, words: string[]) => {
      const r = bashCompletion({
        setup: 'source <(agents completion bash)',
        line,
        words,
        cwd: app,
        env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
      });
      expect(r.stderr).toBe('');
      return r.stdout.split('\n').filter((l) => l !== '');
    };
    expect(bash('agents plan use policy:org', ['agents', 'plan', 'use', 'policy', ':', 'org'])).toEqual(['org/release']);
    expect(bash('agents plan use policy:', ['agents', 'plan', 'use', 'policy', ':'])).toEqual(['org/release']);
    expect(bash('agents plan use po', ['agents', 'plan', 'use', 'po'])).toEqual(['policy:org/release']);
  });
});
