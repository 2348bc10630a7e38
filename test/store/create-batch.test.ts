import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CreateBatch } from '../../src/store/create-batch.ts';
import { tempDir, testStore } from '../helpers/tmp.ts';

/** Every file under `root` with its text, store-relative. */
function files(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else out[relative(root, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(root);
  return out;
}

/** Folders under `root` (store-relative), empty ones included. */
function folders(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      out.push(relative(root, join(dir, e.name)));
      walk(join(dir, e.name));
    }
  };
  walk(root);
  return out.sort();
}

describe('CreateBatch: new files and folders as one change', () => {
  it('puts every file and folder in place on commit, and nothing before', () => {
    const store = testStore({ 'global/OLD.yaml': 'old\n' });
    const batch = new CreateBatch(store);
    batch.file('global/A.yaml', 'a\n');
    batch.folder('projects/web', [
      { name: 'project.yaml', content: 'paths: [apps/web/**]\n' },
      { name: 'B.yaml', content: 'b\n' },
    ]);
    // Staged: only temporaries, which readers skip.
    expect(Object.keys(files(store)).filter((f) => !f.includes('.tmp'))).toEqual(['global/OLD.yaml']);
    batch.commit();
    expect(files(store)).toEqual({
      'global/OLD.yaml': 'old\n',
      'global/A.yaml': 'a\n',
      'projects/web/project.yaml': 'paths: [apps/web/**]\n',
      'projects/web/B.yaml': 'b\n',
    });
    expect(folders(store)).toEqual(['actions', 'global', 'plans', 'projects', 'projects/web']);
  });

  it('puts nothing in place when one file cannot be (its name exists), and keeps that file as it was', () => {
    const store = testStore({ 'global/A.yaml': 'mine\n' });
    const before = files(store);
    const batch = new CreateBatch(store);
    batch.folder('projects/web', [{ name: 'project.yaml', content: 'x\n' }]);
    batch.file('global/Z.yaml', 'z\n');
    batch.file('global/A.yaml', 'theirs\n');
    expect(() => batch.commit()).toThrow(/cannot write global\/A\.yaml: a file of that name already exists/);
    expect(files(store)).toEqual(before);
    expect(folders(store)).toEqual(['actions', 'global', 'plans', 'projects']);
  });

  it('puts nothing in place when a new folder exists by then with files of its own', () => {
    const store = testStore();
    const batch = new CreateBatch(store);
    batch.file('global/A.yaml', 'a\n');
    batch.folder('projects/web', [{ name: 'project.yaml', content: 'x\n' }]);
    // Another writer made the project meanwhile.
    mkdirSync(join(store, 'projects/web'));
    writeFileSync(join(store, 'projects/web/.gitkeep'), '');
    expect(() => batch.commit()).toThrow(/cannot write projects\/web: a folder of that name was made meanwhile/);
    expect(files(store)).toEqual({ 'projects/web/.gitkeep': '' });
  });

  it('discard removes every temporary', () => {
    const store = testStore();
    const batch = new CreateBatch(store);
    batch.file('global/A.yaml', 'a\n');
    batch.folder('projects/web', [{ name: 'project.yaml', content: 'x\n' }]);
    batch.discard();
    expect(files(store)).toEqual({});
    expect(folders(store)).toEqual(['actions', 'global', 'plans', 'projects']);
  });

  it('refuses to write below a folder that is a symbolic link, writing nothing', () => {
    const store = testStore();
    const elsewhere = tempDir();
    symlinkSync(elsewhere, join(store, 'projects/web'));
    const batch = new CreateBatch(store);
    expect(() => batch.file('projects/web/A.yaml', 'a\n')).toThrow(/projects\/web is a symbolic link/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
