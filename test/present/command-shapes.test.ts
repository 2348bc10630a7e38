// The shapes of the commands that gather data and hand it to src/present (project, action, which, plan activate,
// plan list and decisions, init, export, import's stale line, guard install, invariant add, move, edit, remove and
// waive, violation add and list, extends fetch and update, plan sync and strategize): their JSON, keys in order, as docs/json-output.md gives them,
// and their text, as the commands printed them before the shapes moved out of src/cli/commands.
import { describe, expect, it } from 'vitest';
import { makeStyle } from '../../src/core/style.ts';
import type { Diagnostic } from '../../src/core/diagnostics.ts';
import { actionAddedJson, actionAddedText, actionListText } from '../../src/present/action.ts';
import { activePlanJson, activePlanText } from '../../src/present/active-plan.ts';
import {
  CHECK_DIFF_LINES,
  checkJson,
  checkProblems,
  checkText,
  dryRunJson,
  standaloneJson,
  writtenJson,
  writtenText,
} from '../../src/present/export.ts';
import { unifiedDiff } from '../../src/cli/unified-diff.ts';
import { guardInstallRows, guardInstallText } from '../../src/present/guard-install.ts';
import { initJson, initText } from '../../src/present/init.ts';
import { decisionsJson, decisionsText, planListText } from '../../src/present/plan.ts';
import { projectAddedJson, projectListText, projectRemovedJson, projectRemovedText } from '../../src/present/project.ts';
import { staleLine } from '../../src/present/stale-exports.ts';
import { whichText } from '../../src/present/which.ts';
import {
  addedJson,
  addedSentence,
  addedText,
  editedJson,
  editedText,
  movedJson,
  movedText,
  removedJson,
  removedText,
} from '../../src/present/invariant-write.ts';
import { waivedJson, waivedText } from '../../src/present/plan.ts';
import { recordedLine, recordedText, violationJson, violationListJson, violationListText } from '../../src/present/violation.ts';
import { fetchedJson, fetchedText, updateJson, updateText } from '../../src/present/extends.ts';
import { syncJson, syncText } from '../../src/present/plan-sync.ts';
import { promptJson, promptText, strategizedJson, strategizedText } from '../../src/present/strategize.ts';
import type { StrategizeResult, SyncResult } from '../../src/service/plans/types.ts';
import type { Plan, ScopedInvariant } from '../../src/core/model.ts';
import { scopedInvariant } from '../helpers/invariants.ts';
import type { ShowResult } from '../../src/service/invariants/types.ts';
import type { SourceMove } from '../../src/service/extends-service.ts';
import type { ExportPlan } from '../../src/service/export-plan.ts';

const s = makeStyle(false);
/** The document as emit prints it: key order is part of the shape. */
const doc = (x: unknown) => JSON.stringify(x);
const PLAN = '01JDQ6X5Z8W4N3B2C1D0E9F8G1';

