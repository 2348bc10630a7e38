import { describe, expect, test } from 'vitest';
import {
  badId,
  classifyPath,
  isKnownFolder,
  isLockName,
  isLockOf,
  isTemporaryName,
  lockFolderOf,
  pathClassifier,
  schemaRef,
  type PathKind,
} from '../../src/core/layout.ts';

const ID = '01M8KJT9G0XNWEM589ZS7FV0VT';
const PLAN_A = '01M8KK5920RS6CGAVDFVYYJ0B4';
const PLAN_B = '01M8KK7W00HBN1G5Q8TJ4Z2VXC';

describe('classifyPath', () => {
  // [path, expected kind]
  const cases: [string, PathKind][] = [
    ['config.yaml', { kind: 'config' }],
    ['sub/config.yaml', { kind: 'unknown' }],
    ['config.yaml/x', { kind: 'unknown' }],
    ['extends.lock.yaml', { kind: 'extends-lock' }],
    ['sub/extends.lock.yaml', { kind: 'unknown' }],
    ['extends.lock.yaml/x', { kind: 'unknown' }],
    [`projects/myapp/waivers/sub/${ID}.yaml`, { kind: 'unknown' }],
    [`plans/${PLAN_A}/waivers/sub/${ID}.yaml`, { kind: 'unknown' }],
    [`plans/${PLAN_A}/decisions/sub/${ID}.yaml`, { kind: 'unknown' }],
    ['schemas/invariant.schema.json', { kind: 'schema' }],
    ['actors/alice.yaml', { kind: 'actor' }],
    [`global/${ID}.yaml`, { kind: 'invariant', scope: { kind: 'global' }, id: ID }],
    [`global/sub/${ID}.yaml`, { kind: 'unknown' }],
    ['global', { kind: 'unknown' }],
    ['global/notes.txt', { kind: 'unknown' }],
    // Hidden files are never the store's: macOS metadata (beside a file on a volume without extended attributes), an editor's swap file.
    [`global/._${ID}.yaml`, { kind: 'unknown' }],
    ['global/.DS_Store', { kind: 'unknown' }],
    [`projects/myapp/.${ID}.yaml.swp`, { kind: 'unknown' }],
    [`plans/${PLAN_A}/decisions/._${ID}.yaml`, { kind: 'unknown' }],
    [`projects/myapp/waivers/._${ID}.yaml`, { kind: 'unknown' }],
    [`projects/myapp/${ID}.yaml`, { kind: 'invariant', scope: { kind: 'project', project: 'myapp' }, id: ID }],
    ['projects/myapp/project.yaml', { kind: 'project-meta', project: 'myapp' }],
    [`projects/myapp/sub/${ID}.yaml`, { kind: 'unknown' }],
    [`projects/${ID}.yaml`, { kind: 'unknown' }],
    [`projects/myapp/waivers/${ID}.yaml`, { kind: 'waiver', scope: { kind: 'project', project: 'myapp' }, id: ID }],
    ['projects/myapp/waivers/readme.md', { kind: 'unknown' }],
    [
      `projects/MyApp/waivers/${ID}.yaml`,
      {
        kind: 'bad-name',
        problem: 'project "MyApp" must start with a lower-case letter or digit and hold only a-z, 0-9, ".", "_" and "-"',
      },
    ],
    [
      `projects/MyApp/${ID}.yaml`,
      {
        kind: 'bad-name',
        problem: 'project "MyApp" must start with a lower-case letter or digit and hold only a-z, 0-9, ".", "_" and "-"',
      },
    ],
    [`actions/local/deploy/${ID}.yaml`, { kind: 'invariant', scope: { kind: 'action', ns: 'local', name: 'deploy' }, id: ID }],
    ['actions/local/deploy/action.yaml', { kind: 'action-meta', ns: 'local', name: 'deploy' }],
    [`actions/local/${ID}.yaml`, { kind: 'unknown' }],
    [`actions/local/deploy/x/${ID}.yaml`, { kind: 'unknown' }],
    [
      `actions/Local/deploy/${ID}.yaml`,
      {
        kind: 'bad-name',
        problem: 'action namespace "Local" must start with a lower-case letter or digit and hold only a-z, 0-9, ".", "_" and "-"',
      },
    ],
    [
      `actions/local/Deploy/${ID}.yaml`,
      {
        kind: 'bad-name',
        problem: 'action name "Deploy" must start with a lower-case letter or digit and hold only a-z, 0-9, ".", "_" and "-"',
      },
    ],
    [`plans/${PLAN_A}/plan.yaml`, { kind: 'plan', plan: PLAN_A }],
    [`plans/${PLAN_A}/${ID}.yaml`, { kind: 'invariant', scope: { kind: 'plan', plan: PLAN_A }, id: ID }],
    [`plans/${PLAN_A}`, { kind: 'unknown' }],
    [`plans/${PLAN_A}/waivers/${ID}.yaml`, { kind: 'waiver', scope: { kind: 'plan', plan: PLAN_A }, id: ID }],
    [`plans/${PLAN_A}/decisions/${ID}.yaml`, { kind: 'record', plan: PLAN_A, record: 'decisions', id: ID }],
    [`plans/${PLAN_A}/enforcement/${ID}.yaml`, { kind: 'record', plan: PLAN_A, record: 'enforcement', id: ID }],
    [`plans/${PLAN_A}/violations/${ID}.yaml`, { kind: 'record', plan: PLAN_A, record: 'violations', id: ID }],
    [`plans/${PLAN_A}/violations/notes.txt`, { kind: 'unknown' }],
    [`plans/${PLAN_A}/other/${ID}.yaml`, { kind: 'unknown' }],
    [`plans/${PLAN_A}/decisions/x/${ID}.yaml`, { kind: 'unknown' }],
    [
      `plans/${PLAN_A}/decisions/nope.yaml`,
      {
        kind: 'bad-id',
        of: 'record',
        problem: 'record file name "nope" is not a ULID (26 characters of Crockford base32, e.g. 01JDQ6X5Z8W4N3B2C1D0E9F8G7)',
      },
    ],
    [
      `plans/${PLAN_A}/waivers/nope.yaml`,
      {
        kind: 'bad-id',
        of: 'waiver',
        problem: 'waiver file name "nope" is not a ULID (26 characters of Crockford base32, e.g. 01JDQ6X5Z8W4N3B2C1D0E9F8G7)',
      },
    ],
    [
      'plans/not-a-ulid/plan.yaml',
      {
        kind: 'bad-name',
        problem: 'plan id "not-a-ulid" is not a ULID (26 characters of Crockford base32, e.g. 01JDQ6X5Z8W4N3B2C1D0E9F8G7)',
      },
    ],
    [
      'global/nope.yaml',
      {
        kind: 'bad-id',
        of: 'invariant',
        scope: { kind: 'global' },
        problem: 'invariant file name "nope" is not a ULID (26 characters of Crockford base32, e.g. 01JDQ6X5Z8W4N3B2C1D0E9F8G7)',
      },
    ],
    [
      `global/${ID.toLowerCase()}.yaml`,
      {
        kind: 'bad-id',
        of: 'invariant',
        scope: { kind: 'global' },
        problem: `invariant file name "${ID.toLowerCase()}" must be upper case`,
      },
    ],
    [`global/${ID}.yml`, { kind: 'unknown' }],
    ['.lock', { kind: 'lock' }],
    ['.lock.break', { kind: 'lock' }],
    ['global/.gitkeep', { kind: 'keep' }],
    // The store's .gitattributes (agents init writes it): git's file, never read.
    ['.gitattributes', { kind: 'keep' }],
    [`global/.${ID}.yaml.4194000.1a2b3c4d.tmp`, { kind: 'temporary' }],
    [`global/.${ID}.yaml.tmp`, { kind: 'unknown' }],
    ['global/.rule.tmp', { kind: 'unknown' }],
    [`global/${ID}.tmp`, { kind: 'unknown' }],
    ['global/.hidden', { kind: 'unknown' }],
    ['README.md', { kind: 'unknown' }],
  ];
  test.each(cases)('%s', (path, expected) => {
    expect(classifyPath(path)).toEqual(expected);
    // A classifier for many paths answers the same for a path on its own.
    expect(pathClassifier()(path)).toEqual(expected);
  });
});

