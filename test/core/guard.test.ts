import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildGuardIndex, evaluateGuards, type GuardAction, patternsNeeded } from '../../src/core/guard.ts';
import { GuardMatchers, requiredLiteral } from '../../src/core/guard-matchers.ts';
import { guardReason } from '../../src/core/guard-reason.ts';
import { compileRegex, guardProblems, regexProblem, runMayOutlast } from '../../src/core/guard-patterns.ts';
import { reservedReason } from '../../src/core/guard-reserved.ts';
import { hasUnsafe } from '../../src/core/plain-text.ts';
import type { Guard, Scope, ScopedInvariant, Severity } from '../../src/core/model.ts';
import type { ScopedWaiver } from '../../src/core/waivers.ts';
import { verdictJson } from '../../src/present/guard.ts';
import { scopedInvariant } from '../helpers/invariants.ts';

const NOW = new Date('2026-12-02T12:00:00Z');
const GLOBAL: Scope = { kind: 'global' };
const APP: Scope = { kind: 'project', project: 'app' };
const PLAN = '01JH5G411EVHG9XHQ43X20SSN4';
const PLAN_SCOPE: Scope = { kind: 'plan', plan: PLAN };
const INHERITED: Scope = { kind: 'inherited', source: 'corp', order: 0 };
const PROJECTS = new Map([
  ['app', { paths: ['services/app/**'] }],
  ['web', { paths: ['web/**'] }],
]);

let n = 0;
function inv(scope: Scope, guard: Guard, extra: Partial<ScopedInvariant> & { text?: string } = {}): ScopedInvariant {
  n++;
  const id = `01JGGEBWJTQ6P08NTXZQ7T${String(n).padStart(4, '0')}`;
  return scopedInvariant(id, scope, extra.text ?? `invariant ${n}`, { guard, ...extra });
}

function waiver(invariantId: string, scope: ScopedWaiver['scope'], expires = '2026-12-31'): ScopedWaiver {
  return {
    id: '01JH5G411EVHG9XHQ43X20W000',
    invariant_id: invariantId,
    reason: 'r',
    owner: 'o',
    expires,
    created_at: '2026-12-01T00:00:00Z',
    scope,
    path: 'x',
  };
}

function decide(
  invariants: ScopedInvariant[],
  action: Partial<GuardAction>,
  /** `plan`: the plan is active (targeting `{project}` when given). */
  options: { waivers?: ScopedWaiver[]; plan?: boolean | { project: string }; caseless?: boolean } = {},
) {
  const index = buildGuardIndex({
    invariants,
    projects: PROJECTS,
    waivers: options.waivers ?? [],
    plan: options.plan ? { id: PLAN, ...(options.plan === true ? {} : options.plan) } : undefined,
    now: NOW,
    caseless: options.caseless,
  });
  // Through JSON, as the hook reads the index from its file.
  return evaluateGuards(
    JSON.parse(JSON.stringify(index)),
    { tool: 'Write', files: [], texts: [], ...action },
    NOW,
    new GuardMatchers(compileRegex),
  );
}

describe('each guard kind', () => {
  const g = inv(GLOBAL, {
    write: ['secrets/**', '*.pem'],
    command: ['\\brm\\s+-r'],
    content: ['AKIA[0-9A-Z]{16}'],
    tool: ['mcp__db__drop_table'],
  });
  it.each([
    ['a write to a guarded path', { files: ['secrets/prod.env'] }, 'write'],
    ['a write matching a second glob', { files: ['key.pem'] }, 'write'],
    ['a guarded command', { tool: 'Bash', command: 'cd x && rm -r build', cwd: '' }, 'command'],
    ['guarded text in a file', { files: ['src/a.ts'], texts: ['const k = "AKIAABCDEFGHIJKLMNOP"'] }, 'content'],
    ['guarded text in a tool argument', { tool: 'mcp__x__y', texts: ['{"k":"AKIAABCDEFGHIJKLMNOP"}'] }, 'content'],
    ['a guarded tool', { tool: 'mcp__db__drop_table', cwd: '' }, 'tool'],
  ])('denies %s', (_name, action, kind) => {
    const v = decide([g], action);
    expect(v.decision).toBe('deny');
    expect(v.decisive?.kind).toBe(kind);
    expect(v.decisive?.rule.id).toBe(g.id);
  });
  it("denies a Gemini CLI MCP tool by Claude Code's name for it, and still by Gemini CLI's", () => {
    const action = { tool: 'mcp__db__drop_table', clientTool: 'mcp_db_drop_table', cwd: '' };
    expect(decide([g], action).decisive?.kind).toBe('tool');
    expect(decide([inv(GLOBAL, { tool: ['mcp_db_drop_table'] })], action).decision).toBe('deny');
  });
  it.each([
    ['an unguarded path', { files: ['src/secrets.ts'] }],
    ['an unguarded command', { tool: 'Bash', command: 'rmdir build', cwd: '' }],
    ['harmless text', { files: ['src/a.ts'], texts: ['AKIA-not-a-key'] }],
    ['another tool', { tool: 'mcp__db__select' }],
  ])('says nothing about %s', (_name, action) => {
    expect(decide([g], action)).toEqual({ decision: 'none', hits: [] });
  });
});

