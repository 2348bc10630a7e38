import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyPath, isTemporaryName } from '../../src/core/layout.ts';
import { parseInvariant } from '../../src/core/parse.ts';
import { readStore } from '../../src/store/read.ts';
import { WorkingTreeSource } from '../../src/store/tree-source.ts';
import { agents } from '../helpers/cli.ts';
import { invariantYaml, tempDir, testStore, writeTree } from '../helpers/tmp.ts';
import { gitInit } from '../helpers/git.ts';
import { scale } from '../helpers/stress.ts';
import { KillAim, runAndKill } from './kill.ts';
import { runAgents } from '../helpers/main.ts';

/** Kills to inject; trials go on until that many runs were killed (at most MAX_TRIALS). */
const KILLS = scale(50, 12);
const MAX_TRIALS = scale(150, 48);

/** Every file left in a scope folder, sorted into what a crash may leave. */
function leftovers(dir: string): { invariants: string[]; temporaries: string[]; locks: string[]; other: string[] } {
  const out = { invariants: [] as string[], temporaries: [] as string[], locks: [] as string[], other: [] as string[] };
  for (const name of readdirSync(dir)) {
    if (/^[0-9A-HJKMNP-TV-Z]{26}\.yaml$/.test(name)) out.invariants.push(name);
    else if (name.startsWith('.') && name.endsWith('.tmp')) out.temporaries.push(name);
    else if (name === '.lock' || name === '.lock.break') out.locks.push(name);
    else out.other.push(name);
  }
  return out;
}