describe('project and action shapes', () => {
  it('project add, list and remove', () => {
    const added = { project: 'web', folder: 'projects/web', path: 'projects/web/project.yaml', adopted: false };
    expect(doc(projectAddedJson(added))).toBe(doc({ ...added, commit: null }));
    expect(doc(projectAddedJson({ ...added, adopted: true, commit: 'a'.repeat(40) }))).toContain(`"commit":"${'a'.repeat(40)}"`);
    const removed = { project: 'batch', folder: 'projects/batch', removed: ['projects/batch/.gitkeep'] };
    expect(doc(projectRemovedJson(removed))).toBe(doc({ ...removed, commit: null }));
    expect(projectRemovedText(s, { ...removed, commit: 'b'.repeat(40) })).toBe(
      `removed project batch (projects/batch/)\n  committed ${'b'.repeat(12)}`,
    );
    const summary = (project: string, n: number) => ({ project, folder: `projects/${project}`, invariants: n, active: n, plans: n });
    expect(projectListText(s, [summary('api', 0), summary('web', 1)], 'agents')).toBe(
      'api  0 active of 0 invariants · 0 plans\nweb  1 active of 1 invariant · 1 plan\n\n2 projects',
    );
    expect(projectListText(s, [], 'agents')).toMatch(/^No projects\./);
  });

  it('action add and list', () => {
    const added = { action: 'local/cov', path: 'actions/local/cov/action.yaml', description: 'Coverage' };
    expect(doc(actionAddedJson(added))).toBe(doc({ ...added, commit: null }));
    expect(actionAddedText(s, added, 'agents')).toBe(
      'created action local/cov\n  actions/local/cov/action.yaml\n\nNext: agents invariant add --action local/cov "…"',
    );
    const listed = {
      action: 'policy:org/release',
      source: 'policy',
      description: 'Releases',
      folder: 'extends/policy/actions/org/release',
      invariants: 1,
      active: 1,
      plans: 0,
    };
    expect(actionListText(s, [listed], 'agents')).toBe(
      'policy:org/release  1 active of 1 invariant · 0 plans · from policy source policy\n  Releases\n\n1 action template',
    );
  });

  it('which', () => {
    expect(
      whichText(s, [
        { path: 'web/src/a.ts', projects: ['web'] },
        { path: '.', projects: [] },
      ]),
    ).toBe('web/src/a.ts  web\n.  (no project)');
    // A file named with a newline is one line, not a second path with no project.
    expect(whichText(s, [{ path: 'web/a\nlib/b.ts', projects: ['web'] }])).toBe('web/a\\nlib/b.ts  web');
  });
});

describe('plan activate shape', () => {
  it('found is null with no plan in effect, false for one the store lacks, and the text warns of it', () => {
    expect(doc(activePlanJson({ plan: null, env: null, missing: null, matches: [] }))).toBe(
      doc({ plan: null, env: null, found: null, matches: [] }),
    );
    const gone = { plan: PLAN, env: 'ZZZZ', missing: 'no plan with id ZZZZ', matches: [] };
    expect(doc(activePlanJson(gone))).toBe(doc({ plan: PLAN, env: 'ZZZZ', found: false, matches: [] }));
    const lines = activePlanText(gone, 'agents').split('\n');
    expect(lines.slice(0, 2)).toEqual([`active plan ${PLAN}`, 'AGENTS_PLAN=ZZZZ in this environment takes precedence']);
    expect(lines[2]).toMatch(/^warning: AGENTS_PLAN=ZZZZ names no plan of the store \(no plan with id ZZZZ\)/);
    const ambiguous = activePlanText({ plan: '01JD', env: null, missing: 'ambiguous', matches: ['01JDA', '01JDB'] }, 'agents').split('\n');
    expect(ambiguous.slice(2, 4)).toEqual(['  01JDA', '  01JDB']);
  });
});

describe('plan list and decisions shapes', () => {
  it('a goal of two lines indented under its plan; an empty tree says what to run', () => {
    const plan = { id: PLAN, action: 'local/cov', project: 'web', goal: 'Two\nlines', created_at: '2026-01-01T00:00:00Z' } as Plan;
    expect(planListText(s, [plan], 'agents')).toBe(
      `${PLAN}  action local/cov · project web · 2026-01-01T00:00:00Z\n  Two\n  lines\n\n1 plan`,
    );
    expect(Object.keys(decisionsJson(plan, []))).toEqual(['plan', 'nodes']);
    expect(decisionsText(s, plan, [], 0, 'agents')).toBe(
      `Decision tree of plan ${PLAN}: 0 nodes\n  (empty: run \`agents plan strategize ${PLAN}\`)`,
    );
  });
});

