import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { authorFromEnvironment, gitAuthor } from '../../src/git/identity.ts';
import { withRunEnvironment } from '../../src/git/run-environment.ts';
import { tempDir } from '../helpers/tmp.ts';

/** What git itself records as the author for these variables (no configuration), or undefined when it refuses. */
function gitVar(name: string, email: string): string | undefined {
  const r = spawnSync('git', ['var', 'GIT_AUTHOR_IDENT'], {
    cwd: tempDir(),
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: name,
      GIT_AUTHOR_EMAIL: email,
    },
  });
  return r.status === 0 ? /^(.*<[^>]*>)/.exec(r.stdout.trim())?.[1] : undefined;
}

describe('the author from the environment', () => {
  it('is exactly what git records, whenever it answers without git', () => {
    const names = ['Jane Doe', 'Zoë Ünal', 'J', 'Jane  Doe', 'Jane.Doe', 'O\u2019Brien', 'a"b', 'Dr. J'];
    const emails = ['jane@example.com', 'j@x', 'first.last+tag@sub.example.org'];
    const answered: string[] = [];
    for (const name of names)
      for (const email of emails) {
        const plain = authorFromEnvironment({ GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email });
        expect(plain, `${name} / ${email}`).toBe(gitVar(name, email));
        answered.push(plain!);
      }
    expect(answered).toHaveLength(names.length * emails.length);
  });

  it('leaves to git every value git would change or refuse', () => {
    for (const [name, email] of [
      [' Jane', 'j@x'],
      ['Jane ', 'j@x'],
      ['Jane.', 'j@x'],
      ["'Jane'", 'j@x'],
      ['Ja<ne', 'j@x'],
      ['Ja\nne', 'j@x'],
      ['Jane', '<j@x>'],
      ['Jane', 'j@x;'],
      ['', 'j@x'],
    ]) {
      expect(authorFromEnvironment({ GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email }), JSON.stringify([name, email])).toBeUndefined();
      // git changes these (strips the ends, drops the brackets) or refuses them: the tool asks git.
      expect(gitVar(name!, email!)).not.toBe(`${name} <${email}>`);
    }
    // An empty e-mail (git records `Jane <>`) and a missing variable are left to git too.
    expect(authorFromEnvironment({ GIT_AUTHOR_NAME: 'Jane', GIT_AUTHOR_EMAIL: '' })).toBeUndefined();
    expect(authorFromEnvironment({ GIT_AUTHOR_NAME: 'Jane' })).toBeUndefined();
    expect(authorFromEnvironment({ GIT_AUTHOR_EMAIL: 'j@x' })).toBeUndefined();
  });

  it("gitAuthor reads the run's environment, and asks git (configuration included) when it does not name the author", async () => {
    const dir = tempDir();
    const base = { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
    const run = (env: Record<string, string | undefined>) =>
      withRunEnvironment({ env: { ...base, ...env }, cwd: dir }, () => gitAuthor(dir));
    expect(await run({ GIT_AUTHOR_NAME: 'Jane Doe', GIT_AUTHOR_EMAIL: 'jane@example.com' })).toBe('Jane Doe <jane@example.com>');
    expect(await run({ GIT_AUTHOR_NAME: ' Jane Doe. ', GIT_AUTHOR_EMAIL: '<jane@example.com>' })).toBe('Jane Doe <jane@example.com>');
    expect(await run({ GIT_AUTHOR_NAME: 'Jane Doe' })).toBeUndefined(); // no e-mail anywhere: git refuses
    spawnSync('git', ['init', '-q'], { cwd: dir });
    spawnSync('git', ['config', 'user.name', 'Config Name'], { cwd: dir });
    spawnSync('git', ['config', 'user.email', 'c@x'], { cwd: dir });
    expect(await run({})).toBe('Config Name <c@x>');
    expect(await run({ GIT_AUTHOR_NAME: 'Jane Doe' })).toBe('Jane Doe <c@x>');
  });
});