describe('scopes', () => {
  const p = inv(APP, { write: ['**/*.sql'], command: ['^make deploy'] });
  it("a project's guard applies to its own files and to commands run from its folders", () => {
    expect(decide([p], { files: ['services/app/db/init.sql'] }).decision).toBe('deny');
    expect(decide([p], { tool: 'Bash', command: 'make deploy', cwd: 'services/app/src' }).decision).toBe('deny');
  });
  it("not to another project's files, files of no project, or commands run elsewhere", () => {
    expect(decide([p], { files: ['web/init.sql'] }).decision).toBe('none');
    expect(decide([p], { files: ['init.sql'] }).decision).toBe('none');
    expect(decide([p], { tool: 'Bash', command: 'make deploy', cwd: 'web' }).decision).toBe('none');
    expect(decide([p], { tool: 'Bash', command: 'make deploy', cwd: '' }).decision).toBe('none');
    expect(decide([p], { tool: 'Bash', command: 'make deploy' }).decision).toBe('none');
  });
  it('global and inherited guards apply everywhere', () => {
    for (const scope of [GLOBAL, INHERITED]) {
      const g = inv(scope, { write: ['**/*.sql'] });
      for (const file of ['services/app/a.sql', 'web/a.sql', 'a.sql']) expect(decide([g], { files: [file] }).decision).toBe('deny');
    }
  });
  it("a plan's guard applies everywhere while that plan is active, and not otherwise", () => {
    const pl = inv(PLAN_SCOPE, { write: ['docs/**'] });
    expect(decide([pl], { files: ['docs/a.md'] }, { plan: true }).decision).toBe('deny');
    expect(decide([pl], { files: ['web/docs/a.md'] }, { plan: true }).decision).toBe('none');
    expect(decide([pl], { files: ['docs/a.md'] }).decision).toBe('none');
  });
  it("folders and projects named as Object's own keys (constructor, __proto__, toString) are judged as any other", () => {
    const g = inv(GLOBAL, { write: ['**/*.pem'] });
    const c = inv({ kind: 'project', project: 'constructor' }, { write: ['**/*.sql'] });
    const projects = new Map([
      ['constructor', { paths: ['constructor/**', '__proto__/**'] }],
      ['web', { paths: ['web/**'] }],
    ]);
    const index = JSON.parse(JSON.stringify(buildGuardIndex({ invariants: [g, c], projects, waivers: [], now: NOW })));
    const judge = (file: string) => evaluateGuards(index, { tool: 'Write', files: [file], texts: [] }, NOW).decision;
    for (const folder of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])
      expect([judge(`${folder}/key.pem`), judge(`${folder}/x.txt`)]).toEqual(['deny', 'none']);
    expect([judge('constructor/a.sql'), judge('__proto__/a.sql'), judge('toString/a.sql')]).toEqual(['deny', 'deny', 'none']);
  });
  it('an inactive invariant guards nothing', () => {
    expect(decide([inv(GLOBAL, { write: ['**'] }, { active: false })], { files: ['a'] }).decision).toBe('none');
  });
});

