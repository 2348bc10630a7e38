import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.ts';
import { schemaCopy, type SchemaName } from '../../src/core/schema-docs.ts';
import { validateTree, type ValidateOptions } from '../../src/validate/validate-tree.ts';
import { WorkingTreeSource } from '../../src/store/tree-source.ts';
import { readPlanRecords } from '../../src/store/read-records.ts';
import { readWaivers } from '../../src/store/read-waivers.ts';
import { readStore } from '../../src/store/read.ts';
import { READ_ATTEMPTS } from '../../src/store/settled-read.ts';
import { FactsCache } from '../../src/validate/cache.ts';
import { keyDigest } from '../../src/validate/content-hash.ts';
import { reusedInvariantIds } from '../../src/validate/checks/ids.ts';
import { textKey } from '../../src/core/normalise.ts';
import { resolveEffective } from '../../src/core/resolve.ts';
import { scopedInvariant } from '../helpers/invariants.ts';
import { MemorySource, type Spec } from '../helpers/memory-source.ts';
import { tempDir, testStore } from '../helpers/tmp.ts';
import { docsRef } from '../../src/core/docs-link.ts';

const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
const B = '01JDQ6X5Z8W4N3B2C1D0E9F8G8';
const C = '01JDQ6X5Z8W4N3B2C1D0E9F8G9';
const P = '01M8KK5920RS6CGAVDFVYYJ0B4';
const X = '01JDQ6X5Z8W4N3B2C1D0E9F8GA';
const Y = '01JDQ6X5Z8W4N3B2C1D0E9F8GE';
const Z = '01JDQ6X5Z8W4N3B2C1D0E9F8GF';
const ML = '# yaml-language-server: $schema=../schemas/invariant.schema.json\n';
const PML = '# yaml-language-server: $schema=../../schemas/invariant.schema.json\n';

const inv = (id: string, text: string, extra = '') => `${ML}id: ${id}\ntext: ${text}\n${extra}`;
const pinv = (id: string, text: string, extra = '') => `${PML}id: ${id}\ntext: ${text}\n${extra}`;

async function check(spec: Record<string, Spec>, options: ValidateOptions = {}) {
  return (await validateTree(new MemorySource(spec), options)).diagnostics;
}

const WML = '# yaml-language-server: $schema=../../../schemas/waiver.schema.json\n';
const PLML = '# yaml-language-server: $schema=../../schemas/plan.schema.json\n';
const PRML = '# yaml-language-server: $schema=../../schemas/project.schema.json\n';
const waiver = (id: string, of: string, expires: string) =>
  `${WML}id: ${id}\ninvariant_id: ${of}\nreason: r\nowner: o\nexpires: ${expires}\ncreated_at: 2020-01-02T10:00:00Z\n`;
const plan = (id: string, extra = '') => `${PLML}id: ${id}\n${extra}`;
const project = (paths: string[]) => `${PRML}paths:\n${paths.map((p) => `  - "${p}"\n`).join('')}`;

describe('checkLayout', () => {
  it("a record or waiver file whose name is no ULID is reported by validate as the plan's readers report it", async () => {
    const P = '01M8KK5920RS6CGAVDFVYYJ0B4';
    // On disk: the readers list one folder at a time, as the working tree answers.
    const root = testStore({
      [`plans/${P}/plan.yaml`]: plan(P),
      [`plans/${P}/violations/notes.yaml`]: 'id: x\n',
      [`plans/${P}/waivers/notes.yaml`]: 'id: x\n',
      'projects/web/waivers/notes.yaml': 'id: x\n',
    });
    const source = new WorkingTreeSource(root);
    const found = (await validateTree(source)).diagnostics.filter((d) => d.code === 'id-invalid');
    const read = [
      ...(await readPlanRecords(source, P)).diagnostics,
      ...(
        await readWaivers(source, [
          { kind: 'plan', plan: P },
          { kind: 'project', project: 'web' },
        ])
      ).diagnostics,
    ].filter((d) => d.code === 'id-invalid');
    expect(found.length).toBe(3);
    expect([...found].sort((a, b) => a.file.localeCompare(b.file))).toEqual([...read].sort((a, b) => a.file.localeCompare(b.file)));
  });

  it('a .yml or .YAML file where the .yaml of its name would be read is an error, never a silently dropped invariant', async () => {
    const found = await check({
      [`global/${A}.yml`]: inv(A, 'Never delete data'),
      [`projects/web/${B}.YAML`]: pinv(B, 'Keep the API stable'),
      'projects/web/project.yml': 'paths: ["web/**"]\n',
      // A stray copy beside the real file, and names nothing reads as .yaml either: warnings, as any unknown file.
      'config.yaml': 'version: 1\n',
      'config.yml': 'version: 1\n',
      'global/notes.yml': 'x: 1\n',
    });
    expect(found.filter((d) => d.code === 'unknown-path').map((d) => [d.file, d.severity, d.hint])).toEqual([
      ['config.yml', 'warning', `Move it out of the store, or see ${docsRef('store-format.md')} for where files go.`],
      [`global/${A}.yml`, 'error', `Rename it to ${A}.yaml.`],
      ['global/notes.yml', 'warning', `Move it out of the store, or see ${docsRef('store-format.md')} for where files go.`],
      [`projects/web/${B}.YAML`, 'error', `Rename it to ${B}.yaml.`],
      ['projects/web/project.yml', 'error', 'Rename it to project.yaml.'],
    ]);
  });

  it('config.yaml or extends.lock.yaml named in other case is an error where no lower-case file stands, never a store read as extending nothing', async () => {
    const found = await check({ 'Config.yaml': 'version: 1\nextends: []\n', 'EXTENDS.LOCK.YML': 'version: 1\nsources: []\n' });
    expect(found.filter((d) => d.code === 'unknown-path').map((d) => [d.file, d.severity, d.message, d.hint])).toEqual([
      [
        'Config.yaml',
        'error',
        'Config.yaml is never read: the store reads config.yaml, in lower case, so what it holds is left out',
        'Rename it to config.yaml.',
      ],
      [
        'EXTENDS.LOCK.YML',
        'error',
        'EXTENDS.LOCK.YML is never read: only files ending in .yaml are, so what it holds is left out',
        'Rename it to extends.lock.yaml.',
      ],
    ]);
    // Beside the file it would be, a stray copy: a warning. A scope's own files in other case are already no ULID (id-invalid).
    const beside = await check({ 'config.yaml': 'version: 1\n', 'Config.yaml': 'version: 1\n' });
    expect(beside.filter((d) => d.code === 'unknown-path').map((d) => [d.file, d.severity])).toEqual([['Config.yaml', 'warning']]);
    // Every reader of the whole store refuses it too, as validate does.
    const root = testStore({ 'Config.yaml': 'version: 1\n', [`global/${A}.yaml`]: inv(A, 'Never delete data') });
    const read = (await readStore(new WorkingTreeSource(root))).diagnostics;
    expect(read.map((d) => [d.code, d.file])).toEqual([['unknown-path', 'Config.yaml']]);
  });

  it('a .yaml name that goes on with characters that cannot be seen is an error naming the .yaml name, for validate and every reader', async () => {
    const tree = {
      [`global/${A}.yaml `]: inv(A, 'Never delete data'),
      [`global/${B}.yaml\u200b`]: inv(B, 'Keep backups'),
      'config.yaml\u00a0': 'version: 1\n',
    };
    const found = await check(tree);
    expect(found.filter((d) => d.code === 'unknown-path').map((d) => [d.file, d.severity, d.hint])).toEqual([
      ['config.yaml\u00a0', 'error', 'Rename it to config.yaml.'],
      [`global/${A}.yaml `, 'error', `Rename it to ${A}.yaml.`],
      [`global/${B}.yaml\u200b`, 'error', `Rename it to ${B}.yaml.`],
    ]);
    const read = (await readStore(new WorkingTreeSource(testStore(tree)))).diagnostics;
    expect(read.map((d) => [d.code, d.file, d.severity])).toEqual([
      ['unknown-path', 'config.yaml\u00a0', 'error'],
      ['unknown-path', `global/${A}.yaml `, 'error'],
      ['unknown-path', `global/${B}.yaml\u200b`, 'error'],
    ]);
    // A name with a visible ending after .yaml (a backup) is no such slip: only warned of.
    const backup = await check({ [`global/${A}.yaml~`]: inv(A, 'Never delete data') });
    expect(backup.filter((d) => d.code === 'unknown-path').map((d) => d.severity)).toEqual(['warning']);
  });

  it('reports what fits no place, bad names, temporaries, links and plan folders without plan.yaml, and nothing under a reported folder', async () => {
    const found = await check({
      [`global/${A}.yaml`]: inv(A, 'Never delete data'),
      [`global/${B}.yaml/`]: null,
      [`global/${B}.yaml/inner.txt`]: 'x',
      'global/.lock/': null,
      'global/.lock/inner': 'x',
      'global/sub/': null,
      'global/sub/deeper/x.txt': 'x',
      'global/notes.txt': 'x',
      'global/link.txt': { link: true },
      // What it holds is fine: only its name is at fault here.
      'global/no-deletes.yaml': 'id: 01JDQ6X5Z8W4N3B2C1D0E9F8GZ\ntext: No deletes\n',
      [`global/.${C}.yaml.1.ab.tmp`]: 'x',
      'projects/Bad Name/': null,
      'projects/Bad Name/x.txt': 'x',
      'projects/web/deep/': null,
      'actions/Bad/': null,
      'actions/ns/Bad/': null,
      'actions/ns/ok/x/': null,
      [`plans/.${P}.4194000.1a2b3c4d.tmp/`]: null,
      'plans/notaulid/': null,
      [`plans/${P}/`]: null,
      [`plans/${X}/plan.yaml`]: plan(X),
      'actors/a': { link: true },
      'actors/b.mjs': 'x',
      'global/.gitkeep': { link: true },
      'projects/.gitkeep': '',
      'projects/linked': { link: true },
      'z.txt': { other: true },
    });
    expect(found).toStrictEqual([
      {
        code: 'bad-name',
        severity: 'error',
        file: 'actions/Bad',
        line: 0,
        col: 0,
        message:
          'action namespace "Bad" must start with a lower-case letter or digit and hold only a-z, 0-9, ".", "_" and "-"; files under it are never read',
        hint: 'Rename the folder: names are lower case a-z, 0-9, ".", "_" and "-".',
      },
      {
        code: 'bad-name',
        severity: 'error',
        file: 'actions/ns/Bad',
        line: 0,
        col: 0,
        message:
          'action name "Bad" must start with a lower-case letter or digit and hold only a-z, 0-9, ".", "_" and "-"; files under it are never read',
        hint: 'Rename the folder: names are lower case a-z, 0-9, ".", "_" and "-".',
      },
      {
        code: 'unknown-path',
        severity: 'warning',
        file: 'actions/ns/ok/x',
        line: 0,
        col: 0,
        message: 'folder actions/ns/ok/x/ fits no place in the store layout and is never read',
        hint: `Move it out of the store, or see ${docsRef('store-format.md')} for where folders go.`,
      },
      {
        code: 'symlink',
        severity: 'error',
        file: 'actors/a',
        line: 0,
        col: 0,
        message: 'actors/a is a symbolic link; links are never followed inside a store',
        hint: 'Replace the link with the file itself, or remove it.',
      },
      {
        code: 'temporary-file',
        severity: 'warning',
        file: `global/.${C}.yaml.1.ab.tmp`,
        line: 0,
        col: 0,
        message: `global/.${C}.yaml.1.ab.tmp is a temporary file left by an interrupted write`,
        hint: 'Run `agents validate --fix` to remove it (it never holds the only copy of anything).',
      },
      {
        code: 'symlink',
        severity: 'error',
        file: 'global/.gitkeep',
        line: 0,
        col: 0,
        message: 'global/.gitkeep is a symbolic link; links are never followed inside a store',
        hint: 'Replace the link with the file itself, or remove it.',
      },
      {
        code: 'symlink',
        severity: 'error',
        file: 'global/link.txt',
        line: 0,
        col: 0,
        message: 'global/link.txt is a symbolic link; links are never followed inside a store',
        hint: 'Replace the link with the file itself, or remove it.',
      },
      {
        code: 'unknown-path',
        severity: 'warning',
        file: 'global/notes.txt',
        line: 0,
        col: 0,
        message: 'global/notes.txt fits no place in the store layout and is never read',
        hint: `Move it out of the store, or see ${docsRef('store-format.md')} for where files go.`,
      },
      {
        code: 'unknown-path',
        severity: 'warning',
        file: 'global/sub',
        line: 0,
        col: 0,
        message: 'folder global/sub/ fits no place in the store layout and is never read',
        hint: `Move it out of the store, or see ${docsRef('store-format.md')} for where folders go.`,
      },
      {
        code: 'temporary-file',
        severity: 'warning',
        file: `plans/.${P}.4194000.1a2b3c4d.tmp`,
        line: 0,
        col: 0,
        message: `plans/.${P}.4194000.1a2b3c4d.tmp/ is a plan folder left by an interrupted \`plan use\` or \`plan remove\` (it is renamed into place only when complete, and out of it when removed)`,
        hint: 'Run `agents validate --fix` to remove it; it is no plan.',
      },
      {
        code: 'plan-missing',
        severity: 'error',
        file: `plans/${P}/plan.yaml`,
        line: 0,
        col: 0,
        message: `plan folder plans/${P}/ has no plan.yaml`,
        hint: 'Restore plan.yaml (git checkout, or `agents plan use`), or remove the folder if the plan is gone.',
      },
      {
        code: 'bad-name',
        severity: 'error',
        file: 'plans/notaulid',
        line: 0,
        col: 0,
        message: `plan folder "notaulid" is not a ULID (26 characters of Crockford base32, e.g. ${A}); files under it are never read`,
        hint: "Rename the folder to its plan's id: a ULID, in upper case (plan.yaml holds it).",
      },
      {
        code: 'bad-name',
        severity: 'error',
        file: 'projects/Bad Name',
        line: 0,
        col: 0,
        message:
          'project "Bad Name" must start with a lower-case letter or digit and hold only a-z, 0-9, ".", "_" and "-"; files under it are never read',
        hint: 'Rename the folder: names are lower case a-z, 0-9, ".", "_" and "-".',
      },
      {
        code: 'unknown-path',
        severity: 'warning',
        file: 'projects/web/deep',
        line: 0,
        col: 0,
        message: 'folder projects/web/deep/ fits no place in the store layout and is never read',
        hint: `Move it out of the store, or see ${docsRef('store-format.md')} for where folders go.`,
      },
      {
        code: 'unknown-path',
        severity: 'warning',
        file: 'z.txt',
        line: 0,
        col: 0,
        message: 'z.txt fits no place in the store layout and is never read',
        hint: `Move it out of the store, or see ${docsRef('store-format.md')} for where files go.`,
      },
      {
        code: 'bad-lock',
        severity: 'error',
        file: 'global/.lock',
        line: 0,
        col: 0,
        message: "global/.lock is a folder, not a writer's lock file; every writer of global would wait on it",
        hint: 'Remove it from git (`git rm -r --cached <path>`) and add `.lock` to .gitignore.',
      },
      {
        code: 'not-a-file',
        severity: 'error',
        file: `global/${B}.yaml`,
        line: 0,
        col: 0,
        message: `global/${B}.yaml is a folder, not a file`,
        hint: 'Only files may have a .yaml name in a store; rename or move it.',
      },
      {
        code: 'id-invalid',
        severity: 'error',
        file: 'global/no-deletes.yaml',
        line: 0,
        col: 0,
        message: `invariant file name "no-deletes" is not a ULID (26 characters of Crockford base32, e.g. ${A}); every *.yaml in a scope folder is an invariant`,
        hint: 'Rename the file to <its id>.yaml (`agents validate --fix` does it, and gives a file without an id one), or move it out of the scope folder.',
      },
      {
        code: 'symlink',
        severity: 'error',
        file: 'projects/linked',
        line: 0,
        col: 0,
        message: 'projects/linked is a symbolic link to a folder; links are never followed inside a store',
        hint: 'Replace the link with the folder itself.',
      },
    ]);
  });

  it('in hook mode looks only at touched paths', async () => {
    const found = await check(
      {
        'global/notes.txt': 'x',
        'global/sub/x.txt': 'x',
        'projects/web/deep/': null,
        [`plans/${P}/`]: null,
      },
      { touches: (p) => p.startsWith('global') },
    );
    expect(found).toStrictEqual([
      {
        code: 'unknown-path',
        severity: 'warning',
        file: 'global/notes.txt',
        line: 0,
        col: 0,
        message: 'global/notes.txt fits no place in the store layout and is never read',
        hint: `Move it out of the store, or see ${docsRef('store-format.md')} for where files go.`,
      },
      {
        code: 'unknown-path',
        severity: 'warning',
        file: 'global/sub',
        line: 0,
        col: 0,
        message: 'folder global/sub/ fits no place in the store layout and is never read',
        hint: `Move it out of the store, or see ${docsRef('store-format.md')} for where folders go.`,
      },
    ]);
  });
});

