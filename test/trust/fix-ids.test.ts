// validate --fix gives a hand-written invariant file without an id one (issue 30, H).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isUlid } from '../../src/core/names.ts';
import { withId } from '../../src/validate/fix-ids.ts';
import { runAgents } from '../helpers/main.ts';
import { testStore } from '../helpers/tmp.ts';

const NAMED = '01JDQ6X5Z8W4N3B2C1D0E9F8G1';

describe('validate --fix and a file without an id', () => {
  it('assigns a fresh ULID and renames the file; a file named by a ULID gets that id; validate then passes', async () => {
    const root = testStore({
      'global/my-rule.yaml': '# written by hand\ntext: Hand written rule\n',
      [`projects/web/${NAMED}.yaml`]: 'text: Second one\nseverity: warning\n',
    });
    const before = await runAgents(['--store', root, 'validate', '--format', 'json']);
    expect(before.code).toBe(1);
    const fix = await runAgents(['--store', root, 'validate', '--fix', '--format', 'json']);
    expect(fix.code, fix.stdout).toBe(0);
    const fixes = JSON.parse(fix.stdout).fixes as { file: string; action: string; to?: string; done: boolean }[];
    expect(
      fixes
        .filter((f) => f.action === 'add-id')
        .map((f) => f.file)
        .sort(),
    ).toEqual(['global/my-rule.yaml', `projects/web/${NAMED}.yaml`]);
    const [name] = readdirSync(join(root, 'global'));
    expect(isUlid(name!.slice(0, -5))).toBe(true);
    const text = readFileSync(join(root, 'global', name!), 'utf8');
    expect(text).toBe(`# written by hand\nid: ${name!.slice(0, -5)}\ntext: Hand written rule\n`);
    expect(readFileSync(join(root, `projects/web/${NAMED}.yaml`), 'utf8')).toBe(`id: ${NAMED}\ntext: Second one\nseverity: warning\n`);
    const after = await runAgents(['--store', root, 'validate', '--format', 'json']);
    expect(after.code, after.stdout).toBe(0);
  });

  it('withId keeps the modeline first and the line ends', () => {
    expect(withId('# yaml-language-server: $schema=x\r\ntext: a\r\n', 'ID')).toBe(
      '# yaml-language-server: $schema=x\r\nid: ID\r\ntext: a\r\n',
    );
    expect(withId('---\ntext: a\n', 'ID')).toBe('---\nid: ID\ntext: a\n');
  });
});