describe('init shape', () => {
  it('the hook installed in an existing store: no actor, the hook with its merge hook', () => {
    const hook = {
      path: '/r/.git/hooks/pre-commit',
      action: 'installed' as const,
      merge: { path: '/r/.git/hooks/pre-merge-commit', action: 'installed' as const },
      attributes: null,
      runs: ['agents validate --staged', 'agents export --check'],
    };
    const done = {
      store: '/r/.agents',
      made: [],
      creating: false,
      actor: undefined,
      hook,
      exportCheck: true,
      offer: false,
      ignored: undefined,
      instructions: [],
      agents: 'agents',
    };
    expect(doc(initJson(done))).toBe(
      doc({
        store: '/r/.agents',
        created: [],
        actor: null,
        hook: { path: hook.path, action: 'installed', export_check: true, merge_hook: hook.merge, attributes: null },
        ignored_by_git: null,
      }),
    );
    expect(initText(s, done).split('\n')[0]).toBe('installed pre-commit hook /r/.git/hooks/pre-commit');
    const made = initText(s, { ...done, made: ['config.yaml'], creating: true, hook: undefined, instructions: ['AGENTS.md'] });
    expect(made.split('\n').slice(-1)).toEqual(['Next: agents import']);
  });
});

describe('export shapes', () => {
  const change = (path: string, action: 'create' | 'update' | 'unchanged' | 'delete') => ({
    path,
    target: 'agents-md' as const,
    action,
    before: undefined,
    after: '',
  });
  const plan = {
    top: '/r',
    targets: ['agents-md'],
    listed: [],
    changes: [change('web/AGENTS.md', 'update'), change('AGENTS.md', 'create'), change('x/AGENTS.md', 'unchanged')],
    refused: [{ path: 'CLAUDE.md', reason: 'hand-edited', why: 'edited', line: 3 }],
    warnings: [],
    linked: [],
  } as ExportPlan;

  it('a write, --dry-run and --stdout', () => {
    const written = plan.changes.slice(0, 2);
    expect(doc(writtenJson(plan, written))).toBe(
      doc({
        changes: [
          { path: 'web/AGENTS.md', target: 'agents-md', action: 'update' },
          { path: 'AGENTS.md', target: 'agents-md', action: 'create' },
        ],
        unchanged: 1,
        refused: [{ path: 'CLAUDE.md', status: 'edited by hand', line: 3 }],
      }),
    );
    expect(writtenText(s, plan, written)).toBe('updated web/AGENTS.md\ncreated AGENTS.md\n2 files written, 1 up to date (agents-md)');
    expect(Object.keys(dryRunJson(plan, ''))).toEqual(['changes', 'diff', 'refused']);
    expect(doc(standaloneJson('agents-md', { project: 'web' }, 'x'))).toBe(
      doc({ target: 'agents-md', plan: null, project: 'web', content: 'x' }),
    );
  });

  it('--check lists the stale and refused files by path', () => {
    const problems = checkProblems(plan);
    expect(doc(checkJson(plan, problems))).toBe(
      doc({
        ok: false,
        files: [
          { path: 'AGENTS.md', status: 'missing', line: null, diff: null },
          { path: 'CLAUDE.md', status: 'edited by hand', line: 3, diff: null },
          { path: 'web/AGENTS.md', status: 'out of date', line: null, diff: null },
        ],
        up_to_date: 1,
      }),
    );
    expect(checkText(plan, problems)).toBe('AGENTS.md: missing\nCLAUDE.md:3: edited by hand\nweb/AGENTS.md: out of date');
    // A folder named with a newline: one line a file, written and checked alike.
    const odd = { ...plan, changes: [{ ...plan.changes[0]!, path: 'lib\nx/AGENTS.md', action: 'delete' as const }], refused: [] };
    expect(checkText(odd, checkProblems(odd))).toBe('lib\\nx/AGENTS.md: obsolete');
    expect(writtenText(s, odd, odd.changes).split('\n')[0]).toBe('removed lib\\nx/AGENTS.md');
  });

  it('--check shows a hand edit as the diff --force would apply: whole in JSON, cut in text with the count left out', () => {
    const before = Array.from({ length: 60 }, (_, i) => `line ${i}\r\n`).join('');
    const after = before.replace(/line (\d+)/g, 'rule $1');
    const edited = { ...plan, refused: [{ ...plan.refused[0]!, forced: { before, after } }] } as ExportPlan;
    const problems = checkProblems(edited, unifiedDiff);
    const diff = problems.find((p) => p.path === 'CLAUDE.md')!.diff!;
    expect(diff).toBe(unifiedDiff('CLAUDE.md', before, after));
    expect(diff.split('\n')).toHaveLength(3 + 120 + 1);
    expect(problems.filter((p) => p.diff !== null)).toHaveLength(1);
    const lines = checkText(edited, problems, 'agents export --target claude-md').split('\n');
    const at = lines.indexOf('CLAUDE.md:3: edited by hand');
    // The diff's first lines, indented, line ends aside; then how many more there are, and the command that prints them.
    expect(lines.slice(at + 1, at + 4)).toEqual(['  --- a/CLAUDE.md', '  +++ b/CLAUDE.md', '  @@ -1,60 +1,60 @@']);
    expect(lines[at + 4]).toBe('  -line 0');
    expect(lines.slice(at + 1, at + 1 + CHECK_DIFF_LINES).every((l) => l.startsWith('  ') && !l.includes('\r'))).toBe(true);
    expect(lines[at + 1 + CHECK_DIFF_LINES]).toMatch(/^ {2}… 83 more lines .*`agents export --target claude-md --dry-run --force`/);
    expect(lines[at + 2 + CHECK_DIFF_LINES]).toBe('web/AGENTS.md: out of date');
    // A file the export would delete with --force: the diff goes to /dev/null.
    const gone = { ...plan, refused: [{ ...plan.refused[0]!, forced: { before: 'x\n', after: undefined } }] } as ExportPlan;
    expect(checkProblems(gone, unifiedDiff).find((p) => p.path === 'CLAUDE.md')!.diff).toContain('+++ /dev/null');
  });
});