describe('a folder the action writes files of unknown names into (an archive the hook cannot read)', () => {
  const pem = inv(GLOBAL, { write: ['secrets/*.pem'] });
  const sql = inv(APP, { write: ['**/*.sql'] });
  it('meets every write glob that may match a file below it, in the projects that may hold one', () => {
    const below = decide([pem, sql], { tool: 'Bash', folders: ['secrets'] });
    expect([below.decision, below.decisive?.entry, below.decisive?.subject, below.decisive?.below]).toEqual([
      'deny',
      'secrets/*.pem',
      'secrets/',
      true,
    ]);
    expect(verdictJson(below, undefined, null).hits[0]).toMatchObject({ subject: 'secrets/', below: true });
    expect(decide([sql], { tool: 'Bash', folders: ['services'] }).decisive?.project).toBe('app');
    expect(
      decide([pem, sql], { tool: 'Bash', folders: [''] })
        .hits.map((h) => h.entry)
        .sort(),
    ).toEqual(['**/*.sql', 'secrets/*.pem']);
  });
  it('not a glob that can match nothing below it, nor a project that holds nothing there', () => {
    expect(decide([pem, sql], { tool: 'Bash', folders: ['vendor'] }).decision).toBe('none');
    expect(decide([pem], { tool: 'Bash', folders: ['secrets/deep'] }).decision).toBe('none');
    expect(decide([sql], { tool: 'Bash', folders: ['web'] }).decision).toBe('none');
  });
});

describe('a repository where git ignores case (core.ignorecase)', () => {
  const g = inv(GLOBAL, { write: ['secrets/**', '*.PEM'] });
  const p = inv(APP, { write: ['**/*.sql'], command: ['^make deploy'] });
  it('write globs and project paths match whatever the case of the path or the glob', () => {
    for (const file of ['SECRETS/prod.env', 'Secrets/a', 'key.pem', 'KEY.Pem'])
      expect(decide([g], { files: [file] }, { caseless: true }).decision, file).toBe('deny');
    expect(decide([p], { files: ['Services/App/db/INIT.SQL'] }, { caseless: true }).decision).toBe('deny');
    expect(decide([p], { tool: 'Bash', command: 'make deploy', cwd: 'SERVICES/app/src' }, { caseless: true }).decision).toBe('deny');
    // The hit names the path as the agent named it.
    expect(decide([g], { files: ['Secrets/a'] }, { caseless: true }).decisive).toMatchObject({ entry: 'secrets/**', subject: 'Secrets/a' });
  });
  it('a name and its decomposed spelling are one there, as macOS takes them', () => {
    const accented = inv(GLOBAL, { write: ['caf\u00e9/**', 'r\u0065\u0301sum\u00e9.md'] });
    for (const file of ['cafe\u0301/menu.md', 'CAF\u00c9/menu.md', 'r\u00e9sum\u00e9.md', 'R\u0045\u0301SUME\u0301.md'])
      expect(decide([accented], { files: [file] }, { caseless: true }).decision, file).toBe('deny');
    expect(decide([accented], { files: ['cafe\u0301/menu.md'] }).decision).toBe('none');
  });
  it("a name as those file systems' tables fold it, and without what Windows and HFS+ leave out of a name", () => {
    for (const file of ['\u017fecrets/prod.env', 'secrets./prod.env', 'secrets /a', 'secre\u200cts/a', 'key.pem.'])
      expect(decide([g], { files: [file] }, { caseless: true }).decision, file).toBe('deny');
    expect(decide([p], { files: ['\u017fervices/app/db/init.sql'] }, { caseless: true }).decision).toBe('deny');
    expect(decide([g], { files: ['\u017fecrets/prod.env', 'secrets./prod.env'] }).decision).toBe('none');
  });
  it('and only there: elsewhere another case is another path', () => {
    for (const file of ['SECRETS/prod.env', 'key.pem']) expect(decide([g], { files: [file] }).decision, file).toBe('none');
    expect(decide([p], { files: ['Services/App/db/init.sql'] }).decision).toBe('none');
  });
});

describe('severity', () => {
  it.each([
    ['error', 'deny'],
    ['warning', 'ask'],
    ['info', 'allow'],
  ] as [Severity, string][])('%s → %s', (severity, decision) => {
    expect(decide([inv(GLOBAL, { write: ['**'] }, { severity })], { files: ['a'] }).decision).toBe(decision);
  });
  it('the strictest hit decides', () => {
    const v = decide([inv(GLOBAL, { write: ['**'] }, { severity: 'info' }), inv(GLOBAL, { write: ['a'] }, { severity: 'error' })], {
      files: ['a'],
    });
    expect(v.decision).toBe('deny');
    expect(v.hits).toHaveLength(2);
  });
});

