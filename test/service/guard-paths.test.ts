import { userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withRunEnvironment } from '../../src/git/run-environment.ts';
import { homeSpelled } from '../../src/service/guard-paths.ts';

describe('homeSpelled: a path named from a home folder, as a shell reads it', () => {
  it("reads ~ as the agent's home folder, ~user as that user's from the system, and nothing else", () => {
    const me = userInfo();
    expect(withRunEnvironment({ env: { HOME: '/home/agent' }, cwd: '/' }, () => homeSpelled('~/x'))).toBe('/home/agent/x');
    expect(homeSpelled(`~${me.username}/repo/x`)).toBe(join(me.homedir, 'repo/x'));
    expect(homeSpelled(`~${me.username}`)).toBe(me.homedir);
    // A name the system does not list, and the shell's folder stack (~+, ~-, ~1), are not known from the text.
    for (const path of ['~no-such-user-0x7f/x', '~+/x', '~-', '~1/x', 'x/~/y', 'a~b']) expect(homeSpelled(path), path).toBeUndefined();
  });
});