describe('guard install and stale-exports shapes', () => {
  it('rows of an install, and of a --check with the folders after the clients', () => {
    const client = { client: 'claude' as const, rel: '.claude/settings.json', installed: false, changed: true, other: 'npx agents' };
    expect(guardInstallRows([client], false)).toEqual([{ client: 'claude', file: '.claude/settings.json', status: 'written' }]);
    const folder = { client: 'claude' as const, file: 'web/.claude/settings.json', status: 'off' as const, line: 2, col: 5 };
    const rows = guardInstallRows([client], true, [folder]);
    expect(doc(rows)).toBe(doc([{ client: 'claude', file: '.claude/settings.json', status: 'missing', program: 'npx agents' }, folder]));
    expect(guardInstallText(rows)).toBe('claude  .claude/settings.json  missing\nclaude  web/.claude/settings.json:2:5  off');
  });

  it('the stale line names the files', () => {
    expect(staleLine(['AGENTS.md', 'web/AGENTS.md'])).toContain('AGENTS.md, web/AGENTS.md');
  });
});

describe('invariant write shapes', () => {
  const G = '01M8KJW430VF8WCABSB8RTQ8RY';
  const W = '01M8KJZS90J6DRJJ8E264B9DFX';
  const inv = (id: string, scope: ScopedInvariant['scope'], path: string, text = 'Keep backups') =>
    ({ id, text, severity: 'error', active: true, tags: [], scope, path, created_at: '2026-01-01T00:00:00Z' }) as ScopedInvariant;
  const global = inv(G, { kind: 'global' }, `global/${G}.yaml`);
  const web = inv(W, { kind: 'project', project: 'web' }, `projects/web/${W}.yaml`);
  const near = inv(G, { kind: 'global' }, `global/${G}.yaml`, 'Keep backups.');
  const kept = { project: 'web', path: 'projects/web/.gitkeep', plans: [PLAN] };

  it('add: the copies it shadows and nearly repeats, then the commit and the project made', () => {
    const r = {
      invariant: web,
      file: `/r/.agents/${web.path}`,
      shadows: [global],
      shadowedBy: [],
      near: [{ invariant: near, kind: 'punctuation' as const }],
    };
    const json = addedJson({ ...r, createdProject: 'web' }, 'agents');
    expect(Object.keys(json).slice(-7)).toEqual([
      'file',
      'shadows',
      'shadowed_by',
      'near_duplicates',
      'incomplete',
      'commit',
      'created_project',
    ]);
    expect(json.incomplete).toBeNull();
    // Files left unread: the JSON names them, and the browser's status line after the add warns of them as the CLI does.
    const incomplete = [
      { file: 'global/bad.yaml', line: 3, col: 11, code: 'yaml-syntax', severity: 'error', message: 'm' },
    ] as Diagnostic[];
    expect(addedJson({ ...r, incomplete }, 'agents').incomplete).toEqual({
      problems: 1,
      files: ['global/bad.yaml'],
      command: 'agents validate',
    });
    expect(addedSentence({ ...r, incomplete }, 'agents')).toContain('global/bad.yaml');
    expect(addedSentence({ ...r, inheritedMissing: 'not pinned (run `agents extends update`)' }, 'agents')).toContain(
      'agents extends update',
    );
    expect(doc(json.shadows)).toBe(doc([{ id: G, scope: 'global', path: global.path }]));
    expect(json.created_project).toBe('web');
    expect(addedText(s, { ...r, commit: 'c'.repeat(40) })).toBe(
      [
        `added ${W} to project web`,
        `  /r/.agents/${web.path}`,
        `  committed ${'c'.repeat(12)}`,
        `  note: it shadows the copy in global (${G})`,
        `  warning: nearly repeats global ${G} "Keep backups." (the same but for punctuation); both apply`,
      ].join('\n'),
    );
  });

  it('move: where it was, and the project the move kept', () => {
    const r = { before: global, invariant: web, file: `/r/.agents/${web.path}`, shadows: [], shadowedBy: [], near: [], keptProject: kept };
    const json = movedJson(r, 'agents');
    expect(Object.keys(json).slice(-10)).toEqual([
      'file',
      'from',
      'shadows',
      'shadowed_by',
      'near_duplicates',
      'incomplete',
      'kept_project',
      'created_project',
      'stranded_waivers',
      'commit',
    ]);
    expect(json.from).toEqual({ scope: 'global', path: global.path });
    expect(movedText(s, r, 'agents')).toBe(
      [
        `moved ${W} from global to project web`,
        `  /r/.agents/${web.path}`,
        `  kept project web (projects/web/.gitkeep): plan ${PLAN} targets it; \`agents project remove web\` removes it once no plan does`,
      ].join('\n'),
    );
  });

  it('edit: the fields changed and the invariant before; nothing changed is said so', () => {
    const r = {
      before: global,
      invariant: web,
      file: `/r/.agents/${web.path}`,
      changed: ['severity'],
      shadows: [],
      shadowedBy: [],
      near: [],
    };
    const json = editedJson(r, 'agents');
    expect(Object.keys(json).slice(-9)).toEqual([
      'file',
      'changed',
      'before',
      'shadows',
      'shadowed_by',
      'near_duplicates',
      'incomplete',
      'stranded_waivers',
      'commit',
    ]);
    expect(json.before.id).toBe(G);
    expect(editedText(s, r)).toBe(`edited ${W} in project web: severity\n  /r/.agents/${web.path}`);
    expect(editedText(s, { ...r, changed: [] })).toBe(`unchanged ${W} in project web: it already has these values; nothing was written`);
  });

  it('remove: what comes back into effect, null when the file was invalid', () => {
    const found = { id: W, path: web.path, scope: web.scope };
    const shown = { invariant: web, shadow: { shadows: [global], shadowedBy: [] } } as unknown as ShowResult;
    const json = removedJson({ ...found, shown }, 'agents');
    expect(Object.keys(json)).toEqual([
      'removed',
      'path',
      'scope',
      'kept_project',
      'commit',
      'back_in_effect',
      'incomplete',
      'stranded_waivers',
    ]);
    expect(json.back_in_effect).toEqual([{ id: G, scope: 'global', path: global.path }]);
    expect(doc(removedJson(found, 'agents'))).toBe(
      doc({
        removed: W,
        path: web.path,
        scope: 'project',
        kept_project: null,
        commit: null,
        back_in_effect: null,
        incomplete: null,
        stranded_waivers: [],
      }),
    );
    expect(removedText(s, { ...found, shown }, 'agents')).toBe(
      [`removed ${W} from project web (${web.path})`, '  back in effect (it shadowed this copy):', `    global ${G}  ${global.path}`].join(
        '\n',
      ),
    );
    expect(removedText(s, found, 'agents')).toBe(
      `removed ${W} from project web (${web.path})\n  (the file was invalid: which copies it shadowed is not known)`,
    );
    const alone = { invariant: web, shadow: { shadows: [], shadowedBy: [] } } as unknown as ShowResult;
    expect(
      removedText(s, { ...found, shown: alone, keptProject: kept }, 'agents')
        .split('\n')
        .slice(1, 2),
    ).toEqual(['  it shadowed nothing; no other copy comes back into effect']);
  });

  it('waive: the waiver and its commit', () => {
    const waiver = {
      id: PLAN,
      invariant_id: G,
      scope: { kind: 'project' as const, project: 'web' },
      reason: 'because',
      owner: 'me',
      expires: '2099-01-01',
      created_at: '2026-01-01T00:00:00Z',
      path: `projects/web/waivers/${PLAN}.yaml`,
    };
    expect(Object.keys(waivedJson({ waiver })).slice(-3)).toEqual(['path', 'replaced', 'commit']);
    expect(waivedText(s, { waiver })).toBe(
      `waived ${G} for project web until 2099-01-01 (owner me)\n  because\n  projects/web/waivers/${PLAN}.yaml`,
    );
  });
});