describe('precedence and de-duplication', () => {
  it("a project's copy of the same text replaces the global one in that project only", () => {
    const text = 'Never change generated code';
    const g = inv(GLOBAL, { write: ['**/gen/**'] }, { text });
    const p = inv(APP, { write: ['**/gen/**'] }, { text, severity: 'warning' });
    const inApp = decide([g, p], { files: ['services/app/gen/a.ts'] });
    expect(inApp.decision).toBe('ask');
    expect(inApp.hits.map((h) => h.rule.id)).toEqual([p.id]);
    expect(decide([g, p], { files: ['web/gen/a.ts'] }).decisive?.rule.id).toBe(g.id);
  });
  it('a copy without a guard drops the guard of the copy it hides (it is the invariant now)', () => {
    const text = 'Keep the schema stable';
    expect(
      decide([inv(GLOBAL, { write: ['**/*.sql'] }, { text }), inv(APP, {}, { text, guard: undefined })], { files: ['services/app/a.sql'] })
        .decision,
    ).toBe('none');
  });
  it('but not a locked floor of a policy source: its guard still applies', () => {
    const text = 'Never commit credentials';
    const floor = inv(INHERITED, { content: ['BEGIN PRIVATE KEY'] }, { text, locked: true });
    const copy = inv(GLOBAL, {}, { text, guard: undefined });
    const v = decide([floor, copy], { files: ['a.txt'], texts: ['-----BEGIN PRIVATE KEY-----'] });
    expect(v.decision).toBe('deny');
    expect(v.decisive?.rule.locked).toBe(true);
  });
});

describe('waivers', () => {
  const g = inv(GLOBAL, { write: ['**/*.lock'] });
  it("a project's waiver lets the guard through in that project only, while it holds", () => {
    const w = [waiver(g.id, { kind: 'project', project: 'app' })];
    const inApp = decide([g], { files: ['services/app/x.lock'] }, { waivers: w });
    expect(inApp.decision).toBe('none');
    expect(inApp.hits).toMatchObject([{ waived: true }]);
    expect(decide([g], { files: ['web/x.lock'] }, { waivers: w }).decision).toBe('deny');
    expect(
      decide([g], { files: ['services/app/x.lock'] }, { waivers: [waiver(g.id, { kind: 'project', project: 'app' }, '2026-12-01')] })
        .decision,
    ).toBe('deny');
  });
  it("a plan's waiver of a project's invariant only when the plan targets that project; a project's never of a plan's own", () => {
    const web = inv({ kind: 'project', project: 'web' }, { write: ['web/secrets/**'] });
    const own = inv(PLAN_SCOPE, { write: ['web/generated/**'] });
    const byPlan = [waiver(web.id, { kind: 'plan', plan: PLAN })];
    expect(decide([web], { files: ['web/secrets/a'] }, { waivers: byPlan, plan: { project: 'app' } }).decision).toBe('deny');
    expect(decide([web], { files: ['web/secrets/a'] }, { waivers: byPlan, plan: true }).decision).toBe('deny');
    expect(decide([web], { files: ['web/secrets/a'] }, { waivers: byPlan, plan: { project: 'web' } }).decision).toBe('none');
    const byProject = [waiver(own.id, { kind: 'project', project: 'web' })];
    expect(decide([own], { files: ['web/generated/a'] }, { waivers: byProject, plan: { project: 'web' } }).decision).toBe('deny');
  });
  it("a plan's waiver, while that plan is active", () => {
    const w = [waiver(g.id, { kind: 'plan', plan: PLAN })];
    expect(decide([g], { files: ['x.lock'] }, { waivers: w, plan: true }).decision).toBe('none');
    expect(decide([g], { files: ['x.lock'] }, { waivers: w }).decision).toBe('deny');
  });
  it('never a locked floor', () => {
    const floor = inv(INHERITED, { write: ['**/*.key'] }, { locked: true });
    expect(decide([floor], { files: ['a.key'] }, { waivers: [waiver(floor.id, { kind: 'plan', plan: PLAN })], plan: true }).decision).toBe(
      'deny',
    );
  });
  it('is judged at the time of the call, not when the index was built', () => {
    const index = buildGuardIndex({
      invariants: [g],
      projects: PROJECTS,
      waivers: [waiver(g.id, { kind: 'project', project: 'app' })],
      now: NOW,
    });
    const action = { tool: 'Write', files: ['services/app/x.lock'], texts: [] };
    expect(evaluateGuards(index, action, NOW).decision).toBe('none');
    expect(evaluateGuards(index, action, new Date('2027-01-01T00:00:00Z')).decision).toBe('deny');
  });
});