describe('pathClassifier: paths of several folders in a row', () => {
  test('a plan B file never gets plan A scope, nor a project beta file project alpha scope', () => {
    const classify = pathClassifier();
    const paths = [
      `plans/${PLAN_A}/${ID}.yaml`,
      `plans/${PLAN_B}/${ID}.yaml`,
      `plans/${PLAN_A}/${ID}.yaml`,
      `projects/alpha/${ID}.yaml`,
      `projects/beta/${ID}.yaml`,
      'projects/beta/project.yaml',
      `projects/alpha/${ID}.yaml`,
      `plans/${PLAN_B}/${ID}.yaml`,
    ];
    expect(paths.map(classify)).toEqual([
      { kind: 'invariant', scope: { kind: 'plan', plan: PLAN_A }, id: ID },
      { kind: 'invariant', scope: { kind: 'plan', plan: PLAN_B }, id: ID },
      { kind: 'invariant', scope: { kind: 'plan', plan: PLAN_A }, id: ID },
      { kind: 'invariant', scope: { kind: 'project', project: 'alpha' }, id: ID },
      { kind: 'invariant', scope: { kind: 'project', project: 'beta' }, id: ID },
      { kind: 'project-meta', project: 'beta' },
      { kind: 'invariant', scope: { kind: 'project', project: 'alpha' }, id: ID },
      { kind: 'invariant', scope: { kind: 'plan', plan: PLAN_B }, id: ID },
    ]);
  });

  test('the files of one folder share one scope object', () => {
    const classify = pathClassifier();
    const a = classify(`projects/alpha/${ID}.yaml`) as { scope: object };
    const b = classify('projects/alpha/01M8KJXYP0GVPRF8KRRE9G8474.yaml') as { scope: object };
    expect(b.scope).toBe(a.scope);
  });

  test('a bad folder name stays bad however often it is seen, after a good one', () => {
    const classify = pathClassifier();
    classify(`projects/alpha/${ID}.yaml`);
    classify(`plans/${PLAN_A}/${ID}.yaml`);
    expect(classify(`projects/Bad/${ID}.yaml`).kind).toBe('bad-name');
    expect(classify(`projects/Bad/${ID}.yaml`).kind).toBe('bad-name');
    expect(classify('projects/Bad/project.yaml').kind).toBe('bad-name');
    expect(classify(`plans/nope/${ID}.yaml`).kind).toBe('bad-name');
    expect(classify(`plans/nope/${ID}.yaml`).kind).toBe('bad-name');
  });

  test('classifiers do not share memory: each answers as if alone', () => {
    const one = pathClassifier();
    one(`plans/${PLAN_A}/${ID}.yaml`);
    expect(pathClassifier()(`plans/${PLAN_B}/${ID}.yaml`)).toEqual({ kind: 'invariant', scope: { kind: 'plan', plan: PLAN_B }, id: ID });
    expect(classifyPath(`projects/beta/${ID}.yaml`)).toEqual({ kind: 'invariant', scope: { kind: 'project', project: 'beta' }, id: ID });
  });
});