describe('checkLocks', () => {
  it('in the working tree: stale locks (asking whether each holder runs), and what is no lock file', async () => {
    const calls: [number, string][] = [];
    const found = await check(
      {
        '.lock': { link: true },
        'global/.lock': '123 hostA 2026-11-29T12:00:00Z\n',
        'projects/web/.lock': '',
        'actions/ns/n/.lock': '0 h\n',
        [`plans/${P}/.lock`]: '77 h2\n',
        [`plans/${P}/plan.yaml`]: plan(P),
        'projects/api/.lock': '78 h3\n',
        'projects/b/.lock': { fail: { ok: false, code: 'not-a-file', message: 'is a FIFO, not a file' } },
        'projects/c/.lock': { fail: { ok: false, code: 'missing', message: 'vanished' } },
        'projects/d/.lock': { other: true },
        'projects/e/.lock.break': '  9   hostB  \n',
        'projects/f/.lock': '-4 h\n',
        'projects/g/.lock': '1.5 h\n',
      },
      {
        lockHolderAlive: (pid, host) => {
          calls.push([pid, host]);
          return pid === 77 ? true : pid === 78 ? undefined : false;
        },
        // The writers' rule: a lock naming no process is stale once older than 10 s; one gone names nothing stale.
        lockAge: (path) => (path === 'projects/web/.lock' ? 3_000 : path === 'projects/c/.lock' ? Number.NaN : 60_000),
      },
    );
    expect(found).toStrictEqual([
      {
        code: 'bad-lock',
        severity: 'error',
        file: '.lock',
        line: 0,
        col: 0,
        message: ".lock is a symbolic link, not a writer's lock file; every writer of the store would wait on it",
        hint: 'Run `agents validate --fix` to remove it (it never holds anything of the store).',
      },
      {
        code: 'bad-lock',
        severity: 'error',
        file: 'projects/d/.lock',
        line: 0,
        col: 0,
        message:
          "projects/d/.lock is a special file (FIFO, socket or device), not a writer's lock file; every writer of projects/d would wait on it",
        hint: 'Run `agents validate --fix` to remove it (it never holds anything of the store).',
      },
      {
        code: 'stale-lock',
        severity: 'warning',
        file: 'actions/ns/n/.lock',
        line: 0,
        col: 0,
        message: 'actions/ns/n/.lock is stale: it names no process and is older than 10 s',
        hint: 'Run `agents validate --fix` to remove it (or delete it if no agents command is running); the next writer clears it too.',
      },
      {
        code: 'stale-lock',
        severity: 'warning',
        file: 'global/.lock',
        line: 0,
        col: 0,
        message: 'global/.lock is stale: process 123 on hostA is gone',
        hint: 'Run `agents validate --fix` to remove it (or delete it if no agents command is running); the next writer clears it too.',
      },
      {
        code: 'bad-lock',
        severity: 'error',
        file: 'projects/b/.lock',
        line: 0,
        col: 0,
        message: 'projects/b/.lock is a FIFO, not a file; every writer of projects/b would wait on it',
        hint: 'Run `agents validate --fix` to remove it (it never holds anything of the store).',
      },
      {
        code: 'stale-lock',
        severity: 'warning',
        file: 'projects/e/.lock.break',
        line: 0,
        col: 0,
        message: 'projects/e/.lock.break is stale: it names no process and is older than 10 s',
        hint: 'Run `agents validate --fix` to remove it (or delete it if no agents command is running); the next writer clears it too.',
      },
      {
        code: 'stale-lock',
        severity: 'warning',
        file: 'projects/f/.lock',
        line: 0,
        col: 0,
        message: 'projects/f/.lock is stale: it names no process and is older than 10 s',
        hint: 'Run `agents validate --fix` to remove it (or delete it if no agents command is running); the next writer clears it too.',
      },
      {
        code: 'stale-lock',
        severity: 'warning',
        file: 'projects/g/.lock',
        line: 0,
        col: 0,
        message: 'projects/g/.lock is stale: it names no process and is older than 10 s',
        hint: 'Run `agents validate --fix` to remove it (or delete it if no agents command is running); the next writer clears it too.',
      },
    ]);
    expect(calls).toStrictEqual([
      [123, 'hostA'],
      [77, 'h2'],
      [78, 'h3'],
    ]);
  });

  it('in git: every lock is an error', async () => {
    expect(await check({ 'global/.lock': '1 h\n', 'projects/web/.lock/': null, 'projects/web/.lock/x': 'x' })).toStrictEqual([
      {
        code: 'bad-lock',
        severity: 'error',
        file: 'projects/web/.lock',
        line: 0,
        col: 0,
        message: "projects/web/.lock is a folder, not a writer's lock file; every writer of projects/web would wait on it",
        hint: 'Remove it from git (`git rm -r --cached <path>`) and add `.lock` to .gitignore.',
      },
      {
        code: 'bad-lock',
        severity: 'error',
        file: 'global/.lock',
        line: 0,
        col: 0,
        message: "global/.lock is a writer's lock file committed to git; checked out, it can stop every writer of global",
        hint: 'Remove it from git (`git rm -r --cached <path>`) and add `.lock` to .gitignore.',
      },
    ]);
  });
});

