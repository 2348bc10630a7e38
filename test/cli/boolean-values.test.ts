// An on/off option given a value it does not take (`--strict=yes`) is a usage error, for every command, never
// read as off (src/cli/boolean-values.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgents } from '../helpers/main.ts';
import { testStore } from '../helpers/tmp.ts';

/** A store with one warning (an unknown path) and one fix to make (a missing modeline). */
function store(): string {
  return testStore({
    'global/notes.txt': 'x\n',
    'global/01JDQ6X5Z8W4N3B2C1D0E9F8G7.yaml': 'id: 01JDQ6X5Z8W4N3B2C1D0E9F8G7\ntext: Never delete production data\n',
  });
}

function snapshot(root: string): Record<string, string> {
  return Object.fromEntries(readdirSync(join(root, 'global')).map((n) => [n, readFileSync(join(root, 'global', n), 'utf8')]));
}

describe('on/off options given a value', () => {
  it('--flag=true and --flag=false are read as written', async () => {
    const root = store();
    expect((await runAgents(['--store', root, 'validate', '--strict'])).code).toBe(1);
    expect((await runAgents(['--store', root, 'validate', '--strict=true'])).code).toBe(1);
    expect((await runAgents(['--store', root, 'validate', '--strict=false'])).code).toBe(0);
  });

  it.each([
    [['validate', '--strict=yes'], 'strict', 'yes'],
    [['validate', '--strict=1'], 'strict', '1'],
    [['validate', '--strict=on'], 'strict', 'on'],
    [['validate', '--fix=1'], 'fix', '1'],
    [['validate', '--staged=yes'], 'staged', 'yes'],
    [['validate', '--no-cache=0'], 'cache', '0'],
    [['validate', '--all-files=no'], 'all-files', 'no'],
    [['invariant', 'diff', '--exit-code=yes'], 'exit-code', 'yes'],
    [['invariant', 'list', '--color=yes'], 'color', 'yes'],
    [['invariant', 'list', '--no-input=1'], 'input', '1'],
  ])('%j: exit 2, invalid-value, nothing changed', async (args, option, value) => {
    const root = store();
    const before = snapshot(root);
    const r = await runAgents(['--store', root, '--format', 'json', ...args]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'invalid-value', detail: { option, value } });
    expect(snapshot(root)).toEqual(before);
  });

  it('refuses the --no- form of an option that takes a value, never handing the command false', async () => {
    const root = store();
    const before = snapshot(root);
    for (const args of [
      ['--no-store', 'invariant', 'list'],
      ['--no-format', 'invariant', 'list'],
      ['invariant', 'list', '--no-project'],
      ['invariant', 'add', '--global', '--no-tag', 'Keep backups'],
      ['invariant', 'add', '--global', '--no-rationale=x', 'Keep backups'],
    ]) {
      const r = await runAgents(['--store', root, '--format', 'json', ...args]);
      expect([args, r.code]).toEqual([args, 2]);
      expect(JSON.parse(r.stdout).error).toMatchObject({
        code: 'unknown-option',
        detail: { arguments: [args.find((a) => a.startsWith('--no-'))!.replace(/=.*/, '')] },
      });
    }
    expect(snapshot(root)).toEqual(before);
    // The --no- form of an on/off option stays what it was.
    expect((await runAgents(['--store', root, '--no-color', 'invariant', 'list', '--no-all'])).code).toBe(0);
  });

  it('leaves words after -- alone: they are no options', async () => {
    const root = store();
    const r = await runAgents(['--store', root, '--format', 'json', 'validate', '--', '--strict=yes']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.code).not.toBe('invalid-value');
  });
});