describe('isTemporaryName', () => {
  test.each([
    [`.${ID}.yaml.4194000.1a2b3c4d.tmp`, true],
    ['..lock.12.0a.tmp', true],
    [`.${ID}.yaml.tmp`, false],
    ['.x.tmp', false],
    ['.draft.tmp', false],
    ['.x.12.notHex.tmp', false],
    [`${ID}.tmp`, false],
    ['notes.tmp', false],
    ['.hidden', false],
    ['.gitkeep', false],
    ['.tmpfile', false],
  ])('%j: %s', (name, temporary) => {
    expect(isTemporaryName(name)).toBe(temporary);
  });
});

describe("isLockName, isLockOf: the locking's own files, which a writer emptying or removing a folder passes over", () => {
  test.each([
    ['.lock', true],
    ['..lock.12.0a.tmp', true],
    ['..lock.0a0a0a0a-0b0b0b0b-77.12.0a.tmp', true],
    ['.lock.break', false],
    [`.${ID}.yaml.12.0a.tmp`, false],
    ['lock', false],
    ['.lock.yaml', false],
    ['extends.lock.yaml', false],
    [`${ID}.yaml`, false],
  ])('%j: %s', (name, lock) => {
    expect(isLockName(name)).toBe(lock);
  });

  test.each([
    ['projects/web', 'projects/web/.lock', true],
    ['projects/web', 'projects/web/..lock.12.0a.tmp', true],
    ['projects/web', 'projects/web/waivers/.lock', false],
    ['projects/web', 'projects/web/sub/..lock.12.0a.tmp', false],
    ['projects/web', 'projects/webby/.lock', false],
    ['projects/web', 'projects/.lock', false],
    ['projects/web', `projects/web/${ID}.yaml`, false],
    ['global', 'global/.lock', true],
  ])('%s holds %s as its lock: %s', (folder, path, lock) => {
    expect(isLockOf(folder, path)).toBe(lock);
  });
});

