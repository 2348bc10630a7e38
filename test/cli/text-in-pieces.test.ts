// `invariant add`'s text is its last words; words that stand apart (an unquoted glob the shell turned into file
// names) are refused before anything is written, never read as the end of the text.
import { cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';
import { runMain } from '../helpers/main.ts';
import { tempDir } from '../helpers/tmp.ts';
import { refuseTextInPieces } from '../../src/cli/commands/invariant-add.ts';

function store(): string {
  const dir = join(tempDir(), '.agents');
  cpSync(join(REPO, '.agents.example'), dir, { recursive: true });
  return dir;
}

/** The refusal refuseTextInPieces throws, or undefined. */
function refused(pieces: string[], words: string[]): unknown {
  try {
    refuseTextInPieces(pieces, words);
    return undefined;
  } catch (error) {
    return error;
  }
}

const globals = (dir: string) => readdirSync(join(dir, 'global')).sort();

describe('invariant add: text words that stand apart', () => {
  it('refuses a text split by an option (a glob expanded by the shell), exit 2, nothing written', async () => {
    const dir = store();
    const before = globals(dir);
    const r = await runMain(
      ['--store', dir, 'invariant', 'add', '--global', 'No secrets', '--guard-write', 'apps/web/x.ts', 'apps/web/y.ts', '--format', 'json'],
      { cwd: REPO },
    );
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'text-in-pieces', detail: { pieces: ['No secrets', 'apps/web/y.ts'] } });
    expect(globals(dir)).toEqual(before);
  });

  it('takes words that stand together, before or after the options, and across `--`', async () => {
    const dir = store();
    for (const words of [
      ['--global', 'Never', 'push', 'to', 'main'],
      ['Never', 'force', 'push', '--global'],
      ['--global', 'Never', '--', '-rf', 'the', 'root'],
      // Only the first `--` ends the options: a later one is a word of the text.
      ['--global', '--', 'Keep', '--', 'in', 'scripts'],
    ]) {
      const r = await runMain(['--store', dir, 'invariant', 'add', ...words, '--format', 'json'], { cwd: REPO });
      expect(r.code, r.stdout).toBe(0);
    }
  });

  it('finds the pieces anywhere among the words, whatever an option value repeats of them', () => {
    expect(() => refuseTextInPieces(['web', 'servers'], ['invariant', 'add', '--project', 'web', 'web', 'servers'])).not.toThrow();
    expect(refused(['a', 'b'], ['invariant', 'add', 'a', '--tag', 'x', 'b'])).toMatchObject({
      code: 'text-in-pieces',
      detail: { pieces: ['a', 'b'] },
    });
    // No words known (the library, the form): nothing to judge.
    expect(() => refuseTextInPieces(['a', 'b'], [])).not.toThrow();
  });
});