describe('violation and extends shapes', () => {
  const V = '01M8KJW430VF8WCABSB8RTQ8RY';
  const violation = {
    id: V,
    invariant_id: PLAN,
    violated_text: 'Keep backups',
    severity: 'warning' as const,
    details: 'a\nb',
    created_at: '2026-01-01T00:00:00Z',
    resolved: { at: '2026-01-02T00:00:00Z', by: 'me', note: 'fixed' },
  };
  const listed = { plan: PLAN, path: `plans/${PLAN}/violations/${V}.yaml`, violation };

  it('violation add and list, and the line record_violation answers', () => {
    expect(recordedText(s, listed)).toBe(`recorded warning violation ${V} of ${PLAN} in plan ${PLAN}\n  Keep backups\n  ${listed.path}`);
    expect(recordedLine(violationJson(listed.plan, listed.path, violation))).toBe(
      `Recorded warning violation ${V} of ${PLAN} ("Keep backups") in plan ${PLAN}: ${listed.path}`,
    );
    expect(Object.keys(violationListJson([listed])[0]!).slice(-2)).toEqual(['path', 'waived']);
    expect(violationListText(s, [listed])).toBe(
      [
        `plan ${PLAN}`,
        `  warning  ${V}  Keep backups  resolved`,
        `    invariant ${PLAN} · 2026-01-01T00:00:00Z`,
        '      a',
        '      b',
        '    resolved 2026-01-02T00:00:00Z by me: fixed',
        '',
        '1 violation',
      ].join('\n'),
    );
    expect(violationListText(s, [])).toBe('No violations.');
  });

  it('extends fetch and update', () => {
    const fetched = {
      name: 'pol',
      commit: 'a'.repeat(40),
      status: 'cached' as const,
      ignored: ['config.yaml', 'plans'],
      ignoredFolders: ['plans'],
      extends: [],
    };
    expect(doc(fetchedJson([fetched]))).toBe(
      doc([{ name: 'pol', commit: 'a'.repeat(40), status: 'cached', ignored: ['config.yaml', 'plans'], not_inherited: [] }]),
    );
    expect(fetchedText(s, [fetched])).toBe(`cached   pol  ${'a'.repeat(40)}\n         ignored (never read or run): config.yaml, plans/`);
    // Nothing fetched, in a store that extends nothing: a line says so, where the JSON is [].
    expect(doc(fetchedJson([]))).toBe(doc([]));
    expect(fetchedText(s, [])).toMatch(/^Nothing to fetch: .*`extends`/);
    // A source that pins sources of its own: they are named, without the URL's credentials, as not inherited through it.
    const layered = { ...fetched, extends: [{ name: 'org', url: 'https://u:tok@git.example.com/org.git', ref: 'v1' }] };
    expect(fetchedJson([layered])[0]!.not_inherited).toEqual([{ name: 'org', url: 'https://u:***@git.example.com/org.git', ref: 'v1' }]);
    expect(fetchedText(s, [layered]).split('\n')[2]).toContain(
      'not inherited: pol itself extends org (https://u:***@git.example.com/org.git at v1)',
    );
    const report = { result: { moves: [], written: false, fetched: [] }, refused: [{ name: 'pol' } as SourceMove], stale: ['AGENTS.md'] };
    expect(doc(updateJson(report))).toBe(doc({ written: false, sources: [], stale_exports: ['AGENTS.md'], ignored_by_git: null }));
    expect(updateText(s, report).split('\n')[0]).toBe(
      'Not written: pol moved a tag. Check the change above, then run again with --accept-moved-tag.',
    );
    expect(updateText(s, { ...report, refused: [], stale: [] })).toBe('Dry run: extends.lock.yaml was not written.');
    // The export to run names the --store the update was given, so that, pasted, it exports the same store.
    expect(
      updateText(s, { ...report, refused: [] }, 'agents --store ../policy')
        .split('\n')
        .at(-1),
    ).toBe('Exported files now stale: AGENTS.md. Run `agents --store ../policy export` to bring them in step.');
  });
});