describe('the engine is needed only when a pattern must run', () => {
  const p = inv(APP, { content: ['SECRET'], command: ['^deploy'] });
  const g = inv(GLOBAL, { write: ['**/*.lock'] });
  const index = buildGuardIndex({ invariants: [p, g], projects: PROJECTS, waivers: [], now: NOW });
  it.each([
    ['text written in the project', { files: ['services/app/a.ts'], texts: ['a SECRET'] }, true],
    ['a command run in the project', { command: 'deploy web', cwd: 'services/app' }, true],
    ["text in the project without the pattern's literal", { files: ['services/app/a.ts'], texts: ['x'] }, false],
    ["a command in the project without the pattern's literal", { command: 'ls', cwd: 'services/app' }, false],
    ['text written elsewhere', { files: ['web/a.ts'], texts: ['a SECRET'] }, false],
    ['a command run elsewhere', { command: 'deploy web', cwd: 'web' }, false],
    ['a write without text', { files: ['services/app/a.ts'] }, false],
  ])('%s: %s', (_name, action, needed) => {
    expect(patternsNeeded(index, { tool: 'Write', files: [], texts: [], ...action })).toBe(needed);
  });
  it('and without the engine, a write guard still decides', () => {
    expect(evaluateGuards(index, { tool: 'Write', files: ['web/x.lock'], texts: ['x'] }, NOW).decision).toBe('deny');
  });
  it("compiles only the patterns of the action's kind where they apply, and those still deny what they match", () => {
    const g2 = inv(GLOBAL, { command: ['^rm '], content: ['AKIA'] });
    const both = buildGuardIndex({ invariants: [p, g, g2], projects: PROJECTS, waivers: [], now: NOW });
    const judge = (action: Partial<GuardAction>) => {
      const compiled: string[] = [];
      const m = new GuardMatchers((pattern) => {
        compiled.push(pattern);
        return compileRegex(pattern);
      });
      const verdict = evaluateGuards(both, { tool: 'Write', files: [], texts: [], ...action }, NOW, m);
      return { decision: verdict.decision, compiled: compiled.sort() };
    };
    // A write with text: content patterns only, the project's where the file is in it, and only those whose literal the text holds.
    expect(judge({ files: ['services/app/a.ts'], texts: ['AKIA SECRET'] })).toEqual({ decision: 'deny', compiled: ['AKIA', 'SECRET'] });
    expect(judge({ files: ['services/app/a.ts'], texts: ['AKIA'] })).toEqual({ decision: 'deny', compiled: ['AKIA'] });
    expect(judge({ files: ['web/a.ts'], texts: ['SECRET AKIB'] })).toEqual({ decision: 'none', compiled: [] });
    // A command: command patterns only, the project's where it runs from its folder.
    expect(judge({ tool: 'Bash', command: 'rm -r x', cwd: 'web' })).toEqual({ decision: 'deny', compiled: ['^rm '] });
    expect(judge({ tool: 'Bash', command: 'deploy', cwd: 'services/app' })).toEqual({ decision: 'deny', compiled: ['^deploy'] });
    expect(judge({ tool: 'Bash', command: 'deploy; rm -r x', cwd: 'services/app' })).toEqual({
      decision: 'deny',
      compiled: ['^deploy', '^rm '],
    });
    // The literal is there, the pattern does not match: the engine decides.
    expect(judge({ tool: 'Bash', command: 'echo rm x', cwd: 'web' })).toEqual({ decision: 'none', compiled: ['^rm '] });
    // A write without text, or a tool call: none.
    expect(judge({ files: ['services/app/a.ts'] })).toEqual({ decision: 'none', compiled: [] });
    expect(judge({ tool: 'mcp__x' })).toEqual({ decision: 'none', compiled: [] });
  });
});