describe('checkSchemaCopies', () => {
  it('compares each copy with the tool schema, and says what is missing or not a file', async () => {
    const found = await check({
      // A copy whose documentation links name another version says the same: it is not outdated.
      'schemas/invariant.schema.json': schemaCopy('invariant.schema.json').replaceAll(/\/blob\/v[^/]+\//g, '/blob/v0.0.1/'),
      'schemas/plan.schema.json': '{ not json',
      'schemas/config.schema.json': '{}',
      'schemas/action.schema.json': { link: true },
      'schemas/project.schema.json': { fail: { ok: false, code: 'not-a-file', message: 'is a FIFO, not a file' } },
      ...Object.fromEntries(
        ['decision', 'enforcement', 'violation', 'waiver', 'actor-request', 'actor-response'].map((n) => [
          `schemas/${n}.schema.json`,
          schemaCopy(`${n}.schema.json` as SchemaName),
        ]),
      ),
    });
    expect(found).toStrictEqual([
      {
        code: 'symlink',
        severity: 'error',
        file: 'schemas/action.schema.json',
        line: 0,
        col: 0,
        message: 'schemas/action.schema.json is a symbolic link; links are never followed inside a store',
        hint: 'Replace the link with the file itself, or remove it.',
      },
      {
        code: 'schema-outdated',
        severity: 'warning',
        file: 'schemas/plan.schema.json',
        line: 0,
        col: 0,
        message:
          'schemas/plan.schema.json differs from the schema this version of agents checks against; editors may accept what validate refuses',
        hint: 'Run `agents init --schemas` to refresh the copies, then commit them.',
      },
      {
        code: 'schema-outdated',
        severity: 'warning',
        file: 'schemas/config.schema.json',
        line: 0,
        col: 0,
        message:
          'schemas/config.schema.json differs from the schema this version of agents checks against; editors may accept what validate refuses',
        hint: 'Run `agents init --schemas` to refresh the copies, then commit them.',
      },
      {
        code: 'not-a-file',
        severity: 'error',
        file: 'schemas/project.schema.json',
        line: 0,
        col: 0,
        message: 'schemas/project.schema.json is a FIFO, not a file',
        hint: 'Only files may have a .yaml name in a store; rename or move it.',
      },
      {
        code: 'schema-outdated',
        severity: 'warning',
        file: 'schemas/extends-lock.schema.json',
        line: 0,
        col: 0,
        message: 'schemas/extends-lock.schema.json is missing from the store; editors cannot validate extends-lock files as you type',
        hint: 'Run `agents init --schemas` to refresh the copies, then commit them.',
      },
    ]);
  });

  it('an empty schemas folder: every copy is missing; no folder: nothing is said', async () => {
    expect(await check({ 'schemas/': null })).toStrictEqual([
      {
        code: 'schema-outdated',
        severity: 'warning',
        file: 'schemas/invariant.schema.json',
        line: 0,
        col: 0,
        message: 'schemas/invariant.schema.json is missing from the store; editors cannot validate invariant files as you type',
        hint: 'Run `agents init --schemas` to refresh the copies, then commit them.',
      },
      {
        code: 'schema-outdated',
        severity: 'warning',
        file: 'schemas/plan.schema.json',
        line: 0,
        col: 0,
        message: 'schemas/plan.schema.json is missing from the store; editors cannot validate plan files as you type',
        hint: 'Run `agents init --schemas` to refresh the copies, then commit them.',
      },
      {
        code: 'schema-outdated',
        severity: 'warning',
        file: 'schemas/config.schema.json',
        line: 0,
        col: 0,
        message: 'schemas/config.schema.json is missing from the store; editors cannot validate config files as you type',
        hint: 'Run `agents init --schemas` to refresh the copies, then commit them.',
      },
      {
        code: 'schema-outdated',
        severity: 'warning',
        file: 'schemas/action.schema.json',
        line: 0,
        col: 0,
        message: 'schemas/action.schema.json is missing from the store; editors cannot validate action files as you type',
        hint: 'Run `agents init --schemas` to refresh the copies, then commit them.',
      },
      {
        code: 'schema-outdated',
        severity: 'warning',
        file: 'schemas/project.schema.json',
        line: 0,
        col: 0,
        message: 'schemas/project.schema.json is missing from the store; editors cannot validate project files as you type',
        hint: 'Run `agents init --schemas` to refresh the copies, then commit them.',
      },
      {
        code: 'schema-outdated',
        severity: 'warning',
        file: 'schemas/decision.schema.json',
        line: 0,
        col: 0,
        message: 'schemas/decision.schema.json is missing from the store; editors cannot validate decision files as you type',
        hint: 'Run `agents init --schemas` to refresh the copies, then commit them.',
      },
      {
        code: 'schema-outdated',
        severity: 'warning',
        file: 'schemas/enforcement.schema.json',
        line: 0,
        col: 0,
        message: 'schemas/enforcement.schema.json is missing from the store; editors cannot validate enforcement files as you type',
        hint: 'Run `agents init --schemas` to refresh the copies, then commit them.',
      },
      {
        code: 'schema-outdated',
        severity: 'warning',
        file: 'schemas/violation.schema.json',
        line: 0,
        col: 0,
        message: 'schemas/violation.schema.json is missing from the store; editors cannot validate violation files as you type',
        hint: 'Run `agents init --schemas` to refresh the copies, then commit them.',
      },
      {
        code: 'schema-outdated',
        severity: 'warning',
        file: 'schemas/waiver.schema.json',
        line: 0,
        col: 0,
        message: 'schemas/waiver.schema.json is missing from the store; editors cannot validate waiver files as you type',
        hint: 'Run `agents init --schemas` to refresh the copies, then commit them.',
      },
      {
        code: 'schema-outdated',
        severity: 'warning',
        file: 'schemas/extends-lock.schema.json',
        line: 0,
        col: 0,
        message: 'schemas/extends-lock.schema.json is missing from the store; editors cannot validate extends-lock files as you type',
        hint: 'Run `agents init --schemas` to refresh the copies, then commit them.',
      },
      {
        code: 'schema-outdated',
        severity: 'warning',
        file: 'schemas/actor-request.schema.json',
        line: 0,
        col: 0,
        message: 'schemas/actor-request.schema.json is missing from the store; editors cannot validate actor-request files as you type',
        hint: 'Run `agents init --schemas` to refresh the copies, then commit them.',
      },
      {
        code: 'schema-outdated',
        severity: 'warning',
        file: 'schemas/actor-response.schema.json',
        line: 0,
        col: 0,
        message: 'schemas/actor-response.schema.json is missing from the store; editors cannot validate actor-response files as you type',
        hint: 'Run `agents init --schemas` to refresh the copies, then commit them.',
      },
    ]);
    expect(await check({ [`global/${A}.yaml`]: inv(A, 'Never delete data') })).toStrictEqual([]);
  });
});

describe('checkIds', () => {
  it('reports every later use of an id, naming the first; plan folders are ids in use', async () => {
    const found = await check({
      [`global/${A}.yaml`]: inv(A, 'One'),
      [`projects/web/${A}.yaml`]: pinv(A, 'Two'),
      [`plans/${P}/plan.yaml`]: plan(P),
      [`plans/${P}/${B}.yaml`]: pinv(B, 'Three'),
      [`plans/${P}/decisions/${A}.yaml`]: 'x',
      [`projects/web/waivers/${B}.yaml`]: waiver(B, P, '2999-01-01'),
      [`plans/${X}/`]: null,
      [`projects/web/waivers/${C}.yaml`]: waiver(C, X, '2999-01-01'),
    });
    expect(found).toStrictEqual([
      {
        code: 'plan-missing',
        severity: 'error',
        file: `plans/${X}/plan.yaml`,
        line: 0,
        col: 0,
        message: `plan folder plans/${X}/ has no plan.yaml`,
        hint: 'Restore plan.yaml (git checkout, or `agents plan use`), or remove the folder if the plan is gone.',
      },
      {
        code: 'schema',
        severity: 'error',
        file: `plans/${P}/decisions/${A}.yaml`,
        line: 1,
        col: 1,
        message: 'document must be of type object',
        hint: 'Correct the value; decision.schema.json (in schemas/) describes every key.',
        lineText: 'x',
      },
      {
        code: 'id-reused',
        severity: 'error',
        file: `plans/${P}/decisions/${A}.yaml`,
        line: 0,
        col: 0,
        message: `id ${A} is already used by global/${A}.yaml; an id names one thing in the whole store`,
        related: [
          {
            file: `global/${A}.yaml`,
            line: 0,
            col: 0,
            message: `first use of ${A}`,
          },
        ],
        hint: 'Give this file a new id (copy the text with `agents invariant add`, then delete this file).',
      },
      {
        code: 'id-reused',
        severity: 'error',
        file: `projects/web/${A}.yaml`,
        line: 0,
        col: 0,
        message: `id ${A} is already used by global/${A}.yaml; an id names one thing in the whole store`,
        related: [
          {
            file: `global/${A}.yaml`,
            line: 0,
            col: 0,
            message: `first use of ${A}`,
          },
        ],
        hint: 'Give this file a new id (copy the text with `agents invariant add`, then delete this file).',
      },
      {
        code: 'id-reused',
        severity: 'error',
        file: `projects/web/waivers/${B}.yaml`,
        line: 0,
        col: 0,
        message: `id ${B} is already used by plans/${P}/${B}.yaml; an id names one thing in the whole store`,
        related: [
          {
            file: `plans/${P}/${B}.yaml`,
            line: 0,
            col: 0,
            message: `first use of ${B}`,
          },
        ],
        hint: 'Give this file a new id (copy the text with `agents invariant add`, then delete this file).',
      },
      // A plan's id is in use, as its folder says, but it is no invariant a waiver can name.
      ...[
        [B, P],
        [C, X],
      ].map(([waiverId, planId]) => ({
        code: 'unknown-invariant',
        severity: 'warning',
        file: `projects/web/waivers/${waiverId}.yaml`,
        line: 3,
        col: 15,
        message: `waiver ${waiverId} names invariant ${planId}, which is no invariant: it names plan ${planId}, plans/${planId}; it waives nothing`,
        hint: "A waiver names the invariant it waives (a violation's invariant_id): correct invariant_id, or remove the waiver.",
        lineText: `invariant_id: ${planId}`,
      })),
    ]);
  });
});

describe('checkIds of two copies of one invariant', () => {
  it('says to keep one copy where two files of one id say the same or nearly, a new id where they are two invariants', async () => {
    const found = await check({
      // A merge of two moves of one invariant: its copies in two projects, the same but for a typo fixed on one side.
      [`projects/api/${A}.yaml`]: pinv(A, 'Never delete production data'),
      [`projects/web/${A}.yaml`]: pinv(A, 'Never delete producton data'),
      [`projects/api/${B}.yaml`]: pinv(B, 'Rotate the deploy keys'),
      [`projects/web/${B}.yaml`]: pinv(B, 'Log every deploy'),
    });
    const hints = new Map(found.filter((d) => d.code === 'id-reused').map((d) => [d.file, d.hint]));
    expect([...hints.keys()].sort()).toEqual([`projects/web/${A}.yaml`, `projects/web/${B}.yaml`]);
    expect(hints.get(`projects/web/${A}.yaml`)).toMatch(/copies of one invariant/);
    expect(hints.get(`projects/web/${B}.yaml`)).toMatch(/new id/);
    // The readers say it the same way, from the texts they parsed.
    const read = reusedInvariantIds([
      { id: A, path: `projects/api/${A}.yaml`, text: 'Never delete production data.' },
      { id: A, path: `projects/web/${A}.yaml`, text: 'never delete production data' },
      { id: B, path: `projects/api/${B}.yaml`, text: 'Rotate the deploy keys' },
      { id: B, path: `projects/web/${B}.yaml`, text: 'Log every deploy' },
    ]);
    expect(read.map((d) => [d.file, /copies of one invariant/.test(d.hint ?? '')])).toEqual([
      [`projects/web/${A}.yaml`, true],
      [`projects/web/${B}.yaml`, false],
    ]);
  });
});

/** The duplicate-text error, in full, of global/`id`.yaml, a later copy of global/A.yaml's text. */
const duplicateOfA = (id: string, lineText: string) => ({
  code: 'duplicate-text',
  severity: 'error',
  file: `global/${id}.yaml`,
  line: 3,
  col: 7,
  message: `same text as ${A} (global/${A}.yaml) in global; a scope holds each text once`,
  hint: `Delete one of the two files (resolution keeps the older, ${A}).`,
  lineText,
  related: [{ file: `global/${A}.yaml`, line: 3, col: 7, message: `the copy that is kept: ${A}` }],
});

/** The shadowed warning, in full, of global/`id`.yaml, whose text projects/web/`by`.yaml repeats. */
const shadowedIn = (id: string, by: string, lineText: string) => ({
  code: 'shadowed',
  severity: 'warning',
  file: `global/${id}.yaml`,
  line: 3,
  col: 7,
  message: `${id} (global) is shadowed by ${by} (project web, projects/web/${by}.yaml): the same text at a higher precedence`,
  hint: `Nothing is lost, but one copy is redundant: delete the lower one unless it must apply elsewhere. A copy that replaces it on purpose (e.g. with another severity) says so with \`overrides: ${id}\` (\`agents invariant edit ${by} --overrides ${id}\`).`,
  lineText,
  related: [{ file: `projects/web/${by}.yaml`, line: 3, col: 7, message: `the copy that applies: ${by}` }],
});

describe('duplicates, shadows and overrides', () => {
  it('every copy but the oldest in a scope is a duplicate; lower copies are shadowed', async () => {
    const found = await check({
      [`global/${C}.yaml`]: inv(C, 'Never delete data'),
      [`global/${A}.yaml`]: inv(A, 'never  delete DATA'),
      [`global/${B}.yaml`]: inv(B, 'Never delete data'),
      [`projects/web/${P}.yaml`]: pinv(P, 'Never delete data'),
      [`projects/web/${X}.yaml`]: pinv(X, 'Use TLS'),
    });
    // Each diagnostic in full: the copy of A kept in global, the copies of P that apply.
    expect(found).toStrictEqual([
      duplicateOfA(B, 'text: Never delete data'),
      duplicateOfA(C, 'text: Never delete data'),
      shadowedIn(A, P, 'text: never  delete DATA'),
      shadowedIn(B, P, 'text: Never delete data'),
      shadowedIn(C, P, 'text: Never delete data'),
    ]);
  });

  it('of copies in one scope, the one named as kept is the one resolution keeps: the oldest active copy', async () => {
    const found = await check({
      [`global/${A}.yaml`]: inv(A, 'Never delete data', 'active: false\n'),
      [`global/${B}.yaml`]: inv(B, 'never delete DATA'),
      [`global/${C}.yaml`]: inv(C, 'Never delete data'),
    });
    const kept = resolveEffective({ kind: 'project', project: 'web' }, [
      { ...scopedInvariant(A, { kind: 'global' }, 'Never delete data'), active: false },
      scopedInvariant(B, { kind: 'global' }, 'never delete DATA'),
      scopedInvariant(C, { kind: 'global' }, 'Never delete data'),
    ])[0]!.invariant.id;
    expect(kept).toBe(B);
    expect(found.filter((d) => d.code === 'duplicate-text').map((d) => [d.file, d.related?.map((r) => r.file)])).toEqual([
      [`global/${A}.yaml`, [`global/${B}.yaml`]],
      [`global/${C}.yaml`, [`global/${B}.yaml`]],
    ]);
  });

  it('overrides that replace nothing (a copy that comes before, one never met) are warnings, as edit --overrides refuses them', async () => {
    const [D, E, F, G, H] = [
      '01JDQ6X5Z8W4N3B2C1D0E9F8GB',
      '01JDQ6X5Z8W4N3B2C1D0E9F8GC',
      '01JDQ6X5Z8W4N3B2C1D0E9F8GD',
      '01JDQ6X5Z8W4N3B2C1D0E9F8GG',
      '01JDQ6X5Z8W4N3B2C1D0E9F8GH',
    ];
    const found = await check({
      // Right ways round: a project's copy over the global one, a plan's over its project's.
      [`global/${A}.yaml`]: inv(A, 'Never delete data'),
      [`projects/web/${B}.yaml`]: pinv(B, 'Never delete data', `overrides: ${A}\n`),
      [`plans/${P}/plan.yaml`]: plan(P, 'project: web\n'),
      [`plans/${P}/${G}.yaml`]: pinv(G, 'Pin versions', `overrides: ${H}\n`),
      [`projects/web/${H}.yaml`]: pinv(H, 'Pin versions'),
      // The global copy names the project's, which comes before it.
      [`global/${C}.yaml`]: inv(C, 'Keep logs', `overrides: ${D}\n`),
      [`projects/web/${D}.yaml`]: pinv(D, 'Keep logs'),
      // Two projects' copies never meet.
      [`projects/api/${E}.yaml`]: pinv(E, 'Use TLS', `overrides: ${F}\n`),
      [`projects/web/${F}.yaml`]: pinv(F, 'Use TLS'),
    });
    expect(found.filter((d) => d.code === 'overrides-unmet').map((d) => [d.severity, d.file, d.line, d.related?.[0]?.file])).toEqual([
      ['warning', `global/${C}.yaml`, 4, `projects/web/${D}.yaml`],
      ['warning', `projects/api/${E}.yaml`, 4, `projects/web/${F}.yaml`],
    ]);
    expect(found.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('overrides: names an invariant of the store with the same text, which is then not shadowed', async () => {
    const found = await check({
      [`global/${A}.yaml`]: inv(A, 'Never delete data'),
      [`projects/web/${B}.yaml`]: pinv(B, 'Never delete data', `overrides: ${A}\n`),
      [`projects/api/${C}.yaml`]: pinv(C, 'Use TLS', `overrides: ${A}\n`),
      [`projects/app/${P}.yaml`]: pinv(P, 'Use TLS everywhere', `overrides: ${X}\n`),
      [`projects/app/waivers/${X}.yaml`]: waiver(X, A, '2999-01-01'),
    });
    expect(found).toStrictEqual([
      {
        code: 'overrides-text',
        severity: 'error',
        file: `projects/api/${C}.yaml`,
        line: 4,
        col: 12,
        message: `overrides names ${A} (global/${A}.yaml), whose text differs: an override is a copy of the same text`,
        hint: 'Make the texts equal (an override changes severity, tags or rationale, not the text), or remove the overrides key.',
        lineText: `overrides: ${A}`,
        related: [
          {
            file: `global/${A}.yaml`,
            line: 3,
            col: 7,
            message: `the invariant named: ${A}`,
          },
        ],
      },
      {
        code: 'overrides-unknown',
        severity: 'error',
        file: `projects/app/${P}.yaml`,
        line: 4,
        col: 12,
        message: `overrides names ${X}, which is no invariant in the store`,
        hint: 'Correct the id (`agents invariant list --all` shows them), or remove the overrides key.',
        lineText: `overrides: ${X}`,
      },
    ]);
  });

  it('overrides: its own id is an error, as `edit --overrides` refuses it', async () => {
    const found = await check({
      [`global/${A}.yaml`]: inv(A, 'Never delete data', `overrides: ${A}\n`),
    });
    expect(found.map((d) => [d.code, d.severity, d.file, d.line, d.col])).toStrictEqual([
      ['overrides-unknown', 'error', `global/${A}.yaml`, 4, 12],
    ]);
  });
});

describe('checkNearDuplicates', () => {
  it('a warning on the newer of each pair of active invariants, naming every older one', async () => {
    const found = await check({
      [`global/${A}.yaml`]: inv(A, 'Never delete production data'),
      [`global/${B}.yaml`]: inv(B, 'Never delete production data!'),
      [`global/${C}.yaml`]: inv(C, 'Never delete production dat'),
      [`projects/web/${P}.yaml`]: pinv(P, 'Never delete production data.', 'active: false\n'),
      [`projects/web/${X}.yaml`]: pinv(X, 'Never delete production data'),
    });
    expect(found).toStrictEqual([
      shadowedIn(A, X, 'text: Never delete production data'),
      {
        code: 'near-duplicate',
        severity: 'warning',
        file: `global/${B}.yaml`,
        line: 3,
        col: 7,
        message: `${B} "Never delete production data!" nearly repeats ${A} "Never delete production data" (global/${A}.yaml, the same but for punctuation); both apply`,
        hint: `Keep one: remove the newer (\`agents invariant remove ${B}\`), or edit a text if they mean different things.`,
        lineText: 'text: Never delete production data!',
        related: [
          {
            file: `global/${A}.yaml`,
            line: 3,
            col: 7,
            message: `the other copy: ${A}`,
          },
        ],
      },
      {
        code: 'near-duplicate',
        severity: 'warning',
        file: `global/${C}.yaml`,
        line: 3,
        col: 7,
        message: `${C} "Never delete production dat" nearly repeats ${A} "Never delete production data" (global/${A}.yaml, one character apart) and ${B} "Never delete production data!" (global/${B}.yaml, one character apart); all apply`,
        hint: `Keep one: remove the newer (\`agents invariant remove ${C}\`), or edit a text if they mean different things.`,
        lineText: 'text: Never delete production dat',
        related: [
          {
            file: `global/${A}.yaml`,
            line: 3,
            col: 7,
            message: `the other copy: ${A}`,
          },
          {
            file: `global/${B}.yaml`,
            line: 3,
            col: 7,
            message: `the other copy: ${B}`,
          },
        ],
      },
      {
        code: 'near-duplicate',
        severity: 'warning',
        file: `projects/web/${X}.yaml`,
        line: 3,
        col: 7,
        message: `${X} "Never delete production data" nearly repeats ${B} "Never delete production data!" (global/${B}.yaml, the same but for punctuation) and ${C} "Never delete production dat" (global/${C}.yaml, one character apart); all apply`,
        hint: `Keep one: remove the newer (\`agents invariant remove ${X}\`), or edit a text if they mean different things.`,
        lineText: 'text: Never delete production data',
        related: [
          {
            file: `global/${B}.yaml`,
            line: 3,
            col: 7,
            message: `the other copy: ${B}`,
          },
          {
            file: `global/${C}.yaml`,
            line: 3,
            col: 7,
            message: `the other copy: ${C}`,
          },
        ],
      },
    ]);
  });

  it('in hook mode: the pairs of the touched texts, with every older copy of their newer files', async () => {
    const spec = {
      [`global/${A}.yaml`]: inv(A, 'Never delete production data'),
      [`global/${B}.yaml`]: inv(B, 'Never delete production data!'),
      [`global/${C}.yaml`]: inv(C, 'Never delete production dat'),
      [`global/${X}.yaml`]: inv(X, 'Keep a changelog'),
    };
    const summary = (ds: Diagnostic[]) => ds.map((d) => `${d.code} ${d.file} ${d.message}`);
    expect(summary(await check(spec, { touches: (p) => p === 'global' || p === `global/${A}.yaml` }))).toStrictEqual([
      `near-duplicate global/${B}.yaml ${B} "Never delete production data!" nearly repeats ${A} "Never delete production data" (global/${A}.yaml, the same but for punctuation); both apply`,
      `near-duplicate global/${C}.yaml ${C} "Never delete production dat" nearly repeats ${A} "Never delete production data" (global/${A}.yaml, one character apart) and ${B} "Never delete production data!" (global/${B}.yaml, one character apart); all apply`,
    ]);
    expect(summary(await check(spec, { touches: (p) => p === 'global' || p === `global/${X}.yaml` }))).toStrictEqual([]);
    expect(summary(await check(spec, { touches: (p) => p === 'global' || p === `global/${C}.yaml` }))).toStrictEqual([
      `near-duplicate global/${C}.yaml ${C} "Never delete production dat" nearly repeats ${A} "Never delete production data" (global/${A}.yaml, one character apart) and ${B} "Never delete production data!" (global/${B}.yaml, one character apart); all apply`,
    ]);
  });
});

describe('checkReferences', () => {
  it("a policy source's action (SOURCE:NS/NAME) is known when config.yaml's extends declares the source", async () => {
    const found = await check({
      'config.yaml': 'extends:\n  - name: acme\n    url: https://git.example.com/acme/policy.git\n    ref: v1\n',
      [`plans/${P}/plan.yaml`]: plan(P, 'action: acme:release/ship\n'),
      [`plans/${X}/plan.yaml`]: plan(X, 'action: other:release/ship\n'),
    });
    expect(found.filter((d) => d.code === 'unknown-action').map((d) => `${d.file} ${d.severity} ${d.message}`)).toStrictEqual([
      `plans/${X}/plan.yaml warning plan ${X} names action other:release/ship of the policy source other, which config.yaml's extends does not declare`,
    ]);
  });

  it("a broken config.yaml judges no policy source's action or origin by the defaults, which declare none", async () => {
    const found = await check({
      'config.yaml': 'extends:\n  - name: acme\n    url: https://git.example.com/acme/policy.git\n    ref: v1\nbogus: 1\n',
      [`plans/${P}/plan.yaml`]: plan(P, 'action: acme:release/ship\n'),
      [`plans/${P}/${A}.yaml`]: pinv(A, 'Tag it', `source:\n  kind: action\n  ref: acme:release/ship\n  origin_id: ${B}\n`),
    });
    expect(found.map((d) => `${d.code} ${d.file}`)).toStrictEqual(['schema config.yaml']);
  });

  it('a plan names an action and a project that exist; a promoted invariant names its origin', async () => {
    const found = await check({
      [`global/${A}.yaml`]: inv(A, 'One'),
      'actions/ns/n/action.yaml': '# yaml-language-server: $schema=../../../schemas/action.schema.json\ndescription: d\n',
      'projects/web/': null,
      [`plans/${P}/plan.yaml`]: plan(P, 'action: ns/n\nproject: web\n'),
      [`plans/${X}/plan.yaml`]: plan(X, 'action: ns/gone\nproject: gone\n'),
      [`plans/${P}/${B}.yaml`]: pinv(B, 'Two', `source:\n  kind: action\n  ref: ns/n\n  origin_id: ${A}\n`),
      [`plans/${P}/${C}.yaml`]: pinv(C, 'Three', `source:\n  kind: action\n  ref: ns/n\n  origin_id: 01JDQ6X5Z8W4N3B2C1D0E9F8GB\n`),
      [`plans/${X}/${C.slice(0, -1)}C.yaml`]: pinv(
        `${C.slice(0, -1)}C`,
        'Four',
        'source:\n  kind: plan\n  origin_id: 01JDQ6X5Z8W4N3B2C1D0E9F8GD\n',
      ),
    });
    expect(found).toStrictEqual([
      {
        code: 'unknown-action',
        severity: 'warning',
        file: `plans/${X}/plan.yaml`,
        line: 3,
        col: 9,
        message: `plan ${X} names action ns/gone, which is not in the store (no actions/ns/gone/)`,
        hint: 'Restore the action template, or correct the name.',
        lineText: 'action: ns/gone',
      },
      {
        code: 'unknown-project',
        severity: 'warning',
        file: `plans/${X}/plan.yaml`,
        line: 4,
        col: 10,
        message: `plan ${X} targets project gone, which is not in the store (no projects/gone/)`,
        hint: 'Create the project folder (e.g. with `agents invariant add --project`), or correct the name.',
        lineText: 'project: gone',
      },
      {
        code: 'unknown-origin',
        severity: 'info',
        file: `plans/${X}/01JDQ6X5Z8W4N3B2C1D0E9F8GC.yaml`,
        line: 6,
        col: 14,
        message: '01JDQ6X5Z8W4N3B2C1D0E9F8GC was promoted from 01JDQ6X5Z8W4N3B2C1D0E9F8GD, which no longer exists',
        hint: 'Nothing to do unless the plan should follow the action again; the plan keeps its own copy.',
        lineText: '  origin_id: 01JDQ6X5Z8W4N3B2C1D0E9F8GD',
      },
      {
        code: 'unknown-origin',
        severity: 'info',
        file: `plans/${P}/${C}.yaml`,
        line: 7,
        col: 14,
        message: `${C} was promoted from 01JDQ6X5Z8W4N3B2C1D0E9F8GB (action ns/n), which no longer exists`,
        hint: 'Nothing to do unless the plan should follow the action again; the plan keeps its own copy.',
        lineText: '  origin_id: 01JDQ6X5Z8W4N3B2C1D0E9F8GB',
      },
    ]);
  });
});

describe('checkWaivers', () => {
  it("a waiver naming an invariant its project's or plan's set does not hold is waiver-not-applicable (a move leaves it behind)", async () => {
    const W = ['01JDQ6X5Z8W4N3B2C1D0E9F8H1', '01JDQ6X5Z8W4N3B2C1D0E9F8H2', '01JDQ6X5Z8W4N3B2C1D0E9F8H3', '01JDQ6X5Z8W4N3B2C1D0E9F8H4'];
    const W5 = '01JDQ6X5Z8W4N3B2C1D0E9F8H5';
    const W6 = '01JDQ6X5Z8W4N3B2C1D0E9F8H6';
    const spec = {
      [`global/${A}.yaml`]: inv(A, 'One'),
      // B moved from web to api; C is a template's; Y is the plan's own.
      [`projects/api/${B}.yaml`]: pinv(B, 'Two'),
      [`actions/ops/deploy/${C}.yaml`]: `# yaml-language-server: $schema=../../../schemas/invariant.schema.json\nid: ${C}\ntext: Three\n`,
      [`plans/${P}/plan.yaml`]: plan(P, 'project: api\n'),
      [`plans/${P}/${Y}.yaml`]: pinv(Y, 'Four'),
      [`projects/web/waivers/${W[0]}.yaml`]: waiver(W[0]!, A, '2999-01-01'),
      [`projects/web/waivers/${W[1]}.yaml`]: waiver(W[1]!, B, '2999-01-01'),
      [`projects/web/waivers/${W[2]}.yaml`]: waiver(W[2]!, C, '2999-01-01'),
      [`plans/${P}/waivers/${W[3]}.yaml`]: waiver(W[3]!, B, '2999-01-01'),
      [`plans/${P}/waivers/${W5}.yaml`]: waiver(W5, Y, '2999-01-01'),
      [`projects/api/waivers/${W6}.yaml`]: waiver(W6, Y, '2999-01-01'),
    };
    const found = (await check(spec)).filter((d) => d.code === 'waiver-not-applicable');
    expect(found.map((d) => [d.file, d.severity, d.line, d.col])).toEqual([
      [`projects/api/waivers/${W6}.yaml`, 'warning', 3, 15],
      [`projects/web/waivers/${W[1]}.yaml`, 'warning', 3, 15],
      [`projects/web/waivers/${W[2]}.yaml`, 'warning', 3, 15],
    ]);
  });

  it("a waiver of a copy its target's set does not keep (shadowed there, or inactive) is waiver-not-applicable", async () => {
    const [W1, W2, W3, W4, W5, W6] = [
      '01JDQ6X5Z8W4N3B2C1D0E9F8J1',
      '01JDQ6X5Z8W4N3B2C1D0E9F8J2',
      '01JDQ6X5Z8W4N3B2C1D0E9F8J3',
      '01JDQ6X5Z8W4N3B2C1D0E9F8J4',
      '01JDQ6X5Z8W4N3B2C1D0E9F8J5',
      '01JDQ6X5Z8W4N3B2C1D0E9F8J6',
    ];
    const I = '01JDQ6X5Z8W4N3B2C1D0E9F8K1';
    const spec = {
      // A global text api copies (B, the kept one there), which web does not; the plan's own copy (Y) hides api's.
      [`global/${A}.yaml`]: inv(A, 'Keep backups'),
      [`projects/api/${B}.yaml`]: pinv(B, 'keep  BACKUPS'),
      [`plans/${P}/plan.yaml`]: plan(P, 'project: api\n'),
      [`plans/${P}/${Y}.yaml`]: pinv(Y, 'Keep backups'),
      [`global/${C}.yaml`]: inv(C, 'Log changes', 'active: false\n'),
      // An inherited text the project copies (Z).
      [`projects/api/${Z}.yaml`]: pinv(Z, 'Review infra'),
      [`projects/api/waivers/${W1}.yaml`]: waiver(W1, A, '2999-01-01'),
      [`projects/web/waivers/${W2}.yaml`]: waiver(W2, A, '2999-01-01'),
      [`plans/${P}/waivers/${W3}.yaml`]: waiver(W3, B, '2999-01-01'),
      [`projects/api/waivers/${W4}.yaml`]: waiver(W4, B, '2999-01-01'),
      [`projects/web/waivers/${W5}.yaml`]: waiver(W5, C, '2999-01-01'),
      [`projects/api/waivers/${W6}.yaml`]: waiver(W6, I, '2999-01-01'),
    };
    const inheritedKeys = async () => new Map([[I, keyDigest(textKey('Review infra'))]]);
    const found = (await check(spec, { inheritedKeys })).filter((d) => d.code === 'waiver-not-applicable');
    // Each names the copy that applies instead (none for the inactive one).
    const kept = (d: Diagnostic) => [Y, B, Z].filter((id) => d.message.includes(`${id} (`));
    expect(found.map((d) => [d.file, d.severity, d.line, d.col, kept(d)])).toEqual([
      [`plans/${P}/waivers/${W3}.yaml`, 'warning', 3, 15, [Y]],
      [`projects/api/waivers/${W1}.yaml`, 'warning', 3, 15, [B]],
      [`projects/api/waivers/${W6}.yaml`, 'warning', 3, 15, [Z]],
      [`projects/web/waivers/${W5}.yaml`, 'warning', 3, 15, []],
    ]);
  });

  it('expired at `now`, and naming an invariant not in the store', async () => {
    const spec = {
      [`global/${A}.yaml`]: inv(A, 'One'),
      [`projects/web/waivers/${B}.yaml`]: waiver(B, A, '2026-01-31'),
      [`projects/web/waivers/${C}.yaml`]: waiver(C, X, '2026-02-01'),
    };
    expect(await check(spec, { now: new Date('2026-02-01T00:00:00Z') })).toStrictEqual([
      {
        code: 'waiver-expired',
        severity: 'error',
        file: `projects/web/waivers/${B}.yaml`,
        line: 6,
        col: 10,
        message: `waiver ${B} of ${A} expired (expires: 2026-01-31); the invariant applies again`,
        // The renewal names its scope: the waiver it records replaces this file (invariant waive removes it).
        hint: `Remove the waiver file (\`git rm\` the path this diagnostic names), or renew it: \`agents invariant waive ${A} --project web --reason "…" --owner "…" --expires YYYY-MM-DD\` records a new waiver and removes this file.`,
        lineText: 'expires: 2026-01-31',
      },
      {
        code: 'unknown-invariant',
        severity: 'warning',
        file: `projects/web/waivers/${C}.yaml`,
        line: 3,
        col: 15,
        message: `waiver ${C} names invariant ${X}, which is not in the store`,
        hint: 'Remove the waiver, or correct invariant_id.',
        lineText: `invariant_id: ${X}`,
      },
    ]);
    expect(await check(spec)).toStrictEqual([
      {
        code: 'unknown-invariant',
        severity: 'warning',
        file: `projects/web/waivers/${C}.yaml`,
        line: 3,
        col: 15,
        message: `waiver ${C} names invariant ${X}, which is not in the store`,
        hint: 'Remove the waiver, or correct invariant_id.',
        lineText: `invariant_id: ${X}`,
      },
    ]);
  });
});

describe('a waiver that ends more than 100 years after the run', () => {
  it('is an info, waiver-permanent, on its expires line; one within the horizon, or judged at no time, is not', async () => {
    const spec = {
      [`global/${A}.yaml`]: inv(A, 'One'),
      [`projects/web/waivers/${B}.yaml`]: waiver(B, A, '9999-12-31'),
      [`projects/web/waivers/${C}.yaml`]: waiver(C, A, '2125-12-31'),
    };
    const found = await check(spec, { now: new Date('2026-02-01T00:00:00Z') });
    expect(found.map((d) => [d.code, d.severity, d.file, d.line])).toEqual([
      ['waiver-permanent', 'info', `projects/web/waivers/${B}.yaml`, 6],
    ]);
    // The horizon is measured from the run: a day before the nearer date is a hundred years off, it is past it too.
    expect((await check(spec, { now: new Date('2025-12-31T00:00:00Z') })).map((d) => d.file)).toEqual([
      `projects/web/waivers/${B}.yaml`,
      `projects/web/waivers/${C}.yaml`,
    ]);
    expect((await check(spec, { now: new Date('2026-01-01T00:00:00Z') })).map((d) => d.file)).toEqual([`projects/web/waivers/${B}.yaml`]);
    expect(await check(spec)).toEqual([]);
  });
});

describe('a record naming an invariant by the id of something else', () => {
  // A violation's id is in use in the store, but names no invariant: a waiver of it, or a copy promoted from it, is
  // as unknown as an id no file has, and said to name what it names.
  const V = '01JDQ6X5Z8W4N3B2C1D0E9F8H7';
  const violation = `# yaml-language-server: $schema=../../../schemas/violation.schema.json\nid: ${V}\ninvariant_id: ${A}\nviolated_text: One\nseverity: error\ncreated_at: 2020-01-02T10:00:00Z\n`;

  it("a waiver of a violation's id, or of a plan's, is unknown-invariant naming that violation or plan", async () => {
    const found = await check({
      [`global/${A}.yaml`]: inv(A, 'One'),
      [`plans/${P}/plan.yaml`]: plan(P),
      [`plans/${P}/violations/${V}.yaml`]: violation,
      [`plans/${P}/waivers/${B}.yaml`]: waiver(B, V, '2999-01-01'),
      [`plans/${P}/waivers/${C}.yaml`]: waiver(C, P, '2999-01-01'),
    });
    expect(found.map((d) => [d.code, d.severity, d.file, d.line, d.col])).toStrictEqual([
      ['unknown-invariant', 'warning', `plans/${P}/waivers/${B}.yaml`, 3, 15],
      ['unknown-invariant', 'warning', `plans/${P}/waivers/${C}.yaml`, 3, 15],
    ]);
    expect(found[0]!.message).toContain(`violation ${V}, plans/${P}/violations/${V}.yaml`);
    expect(found[1]!.message).toContain(`plan ${P}, plans/${P}`);
  });

  it("a copy promoted from a violation's id is unknown-origin", async () => {
    const found = await check({
      [`plans/${P}/plan.yaml`]: plan(P),
      [`plans/${P}/violations/${V}.yaml`]: violation,
      [`plans/${P}/${A}.yaml`]: pinv(A, 'One', `source:\n  kind: plan\n  origin_id: ${V}\n`),
    });
    expect(found.map((d) => [d.code, d.file, d.line, d.col])).toStrictEqual([['unknown-origin', `plans/${P}/${A}.yaml`, 6, 14]]);
  });
});

describe('checkModelines', () => {
  it('an info for each file without the modeline, except files with errors', async () => {
    const found = await check({
      [`global/${A}.yaml`]: `id: ${A}\ntext: One\n`,
      [`global/${B}.yaml`]: `id: ${B}\ntext: Two\nseverity: fatal\n`,
      [`global/${C}.yaml`]: `\uFEFF#   yaml-language-server:  $schema=../schemas/invariant.schema.json\nid: ${C}\ntext: Three\n`,
      [`global/${X}.yaml`]: `# just a comment\nid: ${X}\ntext: Keep a changelog!\n`,
      [`global/${P}.yaml`]: `id: ${P}\ntext: Keep a changelog\n`,
      'config.yaml': 'commit: false\n',
    });
    expect(found).toStrictEqual([
      {
        code: 'schema',
        severity: 'error',
        file: `global/${B}.yaml`,
        line: 3,
        col: 11,
        message: 'severity must be one of "error", "warning", "info"',
        hint: 'Correct the value; invariant.schema.json (in schemas/) describes every key.',
        lineText: 'severity: fatal',
      },
      {
        code: 'near-duplicate',
        severity: 'warning',
        file: `global/${P}.yaml`,
        line: 2,
        col: 7,
        message: `${P} "Keep a changelog" nearly repeats ${X} "Keep a changelog!" (global/${X}.yaml, the same but for punctuation); both apply`,
        hint: `Keep one: remove the newer (\`agents invariant remove ${P}\`), or edit a text if they mean different things.`,
        lineText: 'text: Keep a changelog',
        related: [
          {
            file: `global/${X}.yaml`,
            line: 3,
            col: 7,
            message: `the other copy: ${X}`,
          },
        ],
      },
      {
        code: 'modeline-missing',
        severity: 'info',
        file: 'config.yaml',
        line: 1,
        col: 1,
        message: 'no `# yaml-language-server: $schema=…` first line; editors cannot validate this file as you type',
        hint: 'Run `agents validate --fix` to add it.',
        lineText: 'commit: false',
      },
      {
        code: 'modeline-missing',
        severity: 'info',
        file: `global/${A}.yaml`,
        line: 1,
        col: 1,
        message: 'no `# yaml-language-server: $schema=…` first line; editors cannot validate this file as you type',
        hint: 'Run `agents validate --fix` to add it.',
        lineText: `id: ${A}`,
      },
      {
        code: 'modeline-missing',
        severity: 'info',
        file: `global/${X}.yaml`,
        line: 1,
        col: 1,
        message: 'no `# yaml-language-server: $schema=…` first line; editors cannot validate this file as you type',
        hint: 'Run `agents validate --fix` to add it.',
        lineText: '# just a comment',
      },
      {
        code: 'modeline-missing',
        severity: 'info',
        file: `global/${P}.yaml`,
        line: 1,
        col: 1,
        message: 'no `# yaml-language-server: $schema=…` first line; editors cannot validate this file as you type',
        hint: 'Run `agents validate --fix` to add it.',
        lineText: `id: ${P}`,
      },
    ]);
  });
});

describe('checkModelines in hook mode', () => {
  it('looks only at touched files: a finding about one file alone', async () => {
    const spec = {
      [`global/${A}.yaml`]: `id: ${A}\ntext: One\n`,
      [`global/${B}.yaml`]: `id: ${B}\ntext: Two\n`,
      [`global/${C}.yaml`]: inv(C, 'Three'),
    };
    const missing = (found: Diagnostic[]) => found.filter((d) => d.code === 'modeline-missing').map((d) => d.file);
    expect(missing(await check(spec))).toEqual([`global/${A}.yaml`, `global/${B}.yaml`]);
    expect(missing(await check(spec, { touches: (p) => p === 'global' || p === `global/${B}.yaml` }))).toEqual([`global/${B}.yaml`]);
    expect(missing(await check(spec, { touches: (p) => p === 'global' || p === `global/${C}.yaml` }))).toEqual([]);
  });
});

describe('checkProjectPaths', () => {
  const spec = (config?: string) => ({
    ...(config === undefined ? {} : { 'config.yaml': config }),
    'projects/web/project.yaml': project(['web/**', 'shared/*.ts', 'src/*.ts']),
    'projects/api/project.yaml': project(['api/**', 'shared/**', 'src/a*', 'api/*.ts']),
    'projects/docs/project.yaml': project(['docs/**', 'web/**']),
    'projects/lib/project.yaml': project(['lib/**', 'src/b*']),
    'projects/none/project.yaml': `${PRML}description: d\n`,
  });
  it('overlaps the globs prove, as errors', async () => {
    expect(await check(spec())).toStrictEqual([
      {
        code: 'project-paths-overlap',
        severity: 'error',
        file: 'projects/web/project.yaml',
        line: 4,
        col: 5,
        message: 'paths.1 "shared/*.ts" of project web overlaps paths.1 "shared/**" of project api (the globs alone show it)',
        hint: 'Make the paths disjoint (a file belongs to one project), or set projects.allow_overlap: true in config.yaml.',
        lineText: '  - "shared/*.ts"',
        related: [
          {
            file: 'projects/api/project.yaml',
            line: 4,
            col: 5,
            message: `project api's path "shared/**"`,
          },
        ],
      },
      {
        code: 'project-paths-overlap',
        severity: 'error',
        file: 'projects/web/project.yaml',
        line: 3,
        col: 5,
        message: 'paths.0 "web/**" of project web overlaps paths.1 "web/**" of project docs (the globs alone show it)',
        hint: 'Make the paths disjoint (a file belongs to one project), or set projects.allow_overlap: true in config.yaml.',
        lineText: '  - "web/**"',
        related: [
          {
            file: 'projects/docs/project.yaml',
            line: 4,
            col: 5,
            message: `project docs's path "web/**"`,
          },
        ],
      },
    ]);
  });
  it('not at all while config.yaml is broken: whether overlaps are allowed is unknown until it is fixed', async () => {
    const found = await check(spec('projects:\n  allow_overlap: true\nbogus: 1\n'));
    expect(found.map((d) => `${d.severity} ${d.code} ${d.file}`)).toStrictEqual(['error schema config.yaml']);
  });
  it('as warnings when config.yaml allows overlaps', async () => {
    const found = await check(spec('# yaml-language-server: $schema=schemas/config.schema.json\nprojects:\n  allow_overlap: true\n'));
    expect(found.map((d) => `${d.severity} ${d.code} ${d.file}`)).toStrictEqual([
      'warning project-paths-overlap projects/web/project.yaml',
      'warning project-paths-overlap projects/web/project.yaml',
    ]);
  });
  it('with the repository files: overlaps a file shows, and globs that match nothing', async () => {
    const asked: number[] = [];
    const found = await check(spec(), {
      repoFiles: async () => {
        asked.push(1);
        return ['shared/a.ts', 'src/b.ts', 'src/a.ts', 'src/a.md', 'webx/a.ts', 'api/x.ts', 'README.md'];
      },
    });
    expect(found).toStrictEqual([
      {
        code: 'project-paths-overlap',
        severity: 'error',
        file: 'projects/web/project.yaml',
        line: 4,
        col: 5,
        message: 'paths.1 "shared/*.ts" of project web overlaps paths.1 "shared/**" of project api (the globs alone show it)',
        hint: 'Make the paths disjoint (a file belongs to one project), or set projects.allow_overlap: true in config.yaml.',
        lineText: '  - "shared/*.ts"',
        related: [
          {
            file: 'projects/api/project.yaml',
            line: 4,
            col: 5,
            message: `project api's path "shared/**"`,
          },
        ],
      },
      {
        code: 'project-paths-overlap',
        severity: 'error',
        file: 'projects/web/project.yaml',
        line: 3,
        col: 5,
        message: 'paths.0 "web/**" of project web overlaps paths.1 "web/**" of project docs (the globs alone show it)',
        hint: 'Make the paths disjoint (a file belongs to one project), or set projects.allow_overlap: true in config.yaml.',
        lineText: '  - "web/**"',
        related: [
          {
            file: 'projects/docs/project.yaml',
            line: 4,
            col: 5,
            message: `project docs's path "web/**"`,
          },
        ],
      },
      {
        code: 'project-paths-overlap',
        severity: 'error',
        file: 'projects/web/project.yaml',
        line: 5,
        col: 5,
        message: 'paths.2 "src/*.ts" of project web overlaps paths.1 "src/b*" of project lib (both hold src/b.ts)',
        hint: 'Make the paths disjoint (a file belongs to one project), or set projects.allow_overlap: true in config.yaml.',
        lineText: '  - "src/*.ts"',
        related: [
          {
            file: 'projects/lib/project.yaml',
            line: 4,
            col: 5,
            message: `project lib's path "src/b*"`,
          },
        ],
      },
      {
        code: 'project-path-unmatched',
        severity: 'warning',
        file: 'projects/docs/project.yaml',
        line: 3,
        col: 5,
        message: 'paths.0 "docs/**" of project docs matches no file of the repository',
        hint: 'Correct the glob (paths are relative to the top of the repository), or remove it.',
        lineText: '  - "docs/**"',
      },
      {
        code: 'project-path-unmatched',
        severity: 'warning',
        file: 'projects/docs/project.yaml',
        line: 4,
        col: 5,
        message: 'paths.1 "web/**" of project docs matches no file of the repository',
        hint: 'Correct the glob (paths are relative to the top of the repository), or remove it.',
        lineText: '  - "web/**"',
      },
      {
        code: 'project-path-unmatched',
        severity: 'warning',
        file: 'projects/lib/project.yaml',
        line: 3,
        col: 5,
        message: 'paths.0 "lib/**" of project lib matches no file of the repository',
        hint: 'Correct the glob (paths are relative to the top of the repository), or remove it.',
        lineText: '  - "lib/**"',
      },
      {
        code: 'project-path-unmatched',
        severity: 'warning',
        file: 'projects/web/project.yaml',
        line: 3,
        col: 5,
        message: 'paths.0 "web/**" of project web matches no file of the repository',
        hint: 'Correct the glob (paths are relative to the top of the repository), or remove it.',
        lineText: '  - "web/**"',
      },
    ]);
    expect(asked).toEqual([1]);
    expect((await check(spec(), { repoFiles: async () => undefined })).map((d) => `${d.code} ${d.file} ${d.message}`)).toStrictEqual([
      'project-paths-overlap projects/web/project.yaml paths.1 "shared/*.ts" of project web overlaps paths.1 "shared/**" of project api (the globs alone show it)',
      'project-paths-overlap projects/web/project.yaml paths.0 "web/**" of project web overlaps paths.1 "web/**" of project docs (the globs alone show it)',
    ]);
  });
  it('in hook mode: not run (the repository files not even asked) unless a project.yaml or config.yaml is touched', async () => {
    const files = ['shared/a.ts', 'src/b.ts', 'api/x.ts'];
    const asked: string[] = [];
    const run = (touched: string[]) =>
      check(spec(), {
        repoFiles: async () => {
          asked.push(touched.join(','));
          return files;
        },
        touches: (p) => touched.includes(p) || touched.some((t) => t.startsWith(`${p}/`)),
      });
    const paths = (found: Diagnostic[]) => found.filter((d) => d.code.startsWith('project-path'));
    expect(paths(await run([`global/${A}.yaml`]))).toStrictEqual([]);
    expect(asked).toStrictEqual([]);
    // A project.yaml touched: every finding of a full run (the caller keeps those on or naming a touched file).
    const full = paths(await check(spec(), { repoFiles: async () => files }));
    expect(full.length).toBeGreaterThan(3);
    expect(paths(await run(['projects/lib/project.yaml']))).toStrictEqual(full);
    expect(paths(await run(['config.yaml']))).toStrictEqual(full);
    expect(asked).toStrictEqual(['projects/lib/project.yaml', 'config.yaml']);
  });
  it('a glob that names a folder of files (--path services/api) is told the glob of its files', async () => {
    const found = await check(
      { 'projects/api/project.yaml': project(['services/api', 'docs/*.md']) },
      { repoFiles: async () => ['services/api/x.ts', 'docs/a/b.md'] },
    );
    expect(found.map((d) => [d.code, d.line, d.hint?.includes('services/api/**')])).toStrictEqual([
      ['project-path-unmatched', 3, true],
      ['project-path-unmatched', 4, false],
    ]);
  });
});

describe('checkGuardWrites', () => {
  const guarded = (globs: string[]) => inv(A, 'Never touch the keys', `guard:\n  write:\n${globs.map((g) => `    - "${g}"\n`).join('')}`);
  it("a write glob that names a folder of the repository's files and matches none is warned of at the glob, told the glob of its files", async () => {
    const files = ['secrets/k.pem', 'config/prod', 'keys/a/b.pem', 'docs/x.md'];
    const found = await check(
      { [`global/${A}.yaml`]: guarded(['secrets', 'config/prod', '**/*.pem', 'keys', 'docs/*.md', 'docs/**', 'vault']) },
      { repoFiles: async () => files },
    );
    expect(found.map((d) => [d.code, d.severity, d.line, d.col, d.hint?.includes(`${/"(.*)"/.exec(d.message)![1]}/**`)])).toStrictEqual([
      ['guard-write-folder', 'warning', 6, 7, true],
      ['guard-write-folder', 'warning', 9, 7, true],
    ]);
    // A last segment with wildcards that matches folders alone (`secr*`, `config/*`) guards nothing either, as the
    // guard matches a path; one that matches a file too (`note*`, notes.txt) guards that file, and is no slip.
    const wild = await check(
      { [`global/${A}.yaml`]: guarded(['secr*', 'config/*', 'note*']) },
      { repoFiles: async () => ['secrets/k.pem', 'config/a/x.yml', 'config/b/y.yml', 'notes.txt', 'notes/a.md'] },
    );
    expect(wild.map((d) => [d.code, d.line])).toStrictEqual([
      ['guard-write-folder', 6],
      ['guard-write-folder', 7],
    ]);
    // Such a pattern names folders (config/a, config/b), one without wildcards a folder: each said as what it names.
    expect(wild.map((d) => / names folders .* below them$/.test(d.message))).toStrictEqual([true, true]);
    expect(found.map((d) => / names a folder .* below it$/.test(d.message))).toStrictEqual([true, true]);
    // A folder git lists no file of (ignored): a glob without wildcards is judged by the working tree's folder.
    const ignored = await check(
      { [`global/${A}.yaml`]: guarded(['vault', 'vault*', 'docs/x.md', '**/*.pem']) },
      { repoFiles: async () => files, repoFolder: async (p) => p === 'vault' || p === 'docs/x.md' },
    );
    expect(ignored.map((d) => [d.code, d.line])).toStrictEqual([['guard-write-folder', 6]]);
    // Where git ignores case, a glob naming the folder in another case is one too, as the guard matches it there.
    const cased = (ignoresCase: boolean) =>
      check(
        { [`global/${A}.yaml`]: guarded(['Secrets', 'KEYS/A']) },
        { repoFiles: async () => files, repoIgnoresCase: async () => ignoresCase },
      );
    expect((await cased(true)).map((d) => [d.code, d.line])).toStrictEqual([
      ['guard-write-folder', 6],
      ['guard-write-folder', 7],
    ]);
    expect(await cased(false)).toStrictEqual([]);
    // Outside git nothing is known of the files; in hook mode only a touched invariant is judged.
    expect(
      await check({ [`global/${A}.yaml`]: guarded(['secrets']) }, { repoFiles: async () => undefined, repoFolder: async () => true }),
    ).toStrictEqual([]);
    // A glob that cannot name a folder has no files listed.
    const listed: number[] = [];
    await check({ [`global/${A}.yaml`]: guarded(['**/*.pem', 'keys/**']) }, { repoFiles: async () => (listed.push(1), files) });
    expect(listed).toStrictEqual([]);
    const asked: number[] = [];
    const hook = (touched: string) =>
      check(
        { [`global/${A}.yaml`]: guarded(['secrets']) },
        {
          repoFiles: async () => {
            asked.push(1);
            return files;
          },
          touches: (p) => p === touched,
        },
      );
    expect((await hook(`global/${B}.yaml`)).filter((d) => d.code === 'guard-write-folder')).toStrictEqual([]);
    expect(asked).toStrictEqual([]);
    expect((await hook(`global/${A}.yaml`)).map((d) => d.code)).toStrictEqual(['guard-write-folder']);
  });

  it("a project's write glob that no file of the project's paths can match is warned of at the glob, naming the paths", async () => {
    const spec = (paths: string[]) => ({
      'projects/web/project.yaml': project(paths),
      [`projects/web/${A}.yaml`]: guarded(['secrets/**', 'web/secrets/**', '**/*.pem', '*/keys/**']),
      [`global/${B}.yaml`]: inv(B, 'Never touch the root keys', 'guard:\n  write:\n    - "secrets/**"\n'),
    });
    const outside = (found: Diagnostic[]) => found.filter((d) => d.code === 'guard-write-outside-project');
    const found = outside(await check(spec(['web/**'])));
    expect(found.map((d) => [d.file, d.severity, d.line, d.col, d.related?.[0]?.file])).toStrictEqual([
      [`projects/web/${A}.yaml`, 'warning', 6, 7, 'projects/web/project.yaml'],
    ]);
    // Globs that can meet the paths are not judged by the files: no warning for any of them, nor for a project without paths.
    expect(outside(await check(spec(['web/**', 'secrets/*.txt'])))).toStrictEqual([]);
    expect(outside(await check({ [`projects/web/${A}.yaml`]: guarded(['secrets/**']) }))).toStrictEqual([]);
    // Where git ignores case, `Web/**` holds `web/secrets/**`, as the guard matches it there.
    const cased = (ignoresCase: boolean) =>
      check(
        { 'projects/web/project.yaml': project(['Web/**']), [`projects/web/${A}.yaml`]: guarded(['web/secrets/**']) },
        { repoIgnoresCase: async () => ignoresCase },
      );
    expect(outside(await cased(true))).toStrictEqual([]);
    expect(outside(await cased(false))).toHaveLength(1);
    // Hook mode: the invariant or its project.yaml touched.
    const hook = (touched: string) => check(spec(['web/**']), { touches: (p) => p === touched });
    expect(outside(await hook(`global/${B}.yaml`))).toStrictEqual([]);
    expect(outside(await hook(`projects/web/${A}.yaml`))).toHaveLength(1);
    expect(outside(await hook('projects/web/project.yaml'))).toHaveLength(1);
  });
});

describe('validateTree', () => {
  it('reports the source, the entries, the number of files and the ids in use; a file that cannot be read is said as such', async () => {
    const progress: [string, number, number][] = [];
    const report = await validateTree(
      new MemorySource({
        [`global/${A}.yaml`]: inv(A, 'One'),
        [`global/${B}.yaml`]: { fail: { ok: false, code: 'file-unreadable', message: 'cannot be read (EACCES)' } },
        [`plans/${P}/plan.yaml`]: { fail: { ok: false, code: 'missing', message: 'vanished' } },
        [`plans/${P}/decisions/${C}.yaml`]: 'x',
      }),
      { onProgress: (phase, done, total) => progress.push([phase, done, total]) },
    );
    expect({ ...report, usedIds: [...report.usedIds()] }).toStrictEqual({
      source: 'memory',
      entries: [
        {
          path: 'global',
          type: 'dir',
        },
        {
          path: `global/${A}.yaml`,
          type: 'file',
        },
        {
          path: `global/${B}.yaml`,
          type: 'file',
        },
        {
          path: 'plans',
          type: 'dir',
        },
        {
          path: `plans/${P}`,
          type: 'dir',
        },
        {
          path: `plans/${P}/decisions`,
          type: 'dir',
        },
        {
          path: `plans/${P}/decisions/${C}.yaml`,
          type: 'file',
        },
        {
          path: `plans/${P}/plan.yaml`,
          type: 'file',
        },
      ],
      files: 4,
      diagnostics: [
        {
          code: 'file-unreadable',
          severity: 'error',
          file: `global/${B}.yaml`,
          line: 0,
          col: 0,
          message: `global/${B}.yaml cannot be read (EACCES)`,
          hint: 'Check its permissions.',
        },
        {
          code: 'schema',
          severity: 'error',
          file: `plans/${P}/decisions/${C}.yaml`,
          line: 1,
          col: 1,
          message: 'document must be of type object',
          hint: 'Correct the value; decision.schema.json (in schemas/) describes every key.',
          lineText: 'x',
        },
        {
          code: 'plan-missing',
          severity: 'error',
          file: `plans/${P}/plan.yaml`,
          line: 0,
          col: 0,
          message: `plan folder plans/${P}/ has no plan.yaml when it is read`,
          hint: 'Restore plan.yaml, or remove the folder if the plan is gone.',
        },
      ],
      usedIds: [`${A}`, `${B}`, `${C}`, `${P}`],
    });
    // plan.yaml listed and missing when read may be a plan removed meanwhile: the tree is read again, READ_ATTEMPTS times.
    const round = [
      ['read', 1, 4],
      ['read', 2, 4],
      ['read', 3, 4],
      ['read', 4, 4],
      ['check', 1, 2],
      ['check', 2, 2],
    ];
    expect(progress).toStrictEqual(Array.from({ length: READ_ATTEMPTS }, () => round).flat());
  });

  it('from a source that knows blob ids: files the cache knows are not read again, schema copies included', async () => {
    const dir = tempDir();
    const spec: Record<string, Spec> = {
      [`global/${A}.yaml`]: inv(A, 'Never delete data'),
      [`global/${B}.yaml`]: inv(B, 'never delete DATA'),
      [`global/${C}.yaml`]: `id: ${C}\ntext: [\n`,
      // A file the source knows no blob id of: read every time, never cached.
      [`global/${X}.yaml`]: inv(X, 'Use TLS'),
      'schemas/invariant.schema.json': '{}',
    };
    const blobs = {
      [`global/${A}.yaml`]: 'a1',
      [`global/${B}.yaml`]: 'b1',
      [`global/${C}.yaml`]: 'c1',
      'schemas/invariant.schema.json': 's1',
    };
    const first = new MemorySource(spec, blobs);
    const cache = FactsCache.load(join(dir, 'cache'), 'test-build');
    const before = await validateTree(first, { cache });
    cache.save();
    expect(first.reads).toStrictEqual([
      [`global/${A}.yaml`, `global/${B}.yaml`, `global/${C}.yaml`, `global/${X}.yaml`],
      [
        'schemas/invariant.schema.json',
        'schemas/plan.schema.json',
        'schemas/config.schema.json',
        'schemas/action.schema.json',
        'schemas/project.schema.json',
        'schemas/decision.schema.json',
        'schemas/enforcement.schema.json',
        'schemas/violation.schema.json',
        'schemas/waiver.schema.json',
        'schemas/extends-lock.schema.json',
        'schemas/actor-request.schema.json',
        'schemas/actor-response.schema.json',
      ],
      [`global/${A}.yaml`, `global/${B}.yaml`],
    ]);
    const again = FactsCache.load(join(dir, 'cache'), 'test-build');
    const second = new MemorySource(spec, { ...blobs, [`global/${B}.yaml`]: 'b2' });
    const after = await validateTree(second, { cache: again });
    expect(second.reads).toStrictEqual([
      [`global/${B}.yaml`, `global/${X}.yaml`],
      [
        'schemas/plan.schema.json',
        'schemas/config.schema.json',
        'schemas/action.schema.json',
        'schemas/project.schema.json',
        'schemas/decision.schema.json',
        'schemas/enforcement.schema.json',
        'schemas/violation.schema.json',
        'schemas/waiver.schema.json',
        'schemas/extends-lock.schema.json',
        'schemas/actor-request.schema.json',
        'schemas/actor-response.schema.json',
      ],
      [`global/${A}.yaml`, `global/${B}.yaml`],
    ]);
    expect(again.hits).toBe(3);
    expect(after.diagnostics).toStrictEqual(before.diagnostics);
    expect(after.diagnostics.map((d) => `${d.code} ${d.file}:${d.line}:${d.col}`)).toStrictEqual([
      `yaml-syntax global/${C}.yaml:2:7`,
      'schema-outdated schemas/invariant.schema.json:0:0',
      'schema-outdated schemas/plan.schema.json:0:0',
      'schema-outdated schemas/config.schema.json:0:0',
      'schema-outdated schemas/action.schema.json:0:0',
      'schema-outdated schemas/project.schema.json:0:0',
      'schema-outdated schemas/decision.schema.json:0:0',
      'schema-outdated schemas/enforcement.schema.json:0:0',
      'schema-outdated schemas/violation.schema.json:0:0',
      'schema-outdated schemas/waiver.schema.json:0:0',
      'schema-outdated schemas/extends-lock.schema.json:0:0',
      'schema-outdated schemas/actor-request.schema.json:0:0',
      'schema-outdated schemas/actor-response.schema.json:0:0',
      `duplicate-text global/${B}.yaml:3:7`,
    ]);
  });

  it('in the working tree with a cache: a file is read and hashed, and checked only when the cache does not know it', async () => {
    const store = testStore({
      [`global/${A}.yaml`]: inv(A, 'Never delete data'),
      [`global/${B}.yaml`]: inv(B, 'never delete DATA'),
      [`global/${C}.yaml`]: `id: ${C}\ntext: [\n`,
      [`projects/web/${X}.yaml`]: pinv(X, 'Use TLS', 'severity: fatal\n'),
    });
    const file = join(tempDir(), 'cache');
    const cold = FactsCache.load(file, 'test-build');
    const first = await validateTree(new WorkingTreeSource(store), { cache: cold });
    cold.save();
    writeFileSync(join(store, `global/${A}.yaml`), inv(A, 'Never delete  data'));
    const warm = FactsCache.load(file, 'test-build');
    const progress: [string, number, number][] = [];
    const second = await validateTree(new WorkingTreeSource(store), {
      cache: warm,
      onProgress: (phase, done, total) => progress.push([phase, done, total]),
    });
    expect(warm.hits).toBe(3);
    expect(progress).toStrictEqual([
      ['read', 1, 4],
      ['read', 2, 4],
      ['read', 3, 4],
      ['read', 4, 4],
      ['check', 1, 1],
    ]);
    expect(second.diagnostics).toStrictEqual(first.diagnostics);
    expect(second.diagnostics).toStrictEqual([
      {
        code: 'yaml-syntax',
        severity: 'error',
        file: `global/${C}.yaml`,
        line: 2,
        col: 7,
        message: 'Flow sequence in block collection must be sufficiently indented and end with a ] (BAD_INDENT)',
        hint: 'Fix the YAML here: close quotes and brackets, indent with spaces, quote text that holds ": " or starts with a special character.',
        lineText: 'text: [',
      },
      {
        code: 'schema',
        severity: 'error',
        file: `projects/web/${X}.yaml`,
        line: 4,
        col: 11,
        message: 'severity must be one of "error", "warning", "info"',
        hint: 'Correct the value; invariant.schema.json (in schemas/) describes every key.',
        lineText: 'severity: fatal',
      },
      duplicateOfA(B, 'text: never delete DATA'),
    ]);
  });
});

const brief = (ds: Diagnostic[]) => ds.map((d) => `${d.severity} ${d.code} ${d.file}:${d.line}:${d.col} ${d.message}`);

describe('more edges of the whole-store checks', () => {
  it('a folder where a file must be is left to the reader, for every kind of file; other folders are judged by the layout', async () => {
    const found = await check({
      'config.yaml/': null,
      'extends.lock.yaml/': null,
      'global/bad.yaml/': null,
      'projects/web/project.yaml/': null,
      'projects/web/waivers/': null,
      [`projects/web/waivers/${A}.yaml/`]: null,
      'actions/ns/n/action.yaml/': null,
      [`plans/${P}/plan.yaml/`]: null,
      [`plans/${P}/decisions/${B}.yaml/`]: null,
      [`plans/${X}/plan.yaml`]: plan(X),
      [`plans/${X}/decisions/`]: null,
      [`plans/${X}/other/`]: null,
      'schemas/x.yaml/': null,
      'zzz/': null,
      'projects/.x.tmp/': null,
      // A project folder an interrupted `project add` or `import` left beside its place: --fix removes it.
      'projects/.web.4242.0a1b2c3d.tmp/project.yaml': 'paths: [apps/web/**]\n',
    });
    expect(brief(found)).toStrictEqual([
      `warning unknown-path plans/${X}/other:0:0 folder plans/${X}/other/ fits no place in the store layout and is never read`,
      'warning temporary-file projects/.web.4242.0a1b2c3d.tmp:0:0 projects/.web.4242.0a1b2c3d.tmp/ is a project folder left by an interrupted `project add`, `import` or `project remove` (it is renamed into place only when complete, and out of it when removed)',
      'error bad-name projects/.x.tmp:0:0 project ".x.tmp" must start with a lower-case letter or digit and hold only a-z, 0-9, ".", "_" and "-"; files under it are never read',
      'warning unknown-path zzz:0:0 folder zzz/ fits no place in the store layout and is never read',
      'error not-a-file actions/ns/n/action.yaml:0:0 actions/ns/n/action.yaml is a folder, not a file',
      'error not-a-file config.yaml:0:0 config.yaml is a folder, not a file',
      'error not-a-file extends.lock.yaml:0:0 extends.lock.yaml is a folder, not a file',
      // A folder first, whatever its name: renaming it to an id would not make it an invariant.
      'error not-a-file global/bad.yaml:0:0 global/bad.yaml is a folder, not a file',
      `error not-a-file plans/${P}/decisions/${B}.yaml:0:0 plans/${P}/decisions/${B}.yaml is a folder, not a file`,
      `error not-a-file plans/${P}/plan.yaml:0:0 plans/${P}/plan.yaml is a folder, not a file`,
      'error not-a-file projects/web/project.yaml:0:0 projects/web/project.yaml is a folder, not a file',
      `error not-a-file projects/web/waivers/${A}.yaml:0:0 projects/web/waivers/${A}.yaml is a folder, not a file`,
      'warning schema-outdated schemas/invariant.schema.json:0:0 schemas/invariant.schema.json is missing from the store; editors cannot validate invariant files as you type',
      'warning schema-outdated schemas/plan.schema.json:0:0 schemas/plan.schema.json is missing from the store; editors cannot validate plan files as you type',
      'warning schema-outdated schemas/config.schema.json:0:0 schemas/config.schema.json is missing from the store; editors cannot validate config files as you type',
      'warning schema-outdated schemas/action.schema.json:0:0 schemas/action.schema.json is missing from the store; editors cannot validate action files as you type',
      'warning schema-outdated schemas/project.schema.json:0:0 schemas/project.schema.json is missing from the store; editors cannot validate project files as you type',
      'warning schema-outdated schemas/decision.schema.json:0:0 schemas/decision.schema.json is missing from the store; editors cannot validate decision files as you type',
      'warning schema-outdated schemas/enforcement.schema.json:0:0 schemas/enforcement.schema.json is missing from the store; editors cannot validate enforcement files as you type',
      'warning schema-outdated schemas/violation.schema.json:0:0 schemas/violation.schema.json is missing from the store; editors cannot validate violation files as you type',
      'warning schema-outdated schemas/waiver.schema.json:0:0 schemas/waiver.schema.json is missing from the store; editors cannot validate waiver files as you type',
      'warning schema-outdated schemas/extends-lock.schema.json:0:0 schemas/extends-lock.schema.json is missing from the store; editors cannot validate extends-lock files as you type',
      'warning schema-outdated schemas/actor-request.schema.json:0:0 schemas/actor-request.schema.json is missing from the store; editors cannot validate actor-request files as you type',
      'warning schema-outdated schemas/actor-response.schema.json:0:0 schemas/actor-response.schema.json is missing from the store; editors cannot validate actor-response files as you type',
    ]);
  });

  it('a schemas file is no schemas folder; a listing without folders still finds the copies', async () => {
    expect(await check({ schemas: 'x' })).toStrictEqual([]);
    const flat = new MemorySource({ 'schemas/invariant.schema.json': schemaCopy('invariant.schema.json') });
    const list = flat.list.bind(flat);
    flat.list = async () => (await list()).filter((e) => e.type !== 'dir');
    expect(brief((await validateTree(flat)).diagnostics)).toStrictEqual([
      'warning schema-outdated schemas/plan.schema.json:0:0 schemas/plan.schema.json is missing from the store; editors cannot validate plan files as you type',
      'warning schema-outdated schemas/config.schema.json:0:0 schemas/config.schema.json is missing from the store; editors cannot validate config files as you type',
      'warning schema-outdated schemas/action.schema.json:0:0 schemas/action.schema.json is missing from the store; editors cannot validate action files as you type',
      'warning schema-outdated schemas/project.schema.json:0:0 schemas/project.schema.json is missing from the store; editors cannot validate project files as you type',
      'warning schema-outdated schemas/decision.schema.json:0:0 schemas/decision.schema.json is missing from the store; editors cannot validate decision files as you type',
      'warning schema-outdated schemas/enforcement.schema.json:0:0 schemas/enforcement.schema.json is missing from the store; editors cannot validate enforcement files as you type',
      'warning schema-outdated schemas/violation.schema.json:0:0 schemas/violation.schema.json is missing from the store; editors cannot validate violation files as you type',
      'warning schema-outdated schemas/waiver.schema.json:0:0 schemas/waiver.schema.json is missing from the store; editors cannot validate waiver files as you type',
      'warning schema-outdated schemas/extends-lock.schema.json:0:0 schemas/extends-lock.schema.json is missing from the store; editors cannot validate extends-lock files as you type',
      'warning schema-outdated schemas/actor-request.schema.json:0:0 schemas/actor-request.schema.json is missing from the store; editors cannot validate actor-request files as you type',
      'warning schema-outdated schemas/actor-response.schema.json:0:0 schemas/actor-response.schema.json is missing from the store; editors cannot validate actor-response files as you type',
    ]);
  });

  it('ids: a folder of the right length outside plans/ is no plan folder', async () => {
    expect(brief(await check({ [`notes/${Y}/`]: null, [`projects/web/waivers/${C}.yaml`]: waiver(C, Y, '2999-01-01') }))).toStrictEqual([
      'warning unknown-path notes:0:0 folder notes/ fits no place in the store layout and is never read',
      `warning unknown-invariant projects/web/waivers/${C}.yaml:3:15 waiver ${C} names invariant ${Y}, which is not in the store`,
    ]);
  });

  it('overrides name the first file of an id, and only an invariant that parsed', async () => {
    const found = await check({
      [`global/${A}.yaml`]: inv(A, 'Never delete data'),
      [`projects/zz/${A}.yaml`]: pinv(A, 'Use TLS'),
      [`projects/api/${C}.yaml`]: pinv(C, 'Use TLS', `overrides: ${A}\n`),
      [`global/${Y}.yaml`]: inv(Y, 'Broken', 'severity: fatal\n'),
      [`global/${Z}.yaml`]: inv(Z, 'Broken', `overrides: ${Y}\n`),
    });
    expect(brief(found)).toStrictEqual([
      `error schema global/${Y}.yaml:4:11 severity must be one of "error", "warning", "info"`,
      `error id-reused projects/zz/${A}.yaml:0:0 id ${A} is already used by global/${A}.yaml; an id names one thing in the whole store`,
      `error overrides-unknown global/${Z}.yaml:4:12 overrides names ${Y}, which is no invariant in the store`,
      `error overrides-text projects/api/${C}.yaml:4:12 overrides names ${A} (global/${A}.yaml), whose text differs: an override is a copy of the same text`,
    ]);
  });

  it('near-duplicates: texts of punctuation only are compared with nothing; scopes that never meet are not compared', async () => {
    const found = await check({
      [`global/${A}.yaml`]: inv(A, '"!!!"'),
      [`global/${B}.yaml`]: inv(B, '"???"'),
      [`projects/web/${C}.yaml`]: pinv(C, 'Rotate keys yearly'),
      [`projects/api/${X}.yaml`]: pinv(X, 'Rotate keys yearly!'),
    });
    expect(found).toStrictEqual([]);
  });

  it('near-duplicates: a newer file names its older copies in the order of their ids, whatever order the pairs are found in', async () => {
    const id = (n: number) => `01JDQ6X5Z8W4N3B2C1D0E9F8G${n}`;
    const found = await check({
      [`global/${id(1)}.yaml`]: inv(id(1), 'Never delete production data'),
      [`global/${id(2)}.yaml`]: inv(id(2), 'Never delete production dat'),
      [`global/${id(3)}.yaml`]: inv(id(3), 'Never delete production daa'),
    });
    expect(found.map((d) => [d.file, d.related?.map((r) => r.file)])).toStrictEqual([
      [`global/${id(2)}.yaml`, [`global/${id(1)}.yaml`]],
      [`global/${id(3)}.yaml`, [`global/${id(1)}.yaml`, `global/${id(2)}.yaml`]],
    ]);
  });

  it('references: a file where a project or an action folder would be is no project or action', async () => {
    const found = await check({
      'projects/gone': 'x',
      'actions/ns/gone': 'x',
      [`plans/${P}/plan.yaml`]: plan(P, 'action: ns/gone\nproject: gone\n'),
    });
    expect(found.map((d) => `${d.code} ${d.file}`)).toStrictEqual([
      'unknown-path actions/ns/gone',
      'unknown-path projects/gone',
      `unknown-action plans/${P}/plan.yaml`,
      `unknown-project plans/${P}/plan.yaml`,
    ]);
  });

  it('near-duplicates in hook mode: a pair found on the way that makes an untouched file newer is left out', async () => {
    const D = '01JDQ6X5Z8W4N3B2C1D0E9F8GH';
    const found = await check(
      {
        [`global/${A}.yaml`]: inv(A, 'Keep the build green'),
        [`global/${B}.yaml`]: inv(B, 'Keep the build greed'),
        [`global/${D}.yaml`]: inv(D, 'Keep the build freed'),
      },
      { touches: (p) => p === 'global' || p === `global/${A}.yaml` },
    );
    expect(found.map((d) => [d.file, d.related?.map((r) => r.file)])).toStrictEqual([[`global/${B}.yaml`, [`global/${A}.yaml`]]]);
    // Without hook mode, both pairs are reported.
    const all = await check({
      [`global/${A}.yaml`]: inv(A, 'Keep the build green'),
      [`global/${B}.yaml`]: inv(B, 'Keep the build greed'),
      [`global/${D}.yaml`]: inv(D, 'Keep the build freed'),
    });
    expect(all.map((d) => [d.file, d.related?.map((r) => r.file)])).toStrictEqual([
      [`global/${B}.yaml`, [`global/${A}.yaml`]],
      [`global/${D}.yaml`, [`global/${B}.yaml`]],
    ]);
  });

  it('layout: a file where a folder goes, folders that fit no place at any depth, and bad names met without their folder', async () => {
    const found = await check({
      'projects/web': 'x',
      'projects/README.md': 'x',
      [`plans/${X}/plan.yaml`]: plan(X),
      [`plans/${X}/Bad/`]: null,
      'global/.x.tmp/': null,
    });
    // A file of a project's name stands where that project's folder goes (an error, as every reader says it); one of
    // another name can be no project's and is only warned of.
    expect(found.map((d) => `${d.severity} ${d.code} ${d.file}: ${d.message}`)).toStrictEqual([
      'warning unknown-path global/.x.tmp: folder global/.x.tmp/ fits no place in the store layout and is never read',
      `warning unknown-path plans/${X}/Bad: folder plans/${X}/Bad/ fits no place in the store layout and is never read`,
      'warning unknown-path projects/README.md: projects/README.md fits no place in the store layout and is never read',
      'error unknown-path projects/web: projects/web is a file, where the folder of project web goes: none of its invariants, paths or waivers can be read',
    ]);
    // A listing without folders: a file under a badly named folder is reported itself.
    const flat = new MemorySource({ [`projects/Bad Name/${A}.yaml`]: pinv(A, 'One'), [`global/${B}.yaml`]: inv(B, 'Two') });
    const list = flat.list.bind(flat);
    flat.list = async () => (await list()).filter((e) => e.type !== 'dir');
    const report = await validateTree(flat);
    expect(report.diagnostics).toStrictEqual([
      {
        code: 'bad-name',
        severity: 'error',
        file: `projects/Bad Name/${A}.yaml`,
        line: 0,
        col: 0,
        message:
          'project "Bad Name" must start with a lower-case letter or digit and hold only a-z, 0-9, ".", "_" and "-"; files under it are never read',
        hint: 'Rename the folder: names are lower case a-z, 0-9, ".", "_" and "-".',
      },
    ]);
    expect(report.files).toBe(2);
  });

  it('the number of files leaves folders out; a file that cannot be read is said without a progress display too', async () => {
    const report = await validateTree(
      new MemorySource({
        [`global/${A}.yaml`]: inv(A, 'One'),
        [`global/${B}.yaml`]: { fail: { ok: false, code: 'file-unreadable', message: 'cannot be read (EACCES)' } },
        [`global/${C}.yaml`]: inv(C, 'Three'),
      }),
    );
    expect(report.files).toBe(3);
    expect(report.entries.length).toBe(4);
    expect(report.diagnostics.map((d) => `${d.code} ${d.file}`)).toStrictEqual([`file-unreadable global/${B}.yaml`]);
  });

  it('near-duplicates: each text is quoted trimmed', async () => {
    const found = await check({
      [`global/${A}.yaml`]: inv(A, '"  Keep the build green "'),
      [`global/${B}.yaml`]: inv(B, 'Keep the build green!'),
    });
    expect(found.map((d) => d.message)).toStrictEqual([
      `${B} "Keep the build green!" nearly repeats ${A} "Keep the build green" (global/${A}.yaml, the same but for punctuation); both apply`,
    ]);
  });

  it('ids: a plan and an invariant share no id; a file where a plan folder goes is no plan', async () => {
    const found = await check({
      [`global/${P}.yaml`]: inv(P, 'One'),
      [`plans/${P}/plan.yaml`]: plan(P),
      [`plans/${Y}`]: 'x',
      [`projects/web/waivers/${C}.yaml`]: waiver(C, Y, '2999-01-01'),
    });
    expect(found.map((d) => `${d.code} ${d.file}`)).toStrictEqual([
      `unknown-path plans/${Y}`,
      `id-reused plans/${P}/plan.yaml`,
      `unknown-invariant projects/web/waivers/${C}.yaml`,
    ]);
  });

  it('duplicates: each text is a group of its own', async () => {
    const found = await check({
      [`global/${A}.yaml`]: inv(A, 'Never delete data'),
      [`global/${B}.yaml`]: inv(B, 'Use TLS'),
      [`global/${C}.yaml`]: inv(C, 'never delete data'),
      [`global/${X}.yaml`]: inv(X, 'use tls'),
    });
    expect(found.map((d) => `${d.code} ${d.file} ${d.related?.[0]?.file}`)).toStrictEqual([
      `duplicate-text global/${C}.yaml global/${A}.yaml`,
      `duplicate-text global/${X}.yaml global/${B}.yaml`,
    ]);
  });

  it('schema copies: an empty schemas folder among other files, a listing without folders among other files, a copy without a blob id', async () => {
    const missing = (await check({ 'schemas/': null, [`global/${A}.yaml`]: inv(A, 'One') })).map((d) => d.file);
    expect(missing.length).toBe(12);
    const flat = new MemorySource({ 'schemas/invariant.schema.json': '{}', [`global/${A}.yaml`]: inv(A, 'One') });
    const list = flat.list.bind(flat);
    flat.list = async () => (await list()).filter((e) => e.type !== 'dir');
    expect((await validateTree(flat)).diagnostics.map((d) => d.file)).toStrictEqual([
      'schemas/invariant.schema.json',
      ...missing.filter((f) => f !== 'schemas/invariant.schema.json'),
    ]);
    const noBlob = new MemorySource({ 'schemas/invariant.schema.json': '{}' }, {});
    const cache = FactsCache.load(join(tempDir(), 'cache'), 'test-build');
    expect((await validateTree(noBlob, { cache })).diagnostics.map((d) => `${d.file} ${d.message.split(' ')[1]}`)[0]).toBe(
      'schemas/invariant.schema.json differs',
    );
  });

  it('near-duplicates: the newer of a pair is the larger id, whatever the listing order', async () => {
    const found = await check({
      [`global/${X}.yaml`]: inv(X, 'Rotate keys yearly'),
      [`projects/web/${A}.yaml`]: pinv(A, 'Rotate keys yearly!'),
    });
    expect(found.map((d) => [d.file, d.related?.map((r) => r.file)])).toStrictEqual([[`global/${X}.yaml`, [`projects/web/${A}.yaml`]]]);
  });

  it('references: a plan without action or project names none', async () => {
    expect(await check({ [`plans/${Y}/plan.yaml`]: plan(Y) })).toStrictEqual([]);
  });

  it('waivers: one that does not parse is not judged', async () => {
    expect(
      brief(
        await check(
          { [`projects/web/waivers/${B}.yaml`]: `${WML}id: ${B}\ninvariant_id: ${A}\n` },
          { now: new Date('2030-01-01T00:00:00Z') },
        ),
      ),
    ).toStrictEqual(
      // Each missing key is a mistake of its own, though all are placed at the mapping's start.
      ['reason', 'owner', 'expires', 'created_at'].map(
        (k) => `error schema projects/web/waivers/${B}.yaml:2:1 missing required key "${k}"`,
      ),
    );
  });

  it('a misspelt required key written first is said with its guess, beside the key it leaves missing at the same place', async () => {
    const found = brief(
      await check({ [`global/${A}.yaml`]: `${ML}idd: ${A}\ntext: One\n`, [`projects/web/${B}.yaml`]: `${PML}txt: One\nid: ${B}\n` }),
    );
    expect(found).toStrictEqual([
      `error schema global/${A}.yaml:2:1 missing required key "id"`,
      `error schema global/${A}.yaml:2:1 unknown key "idd"`,
      `error schema projects/web/${B}.yaml:2:1 missing required key "text"`,
      `error schema projects/web/${B}.yaml:2:1 unknown key "txt"`,
    ]);
  });

  it('project paths: a glob without a literal folder is tried on every file', async () => {
    const found = await check(
      { 'projects/docs/project.yaml': project(['**/*.md']), 'projects/web/project.yaml': project(['web/**']) },
      { repoFiles: async () => ['README.md', 'web/a.ts', 'web/b.md'] },
    );
    expect(brief(found)).toStrictEqual([
      'error project-paths-overlap projects/web/project.yaml:3:5 paths.0 "web/**" of project web overlaps paths.0 "**/*.md" of project docs (the globs alone show it)',
    ]);
  });

  it('a file gone before its position is read: reported where the check found it, without a position', async () => {
    const spec: Record<string, Spec> = {
      [`global/${A}.yaml`]: inv(A, 'Never delete data'),
      [`global/${B}.yaml`]: inv(B, 'never delete DATA'),
      [`global/${C}.yaml`]: inv(C, 'Never delete data!'),
      [`plans/${P}/plan.yaml`]: plan(P, 'action: ns/gone\n'),
    };
    const source = new MemorySource(spec);
    const read = source.read.bind(source);
    let n = 0;
    // The first read gives every file; later ones find them gone.
    source.read = async (paths) =>
      n++ === 0 ? read(paths) : new Map(paths.map((p) => [p, { ok: false, code: 'missing', message: 'vanished' } as const]));
    expect((await validateTree(source)).diagnostics).toStrictEqual([
      {
        code: 'near-duplicate',
        severity: 'warning',
        file: `global/${C}.yaml`,
        line: 0,
        col: 0,
        message: `${C} "" nearly repeats ${A} "" (global/${A}.yaml, the same but for punctuation) and ${B} "" (global/${B}.yaml, the same but for punctuation); all apply`,
        hint: `Keep one: remove the newer (\`agents invariant remove ${C}\`), or edit a text if they mean different things.`,
        related: [
          {
            file: `global/${A}.yaml`,
            line: 0,
            col: 0,
            message: `the other copy: ${A}`,
          },
          {
            file: `global/${B}.yaml`,
            line: 0,
            col: 0,
            message: `the other copy: ${B}`,
          },
        ],
      },
      {
        code: 'unknown-action',
        severity: 'warning',
        file: `plans/${P}/plan.yaml`,
        line: 0,
        col: 0,
        message: `plan ${P} names action ns/gone, which is not in the store (no actions/ns/gone/)`,
        hint: 'Restore the action template, or correct the name.',
      },
    ]);
  });

  it('progress in the first run of a working tree: read and checked together', async () => {
    const store = testStore({ [`global/${A}.yaml`]: inv(A, 'One'), [`global/${B}.yaml`]: inv(B, 'Two') });
    const progress: [string, number, number][] = [];
    await validateTree(new WorkingTreeSource(store), { onProgress: (phase, done, total) => progress.push([phase, done, total]) });
    expect(progress).toStrictEqual([['check', 2, 2]]);
  });
});
