import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentsError, EXIT_CODES, InvalidStoreError, UsageError } from '../../src/core/errors.ts';
import { makeStyle } from '../../src/core/style.ts';
import { safeText } from '../../src/cli/safe-output.ts';
import { errorLines, errorSummary } from '../../src/present/diagnostics.ts';
import { runAgents } from '../helpers/main.ts';
import { shellWords } from '../helpers/shell-words.ts';
import { tempDir } from '../helpers/tmp.ts';

/** The colour codes the style adds (core/style.ts), which are all a coloured error may hold raw. */
const OWN = /\u001b\[(?:1|2|22|31|32|33|36|39)m/g;

describe('an error as its lines, with colour on', () => {
  it('escapes a colour code that a file name in its message, diagnostic or hint holds, as it escapes any other control', () => {
    const file = 'global/x\u001b[31mRED\u001b[2K.yaml';
    const error = new InvalidStoreError(
      `cannot list invariants: ${file} is invalid`,
      [{ code: 'id-invalid', severity: 'error', file, line: 0, col: 0, message: `name "${file}"`, hint: `Rename ${file}` }],
      `Fix ${file}`,
    );
    const out = safeText(errorLines(error, makeStyle(true)).join('\n'), true);
    // The style's own codes are where the style put them: around "error:", "hint:" and a diagnostic's hint.
    expect(out.match(OWN)).toHaveLength(6);
    expect(out.replace(OWN, '')).not.toContain('\u001b');
    expect(out.split('x\\u001b[31mRED\\u001b[2K.yaml').length).toBe(6);
  });
});

describe('an error on one line, as a screen says it', () => {
  const d = { code: 'yaml-syntax' as const, severity: 'error' as const, file: 'global/a.yaml', line: 2, col: 5, message: 'bad' };
  it("adds the first problem's code, and its place where the message does not give it", () => {
    expect(errorSummary(new InvalidStoreError('cannot list invariants: global/a.yaml:2:5 is invalid', [d]))).toBe(
      'cannot list invariants: global/a.yaml:2:5 is invalid (yaml-syntax)',
    );
    expect(errorSummary(new InvalidStoreError('cannot list invariants', [d]))).toBe(
      'cannot list invariants (yaml-syntax at global/a.yaml:2:5)',
    );
    expect(errorSummary(new InvalidStoreError('cannot list invariants', []))).toBe('cannot list invariants');
  });

  it('adds a hint meant for any surface (a lock to delete), never one that names command-line options or commands', () => {
    const locked = new AgentsError('global is locked by process 7 on h (.agents/global/.lock)', EXIT_CODES.usage, {
      hint: 'Delete .agents/global/.lock.',
      hintAnySurface: true,
    });
    expect(errorSummary(locked)).toBe('global is locked by process 7 on h (.agents/global/.lock). Delete .agents/global/.lock.');
    expect(errorSummary(new UsageError('tag "a,b" is invalid', 'Repeat --tag for several tags.'))).toBe('tag "a,b" is invalid');
    // The store's default hint names `agents validate`: a screen says the problem's code and place instead.
    expect(errorSummary(new InvalidStoreError('cannot list invariants', []))).toBe('cannot list invariants');
    expect(new AgentsError('x', EXIT_CODES.usage, { hintAnySurface: true }).hintAnySurface).toBe(false);
  });
});

describe('the command an error with more problems than it lists names', () => {
  it("carries the run's --store, so that, pasted where it ran, it validates the same store", async () => {
    const cwd = tempDir();
    const store = "policy store/it's";
    expect((await runAgents(['init', '--store', store, '--actor', 'none'], { cwd })).code).toBe(0);
    for (let i = 0; i < 25; i++) writeFileSync(join(cwd, store, 'global', `bad${i}.yaml`), 'id: [\n');
    const refused = await runAgents(['--store', store, 'invariant', 'list'], { cwd });
    expect(refused.code).not.toBe(0);
    const named = /more \(run `agents ([^`]+)`\)/.exec(refused.stderr)?.[1];
    expect(named, refused.stderr).toBeDefined();
    expect(shellWords(named as string)).toEqual(['--store', store, 'validate']);
  });
});