describe('the literal every match of a pattern holds', () => {
  it.each([
    ['AKIA[0-9A-Z]{16}', 'AKIA'],
    ['^rm -rf', 'rm -rf'],
    ['SECRET_5_[A-Z0-9]{8}', 'SECRET_5_'],
    ['colou?r', 'colo'],
    ['abc*', 'ab'],
    ['abc+', 'abc'],
    ['ab{0,3}', 'a'],
    ['a.b', 'a'],
    ['password', 'password'],
    ['\\bdeploy\\b', ''],
    ['(?i)secret', ''],
    ['[Ss]ecret', ''],
    ['drop|truncate', ''],
    ['abc(d|e)', ''],
    ['a*', ''],
    ['', ''],
    ['^', ''],
    // A quantifier after a flags group applies to the character before the group (RE2).
    ['a(?)?', ''],
    ['xab(?i)(?s)*c', 'xa'],
    ['ab(?i)c', 'ab'],
    ['aa+(?i)*', 'a'],
    ['ab+?', 'a'],
    ['ab+c', 'ab'],
  ])('%s: %j', (pattern, literal) => {
    expect(requiredLiteral(pattern)).toBe(literal);
  });

  it('is in every text the engine matches (random patterns and texts)', () => {
    const pattern = fc
      .array(fc.constantFrom('a', 'b', 'ab', '.', '*', '+', '?', '{1,2}', '|', '(', ')', '[ab]', '^', '\\w', 'c', '(?)', '(?i)'), {
        maxLength: 8,
      })
      .map((parts) => parts.join(''))
      .filter((p) => regexProblem(p) === undefined);
    fc.assert(
      fc.property(pattern, fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' '), maxLength: 12 }), (p, text) => {
        if (compileRegex(p)(text)) expect(text).toContain(requiredLiteral(p));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the reason', () => {
  it("names the invariant's id, text, scope and severity, what matched, and how to waive it", () => {
    const p = inv(APP, { write: ['**/*.sql'] }, { text: 'No hand-written SQL' });
    const v = decide([p], { files: ['services/app/a.sql'] }, { plan: { project: 'app' } });
    const reason = guardReason(v.decisive!, PLAN, 'app');
    for (const part of [
      p.id,
      'No hand-written SQL',
      'project app',
      'error',
      '**/*.sql',
      'services/app/a.sql',
      `invariant waive ${p.id} --plan ${PLAN}`,
    ])
      expect(reason).toContain(part);
  });

  it("names the project's waiver for an invariant of a project the active plan does not target, which the plan's cannot waive", () => {
    const p = inv(APP, { write: ['**/*.sql'] });
    for (const planProject of ['web', undefined]) {
      const reason = guardReason(decide([p], { files: ['services/app/a.sql'] }, { plan: true }).decisive!, PLAN, planProject);
      expect(reason).toContain(`invariant waive ${p.id} --project app `);
    }
    const g = inv(GLOBAL, { write: ['**/*.sql'] });
    expect(guardReason(decide([g], { files: ['services/app/a.sql'] }, { plan: true }).decisive!, PLAN, 'web')).toContain(
      `invariant waive ${g.id} --plan ${PLAN} `,
    );
  });

  it('quotes a pattern as it was written: its backslashes are not doubled', () => {
    const g = inv(APP, { command: ['\\bterraform\\s+apply\\b'] });
    const reason = guardReason(decide([g], { command: 'terraform apply', cwd: 'services/app' }).decisive!, null);
    expect(reason).toContain('matching `\\bterraform\\s+apply\\b` (terraform apply)');
  });

  it('quotes a long command in a few hundred characters with its whole length, in the reason and the verdict alike', () => {
    const g = inv(APP, { command: ['terraform apply'] });
    const command = `terraform apply ${'x'.repeat(10_000)}`;
    const verdict = decide([g], { command, cwd: 'services/app' });
    const reason = guardReason(verdict.decisive!, null);
    expect(reason.length).toBeLessThan(1000);
    expect(reason).toContain(`… (${command.length} characters)`);
    expect(verdictJson(verdict, reason, null).hits[0]!.subject.length).toBeLessThan(400);
    // A write into git's folder, denied by itself, quotes its path the same way.
    const path = `.git/${'a/'.repeat(50_000)}x`;
    expect(reservedReason({ path, folder: 'git' })).toContain(`… (${path.length} characters)`);
  });

  it("escapes the control and bidirectional characters of what the agent named (a command, a file's name), and keeps it on one line", () => {
    const g = inv(APP, { command: ['rm'], write: ['**/*.key'] });
    const command = 'rm -rf data\r\u001b[2Kls\u202e';
    for (const action of [{ command, cwd: 'services/app' }, { files: ['services/app/\u001b]8;;x\u0007a\nb.key'] }]) {
      const reason = guardReason(decide([g], action).decisive!, null);
      expect(hasUnsafe(reason), reason).toBe(false);
      expect(reason).not.toContain('\n');
      expect(reason).not.toContain('\r');
    }
  });
});

describe('patterns', () => {
  it('a write glob or regular expression the engine does not take is a problem, with its list and place', () => {
    expect(guardProblems({ write: ['ok/**', '/abs'], command: ['(a', 'fine'], content: ['(?=x)y', 'a\\1'], tool: ['t'] })).toEqual([
      { kind: 'write', index: 1, problem: expect.stringContaining('absolute') },
      { kind: 'command', index: 0, problem: expect.stringContaining('not an RE2') },
      { kind: 'content', index: 0, problem: expect.stringContaining('not an RE2') },
      { kind: 'content', index: 1, problem: expect.stringContaining('not an RE2') },
    ]);
  });
  it('hostile patterns run in linear time: nested repetition over long text ends', () => {
    // Each would backtrack for longer than the age of the universe in a backtracking engine.
    for (const p of ['(a+)+$', '(a|aa)+$', '(x+x+)+y', '^(([a-z])+.)+[A-Z]([a-z])+$']) {
      expect(compileRegex(p)(`${'a'.repeat(50_000)}!`)).toBe(false);
    }
  });
  it('text over 1 MiB is matched whole: `^`/`$` only at its ends, a match longer than 4 KiB across any MiB seen, a hostile pattern still false', () => {
    const MiB = 1 << 20;
    const text = `${'x'.repeat(MiB - 5)}AKIAABCDEFGHIJKLMNOP${'x'.repeat(100)}`;
    expect(compileRegex('AKIA[0-9A-Z]{16}')(text)).toBe(true);
    expect(compileRegex('AKIA[0-9A-Z]{16}')('x'.repeat(3 * MiB))).toBe(false);
    // "exit 1" ends the first MiB, not the text.
    expect(compileRegex('exit 1$')(`${'#'.repeat(MiB - 6)}exit 1\necho done\n`)).toBe(false);
    expect(compileRegex('^echo')(`${'#'.repeat(MiB - 6)}exit 1echo done\n`)).toBe(false);
    expect(compileRegex('exit 1$')(`${'#'.repeat(2 * MiB)}exit 1`)).toBe(true);
    // A 6 KB key across the edge of the first MiB.
    const key = `-----BEGIN PRIVATE KEY-----\n${'A'.repeat(6000)}\n-----END PRIVATE KEY-----\n`;
    expect(compileRegex('(?s)-----BEGIN PRIVATE KEY-----.*-----END PRIVATE KEY-----')(`${'#'.repeat(MiB - 5000)}${key}`)).toBe(true);
    expect(compileRegex('(a+)+$')(`${'a'.repeat(2 * MiB)}!`)).toBe(false);
  });
  it('a pattern knows the size of its program, which with the text decides whether one run may outlast the time left', () => {
    const [simple, heavy] = [compileRegex('(?i)password\\s*='), compileRegex('((\\w+\\s*){1,30}\\d*){1,30}[xq]{2}')];
    // Read from re2js's compiled form: a version that moved it would take every program at the largest size.
    expect(simple.size).toBeGreaterThan(5);
    expect(simple.size).toBeLessThan(50);
    expect(heavy.size).toBeGreaterThan(100 * simple.size);
    const bound = 20_000;
    // The hook's common call: a few KB under the whole bound stays in the hook's thread, whatever the pattern.
    expect(runMayOutlast(4096, heavy.size, bound)).toBe(false);
    // 8 MiB against a simple pattern stays there too; 2 MB against the heavy one does not.
    expect(runMayOutlast(8 << 20, simple.size, bound)).toBe(false);
    expect(runMayOutlast(2_000_000, heavy.size, bound)).toBe(true);
    // The time left decides: the same run goes to the thread once little is left, and always once none is.
    expect(runMayOutlast(2_000_000, simple.size, 100)).toBe(true);
    expect(runMayOutlast(1, 1, 0)).toBe(true);
  });
  it('a line that ends in CRLF or CR ends where `$` holds, as one that ends in LF does', () => {
    for (const text of ['PORT=1\nDEBUG=true\nX=2\n', 'PORT=1\r\nDEBUG=true\r\nX=2\r\n', 'PORT=1\rDEBUG=true\rX=2\r'])
      expect(compileRegex('(?m)^DEBUG=true$')(text), JSON.stringify(text)).toBe(true);
    expect(compileRegex('(?m)^DEBUG=true$')('DEBUG=true2\r\n')).toBe(false);
  });
});