describe('crash safety', () => {
  it(`add killed with SIGKILL at random points (${KILLS} kills): every invariant file is whole, the store reads cleanly`, async () => {
    const store = testStore();
    // How long one add takes here, to spread the kills over its whole run.
    const calibration = await runAndKill(['--store', store, 'invariant', 'add', '--project', 'crash', 'Calibration run'], 60_000);
    expect(calibration).toMatchObject({ killed: false, code: 0 });
    // Where in a run the file gets written, learnt as the trials go: kills are aimed around it.
    const aim = new KillAim(0x5eed, calibration.ms);

    let killed = 0;
    let finished = 0;
    let killedAfterWrite = 0;
    let leftTemporary = 0;
    let leftLock = 0;
    let trials = 0;
    for (let i = 0; killed < KILLS && i < MAX_TRIALS; i++) {
      trials++;
      // Every third kill anywhere in the run; the others close to the point where the lock is held and the file written.
      const after = aim.next();
      const before = leftovers(join(store, 'projects/crash'));
      const outcome = await runAndKill(
        ['--store', store, 'invariant', 'add', '--project', 'crash', `Crash trial ${i}: never lose this`],
        after,
      );
      const now = leftovers(join(store, 'projects/crash'));
      const wrote = now.invariants.length > before.invariants.length;
      if (outcome.killed) {
        killed++;
        if (wrote) killedAfterWrite++;
        if (now.temporaries.length > before.temporaries.length) leftTemporary++;
        if (now.locks.length > 0) leftLock++;
      } else {
        // A run that finished must have succeeded: a stale lock left by an earlier kill is cleared, not fatal.
        expect(outcome.code).toBe(0);
        finished++;
      }
      aim.learn(wrote, outcome);
    }
    expect(killed + finished).toBe(trials);
    expect(killed).toBe(KILLS);

    // Whatever was written is whole: each file parses and validates against the schema.
    const dir = join(store, 'projects/crash');
    const left = leftovers(dir);
    expect(left.other).toEqual([]);
    for (const name of left.invariants) {
      const id = name.slice(0, -'.yaml'.length);
      const parsed = parseInvariant(`projects/crash/${name}`, readFileSync(join(dir, name)), { kind: 'project', project: 'crash' }, id);
      expect({ name, diagnostics: parsed.diagnostics }).toEqual({ name, diagnostics: [] });
    }
    // Readers skip temporaries and the lock: the store reads without a diagnostic.
    const snap = await readStore(new WorkingTreeSource(store));
    expect(snap.diagnostics).toEqual([]);
    expect(snap.invariants).toHaveLength(left.invariants.length);
    for (const t of left.temporaries) expect(classifyPath(`projects/crash/${t}`)).toEqual({ kind: 'temporary' });

    // The next writer recovers: a lock left by a killed add is cleared with a message, and the add lands.
    const next = await runAgents(['--store', store, 'invariant', 'add', '--project', 'crash', 'After the crashes']);
    expect(next.code).toBe(0);
    if (left.locks.length > 0) expect(next.stderr).toContain(`cleared a stale lock ${join(store, 'projects/crash/.lock')}`);
    const listed = await runAgents(['--store', store, '--format', 'json', 'invariant', 'list', '--project', 'crash']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toHaveLength(left.invariants.length + 1);

    // validate agrees: nothing but leftover temporaries (warnings), which --fix removes.
    const checked = await runAgents(['--store', store, '--format', 'json', 'validate']);
    expect(checked.code).toBe(0);
    const report = JSON.parse(checked.stdout) as { ok: boolean; diagnostics: { code: string; file: string }[] };
    expect(report.ok).toBe(true);
    expect(report.diagnostics.filter((d) => d.code !== 'temporary-file')).toEqual([]);
    expect(report.diagnostics.map((d) => d.file).sort()).toEqual(
      leftovers(dir)
        .temporaries.map((t) => `projects/crash/${t}`)
        .sort(),
    );
    expect((await runAgents(['--store', store, 'validate', '--fix'])).code).toBe(0);
    const clean = await runAgents(['--store', store, '--format', 'json', 'validate']);
    expect((JSON.parse(clean.stdout) as { diagnostics: unknown[] }).diagnostics).toEqual([]);
    expect(readdirSync(dir).filter((n) => !/^[0-9A-HJKMNP-TV-Z]{26}\.yaml$/.test(n))).toEqual([]);

    console.log(
      `crash: ${trials} trials, ${killed} killed (${killedAfterWrite} after the file was linked, ${leftTemporary} left a temporary, ${leftLock} left a lock), ${finished} finished; ${left.invariants.length} invariant files, all whole`,
    );
    // Slow by design (a named slow test): up to 150 real processes, each started and killed.
  }, 300_000);
});

/** Files for the --fix campaign: enough that a run spends a while writing, few enough to stay quick. */
const FIX_FILES = 400;
const FIX_KILLS = scale(8, 4);
const FIX_MAX_TRIALS = scale(24, 16);
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function ulidOf(n: number): string {
  let tail = '';
  for (let i = 0; i < 6; i++, n = Math.floor(n / 32)) tail = CROCKFORD[n % 32] + tail;
  return `01JF00000000000000${'00'}${tail}`;
}

describe('crash safety of validate --fix', () => {
  it(`--fix adding ${FIX_FILES} modelines, killed with SIGKILL at random points (${FIX_KILLS} kills): every file is its old or its new text, and a later --fix cleans up`, async () => {
    const files = new Map<string, { old: string; fixed: string }>();
    const tree: Record<string, string> = {};
    for (let i = 0; i < FIX_FILES; i++) {
      const id = ulidOf(i);
      const rel = `projects/p${i % 5}/${id}.yaml`;
      const old = invariantYaml(id, `Rule ${i}: keep every file whole`);
      files.set(rel, { old, fixed: `# yaml-language-server: $schema=../../schemas/invariant.schema.json\n${old}` });
      tree[rel] = old;
    }
    const store = testStore(tree);
    const folders = [0, 1, 2, 3, 4].map((p) => `projects/p${p}`);
    /** Files that are new text now; throws on a file that is neither (torn, empty, or gone). */
    const census = () => {
      let fixed = 0;
      for (const [rel, { old, fixed: next }] of files) {
        const now = readFileSync(join(store, rel), 'utf8');
        if (now === next) fixed++;
        else expect({ rel, now }).toEqual({ rel, now: old });
      }
      return fixed;
    };
    const others = () => folders.flatMap((f) => leftovers(join(store, f)).other.map((n) => `${f}/${n}`));
    const temporaries = () => folders.flatMap((f) => leftovers(join(store, f)).temporaries);
    const args = ['--store', store, 'validate', '--fix'];
    const calibration = await runAndKill(args, 60_000);
    expect(calibration).toMatchObject({ killed: false, code: 0 });
    expect(census()).toBe(FIX_FILES);
    const aim = new KillAim(0xf1c5, calibration.ms);
    let killed = 0;
    let finished = 0;
    let killedMidWrite = 0;
    let trials = 0;
    for (let i = 0; killed < FIX_KILLS && i < FIX_MAX_TRIALS; i++) {
      trials++;
      // Every file back to its old text (nothing runs now), so each trial has all of them to fix.
      for (const [rel, { old }] of files) writeFileSync(join(store, rel), old);
      const outcome = await runAndKill(args, aim.next());
      const fixed = census();
      expect(others()).toEqual([]);
      if (outcome.killed) {
        killed++;
        if (fixed > 0 && fixed < FIX_FILES) killedMidWrite++;
      } else {
        // A run that finished fixed every file, whatever temporaries earlier kills left.
        expect(outcome.code).toBe(0);
        expect(fixed).toBe(FIX_FILES);
        finished++;
      }
      aim.learn(fixed > 0, outcome);
    }
    expect(killed).toBe(FIX_KILLS);
    expect(killed + finished).toBe(trials);
    const leftTemporaries = temporaries().length;

    // Readers skip the temporaries: the store reads without a diagnostic.
    const snap = await readStore(new WorkingTreeSource(store));
    expect(snap.diagnostics).toEqual([]);
    expect(snap.invariants).toHaveLength(FIX_FILES);
    // A later --fix removes every temporary the killed runs left and fixes the rest; then nothing is left to report.
    expect(agents(args).code).toBe(0);
    expect(census()).toBe(FIX_FILES);
    expect(temporaries()).toEqual([]);
    const clean = agents(['--store', store, '--format', 'json', 'validate']);
    expect(clean.code).toBe(0);
    expect((JSON.parse(clean.stdout) as { diagnostics: unknown[] }).diagnostics).toEqual([]);
    console.log(
      `crash --fix: ${trials} trials, ${killed} killed (${killedMidWrite} with part of the files renamed), ${finished} finished; ${leftTemporaries} temporaries left, all removed by the next --fix`,
    );
  }, 300_000);
});

/** Projects for the import campaign, each with its own rules: enough files that a kill often falls between two of them. */
const IMPORT_PACKAGES = 8;
const IMPORT_RULES = 6;
const IMPORT_KILLS = scale(12, 4);
const IMPORT_MAX_TRIALS = scale(36, 16);

describe('crash safety of import --yes', () => {
  it(`import --yes of ${IMPORT_PACKAGES} new projects, killed with SIGKILL at random points (${IMPORT_KILLS} kills): each project is there whole or not at all, every file is whole, and a later --fix removes what is left`, async () => {
    const top = tempDir('agents-import-crash-');
    gitInit(top);
    const rules = (name: string) => Array.from({ length: IMPORT_RULES }, (_, i) => `- Never skip check ${i} of ${name}.\n`).join('');
    const tree: Record<string, string | null> = { '.agents/global/': null, '.agents/projects/': null, 'AGENTS.md': rules('everything') };
    for (let p = 0; p < IMPORT_PACKAGES; p++) tree[`packages/p${p}/AGENTS.md`] = rules(`package ${p}`);
    writeTree(top, tree);
    const store = join(top, '.agents');
    const reset = () => {
      for (const d of ['global', 'projects']) {
        rmSync(join(store, d), { recursive: true, force: true });
        mkdirSync(join(store, d));
      }
    };
    /** What a run left, after checking it: each project folder whole, each invariant file whole; temporaries beside them. */
    const census = () => {
      let projects = 0;
      let temporaries = 0;
      const invariants = (folder: string) => {
        const names = readdirSync(join(store, folder)).filter((n) => /^[0-9A-HJKMNP-TV-Z]{26}\.yaml$/.test(n));
        for (const name of names) {
          const scope =
            folder === 'global' ? ({ kind: 'global' } as const) : ({ kind: 'project', project: folder.split('/')[1]! } as const);
          const parsed = parseInvariant(
            `${folder}/${name}`,
            readFileSync(join(store, folder, name)),
            scope,
            name.slice(0, -'.yaml'.length),
          );
          expect({ name, diagnostics: parsed.diagnostics }).toEqual({ name, diagnostics: [] });
        }
        return names.length;
      };
      for (const name of readdirSync(join(store, 'projects'))) {
        // The lock of projects/, held while the new projects' paths are compared and written: left by a kill, a stale
        // lock, which validate reports and the next writer clears.
        if (name === '.lock') continue;
        if (isTemporaryName(name)) {
          temporaries++;
          continue;
        }
        projects++;
        // A project appears with its project.yaml and every one of its invariants, never in part.
        expect(readdirSync(join(store, 'projects', name)).filter((n) => !n.endsWith('.yaml'))).toEqual([]);
        expect(readdirSync(join(store, 'projects', name))).toContain('project.yaml');
        expect(invariants(`projects/${name}`)).toBe(IMPORT_RULES);
      }
      invariants('global');
      temporaries += readdirSync(join(store, 'global')).filter(isTemporaryName).length;
      return { projects, temporaries };
    };
    const args = ['--store', store, 'import', '--yes'];
    const calibration = await runAndKill(args, 60_000);
    expect(calibration).toMatchObject({ killed: false, code: 0 });
    expect(census()).toEqual({ projects: IMPORT_PACKAGES, temporaries: 0 });
    const aim = new KillAim(0x1e9a, calibration.ms);
    let killed = 0;
    let finished = 0;
    let killedMidWrite = 0;
    let cleaned = 0;
    let trials = 0;
    for (let i = 0; killed < IMPORT_KILLS && i < IMPORT_MAX_TRIALS; i++) {
      trials++;
      reset();
      const outcome = await runAndKill(args, aim.next());
      const left = census();
      if (outcome.killed) {
        killed++;
        if (left.projects > 0 && left.projects < IMPORT_PACKAGES) killedMidWrite++;
        if (left.temporaries > 0) {
          // Readers skip what a killed run left, validate names it, and --fix removes it.
          const checked = await runAgents(['--store', store, '--format', 'json', 'validate']);
          const report = JSON.parse(checked.stdout) as { diagnostics: { code: string }[] };
          expect(report.diagnostics.filter((d) => d.code !== 'temporary-file' && d.code !== 'stale-lock')).toEqual([]);
          expect((await runAgents(['--store', store, 'validate', '--fix'])).code).toBe(0);
          expect(census().temporaries).toBe(0);
          cleaned++;
        }
      } else {
        expect(outcome.code).toBe(0);
        expect(left).toEqual({ projects: IMPORT_PACKAGES, temporaries: 0 });
        finished++;
      }
      // Aimed at the batch: from its first temporary to its last rename.
      aim.learn(left.projects > 0 || left.temporaries > 0, outcome);
    }
    expect(killed).toBe(IMPORT_KILLS);
    expect(killed + finished).toBe(trials);
    console.log(
      `crash import: ${trials} trials, ${killed} killed (${killedMidWrite} with part of the projects in place, ${cleaned} left temporaries that --fix removed), ${finished} finished`,
    );
  }, 300_000);
});
