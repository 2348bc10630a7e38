import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.ts';
import { githubLog, githubStepSummary, STEP_SUMMARY_LIMIT } from '../../src/validate/format-github.ts';
import type { ValidationResult } from '../../src/validate/result.ts';

function result(n: number): ValidationResult {
  const diagnostics: Diagnostic[] = [];
  for (let i = 0; i < n; i++)
    diagnostics.push({
      code: 'schema',
      severity: 'error',
      file: `global/file-${String(i).padStart(6, '0')}.yaml`,
      line: 1,
      col: 1,
      message: `missing required key "text" — ${'é'.repeat(60)}`,
    });
  return {
    store: '/repo/.agents',
    source: 'working tree',
    files: n,
    diagnostics,
    fixes: [],
    strict: false,
    ok: n === 0,
    counts: { error: n, warning: 0, info: 0 },
    displayPrefix: '.agents/',
    repoPrefix: '.agents/',
  };
}

const rows = (md: string) => md.split('\n').filter((l) => l.startsWith('| error |')).length;

describe('validate --format github: the step summary', () => {
  it('stays within the bytes GitHub keeps, counting the rows it leaves out (--verbose over 10,000 findings)', () => {
    const md = [...githubStepSummary(result(10_000), true)].join('');
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(STEP_SUMMARY_LIMIT);
    const shown = rows(md);
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(10_000);
    expect(Number(/… and (\d+) more rows?:/.exec(md)?.[1])).toBe(10_000 - shown);
  });

  it('writes a summary that fits whole', () => {
    const md = [...githubStepSummary(result(500), true)].join('');
    expect(rows(md)).toBe(500);
    expect(md).not.toMatch(/more rows?:/);
  });
});

describe('validate --format github: the annotations', () => {
  it("escape a file name's %, CR, LF, : and , in its property as GitHub decodes them, and the message's %, CR and LF, each a line of its own", () => {
    const r = result(0);
    const file = 'secrets/a%b:c,d\ne\rf.txt';
    r.diagnostics.push({ code: 'guard-violation', severity: 'error', file, line: 2, col: 3, message: `writes ${file}%` });
    const annotation = [...githubLog(r)].join('').split('\n')[0]!;
    expect(annotation.startsWith('::error file=.agents/secrets/a%25b%3Ac%2Cd%0Ae%0Df.txt,line=2,col=3,')).toBe(true);
    const data = annotation.slice(annotation.indexOf('::', 2) + 2);
    expect(data).not.toMatch(/[\r\n]|%(?!25|0A|0D)/);
    expect(data.endsWith('%25')).toBe(true);
  });
});