describe('plan sync and strategize shapes', () => {
  const O = '01M8KJW430VF8WCABSB8RTQ8RY';
  const C = '01M8KJZS90J6DRJJ8E264B9DFX';
  const plan = { id: PLAN, action: 'local/review', project: 'web' } as Plan;
  const copy = (id: string, text: string, more: Partial<ScopedInvariant> = {}) =>
    scopedInvariant(id, { kind: 'plan', plan: PLAN }, text, more);
  const drift = (kind: 'changed' | 'added' | 'removed', fields?: string[]) => ({
    kind,
    action: 'local/review',
    origin_id: O,
    text: 'x',
    ...(fields ? { fields } : {}),
  });

  it('sync: each change, what is skipped, and the commit; an added copy not written gives its origin', () => {
    const r: SyncResult = {
      plan,
      applied: false,
      changes: [
        { kind: 'removed', drift: drift('removed'), before: copy(C, 'Never log secrets') },
        {
          kind: 'changed',
          drift: drift('changed', ['text', 'severity', 'active']),
          before: copy(C, 'Review'),
          after: copy(C, 'Review twice', { severity: 'warning', active: false }),
        },
        { kind: 'added', drift: drift('added'), origin: copy(O, 'Name every branch', { severity: 'info' }) },
      ],
      skipped: [{ drift: drift('added'), reason: `the plan already holds this text as ${C}` }],
    };
    const json = syncJson(r);
    expect(Object.keys(json)).toEqual(['plan', 'applied', 'changes', 'skipped', 'stranded_waivers', 'commit']);
    expect(Object.keys(json.changes[0]!)).toEqual(['kind', 'action', 'origin_id', 'plan_invariant_id', 'fields', 'before', 'after']);
    expect(doc(json.changes[2])).toBe(
      doc({
        kind: 'added',
        action: 'local/review',
        origin_id: O,
        plan_invariant_id: null,
        fields: [],
        before: null,
        after: { text: 'Name every branch', severity: 'info' },
      }),
    );
    expect(doc(json.skipped)).toBe(
      doc([{ kind: 'added', action: 'local/review', origin_id: O, reason: `the plan already holds this text as ${C}` }]),
    );
    expect(syncText(s, r)).toBe(
      [
        `would sync plan ${PLAN}: 3 changes`,
        `  removed  ${C} "Never log secrets" (origin ${O} left local/review)`,
        `  changed  ${C} (text, severity, active)`,
        '      "Review" → "Review twice"',
        '      severity error → warning',
        '      deactivated (the action deactivated its origin)',
        `  added    "Name every branch" (from local/review ${O})`,
        `  skipped  added ${O}: the plan already holds this text as ${C}`,
      ].join('\n'),
    );
    expect(syncText(s, { plan, applied: true, changes: [], skipped: r.skipped, commit: 'c'.repeat(40) })).toBe(
      `plan ${PLAN} is in step with its action template (apart from what is skipped below)\n  skipped  added ${O}: the plan already holds this text as ${C}\n  committed ${'c'.repeat(12)}`,
    );
  });

  it("strategize: the verdict, each invariant with the actor's answer on one line, the files written; the prompt shown", () => {
    const run = {
      id: 'R1',
      decision_id: 'D2',
      created_at: '2026-01-01T00:00:00Z',
      actor: 'command' as const,
      records: [
        { invariant_id: O, enforced: true, actor_response: 'line one\nsaid 0', decision_id: 'D2' },
        { invariant_id: C, enforced: false, actor_response: 'no', decision_id: 'D2' },
      ],
    };
    const r = {
      plan,
      request: { invariants: [{ id: O, text: 'Review every diff' }] },
      decision: { id: 'D2', type: 'invariant_enforced', parent_id: 'D1', created_at: '2026-01-01T00:00:00Z', summary: '1 of 2' },
      run,
      problems: ['an answer for an invariant not asked about'],
      ok: false,
      setChanged: null,
    } as unknown as StrategizeResult;
    expect(Object.keys(strategizedJson(r))).toEqual(['ok', 'plan', 'decision', 'enforcement', 'problems', 'set_changed']);
    expect(strategizedText(s, r, 'agents')).toBe(
      [
        `not all enforced: 1 of 2 invariants of plan ${PLAN} (command actor)`,
        '  ✓ Review every diff',
        `      ${O} · line one\\nsaid 0`,
        `  ✗ ${C}`,
        `      ${C} · no`,
        'note: an answer for an invariant not asked about',
        '',
        'recorded decision D2 (after D1)',
        `  plans/${PLAN}/decisions/D2.yaml`,
        `  plans/${PLAN}/enforcement/R1.yaml`,
      ].join('\n'),
    );
    const all = { ...r, run: { ...run, records: [run.records[0]!] }, problems: [] };
    expect(strategizedText(s, all, 'agents').split('\n')[0]).toBe(`stale: 1 of 1 invariants of plan ${PLAN} (command actor)`);
    expect(strategizedText(s, { ...all, ok: true }, 'agents').split('\n')[0]).toBe(
      `enforced: 1 of 1 invariants of plan ${PLAN} (command actor)`,
    );
    const preview = {
      prompt_version: 'p/2',
      model: 'm1',
      requests: [{ ids: [O], system: 'S', user: 'U', endpoint: 'https://x/v1/chat/completions' }],
      problem: null,
    };
    expect(doc(promptJson('llm', preview))).toBe(doc({ actor: 'llm', ...preview }));
    expect(promptText('llm', preview, 'KEY')).toBe(
      [
        'llm actor · m1 · prompt p/2 · 1 request(s); nothing sent',
        '',
        '── request 1 of 1: 1 invariant(s)',
        'POST https://x/v1/chat/completions, the key from $KEY in a header (not shown)',
        '',
        '[system]',
        'S',
        '',
        '[user]',
        'U',
      ].join('\n'),
    );
  });
});