describe('isKnownFolder', () => {
  test.each([
    ['schemas', true],
    ['actors', true],
    // Everything under actors/ is the actor protocol's (docs/store-format.md).
    ['actors/requests', true],
    ['global', true],
    ['global/sub', false],
    ['projects', true],
    ['projects/myapp', true],
    ['projects/MyApp', false],
    ['projects/myapp/waivers', true],
    ['projects/MyApp/waivers', false],
    ['projects/myapp/other', false],
    ['projects/myapp/waivers/x', false],
    ['actions', true],
    ['actions/local', true],
    ['actions/local/deploy', true],
    ['actions/Local', false],
    ['actions/local/Deploy', false],
    ['actions/local/deploy/x', false],
    ['plans', true],
    [`plans/${PLAN_A}`, true],
    ['plans/nope', false],
    [`plans/${PLAN_A}/decisions`, true],
    [`plans/${PLAN_A}/enforcement`, true],
    [`plans/${PLAN_A}/violations`, true],
    [`plans/${PLAN_A}/waivers`, true],
    [`plans/${PLAN_A}/other`, false],
    [`plans/${PLAN_A}/decisions/x`, false],
    ['other', false],
  ])('%j: %s', (rel, known) => {
    expect(isKnownFolder(rel)).toBe(known);
  });
});

describe('schemaRef', () => {
  test('climbs one folder per level of the path', () => {
    expect(schemaRef('config.yaml', 'config.schema.json')).toBe('schemas/config.schema.json');
    expect(schemaRef(`projects/myapp/${ID}.yaml`, 'invariant.schema.json')).toBe('../../schemas/invariant.schema.json');
  });
});

describe('pathClassifier: plan folders', () => {
  test('the files of one plan folder share one scope object, a file of another plan gets its own', () => {
    const classify = pathClassifier();
    const a = classify(`plans/${PLAN_A}/${ID}.yaml`) as { scope: object };
    const b = classify(`plans/${PLAN_A}/01M8KJXYP0GVPRF8KRRE9G8474.yaml`) as { scope: object };
    const c = classify(`plans/${PLAN_B}/${ID}.yaml`) as { scope: object };
    expect(b.scope).toBe(a.scope);
    expect(c.scope).not.toBe(a.scope);
    expect(c.scope).toEqual({ kind: 'plan', plan: PLAN_B });
  });
});

describe('lockFolderOf: the lock a rewrite of a file takes', () => {
  const U = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
  test.each([
    [`global/${U}.yaml`, 'global'],
    [`projects/web/${U}.yaml`, 'projects/web'],
    ['projects/web/project.yaml', 'projects/web'],
    [`projects/web/waivers/${U}.yaml`, 'projects/web/waivers'],
    [`actions/local/cov/${U}.yaml`, 'actions/local/cov'],
    [`plans/${U}/plan.yaml`, `plans/${U}`],
    [`plans/${U}/violations/${U}.yaml`, `plans/${U}`],
    [`plans/${U}/decisions/${U}.yaml`, `plans/${U}`],
    [`plans/${U}/waivers/${U}.yaml`, `plans/${U}/waivers`],
    ['config.yaml', undefined],
    ['extends.lock.yaml', undefined],
    ['schemas/invariant.schema.json', undefined],
  ])('%s → %s', (rel, folder) => {
    expect(lockFolderOf(rel)).toBe(folder);
  });
});

describe('badId: a file named by an id in the wrong case', () => {
  // The id a hand-renamed (or case-folded) file stands for is named, so the rename is one step, not a guess.
  test.each([
    [`actions/deploy/prod/${ID.toLowerCase()}.yaml`, `actions/deploy/prod/${ID}.yaml`],
    [`projects/web/${ID.slice(0, 10)}${ID.slice(10).toLowerCase()}.yaml`, `projects/web/${ID}.yaml`],
    [`plans/${PLAN_A}/violations/${ID.toLowerCase()}.yaml`, `plans/${PLAN_A}/violations/${ID}.yaml`],
    [`projects/web/waivers/${ID.toLowerCase()}.yaml`, `projects/web/waivers/${ID}.yaml`],
  ])('%s names %s', (path, meant) => {
    const d = badId(path, classifyPath(path) as Extract<PathKind, { kind: 'bad-id' }>);
    expect([d.code, d.hint?.includes(meant)]).toEqual(['id-invalid', true]);
  });

  test('a name that is no id in any case names none', () => {
    const d = badId(
      'actions/deploy/prod/INV-no-friday.yaml',
      classifyPath('actions/deploy/prod/INV-no-friday.yaml') as Extract<PathKind, { kind: 'bad-id' }>,
    );
    expect([d.code, d.hint?.includes('<its id>.yaml')]).toEqual(['id-invalid', true]);
  });
});
