// validate --fix gives a hand-written invariant file without an id one (issue 30, H).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isUlid } from '../../src/core/names.ts';
import { withId } from '../../src/validate/fix-ids.ts';
import { runAgents } from '../helpers/main.ts';
import { testStore } from '../helpers/tmp.ts';

const NAMED = '01JDQ6X5Z8W4N3B2C1D0E9F8G1';
const ML = '# yaml-language-server: $schema=../schemas/invariant.schema.json';

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
    // The modeline it lacked comes with the same write: one run fixes the file whole.
    expect(text).toBe(`${ML}\n# written by hand\nid: ${name!.slice(0, -5)}\ntext: Hand written rule\n`);
    expect(readFileSync(join(root, `projects/web/${NAMED}.yaml`), 'utf8')).toBe(
      `${ML.replace('../', '../../')}\nid: ${NAMED}\ntext: Second one\nseverity: warning\n`,
    );
    expect(fixes.filter((f) => f.action === 'add-modeline').map((f) => f.file)).toEqual([`global/${name}`, `projects/web/${NAMED}.yaml`]);
    expect(JSON.parse(fix.stdout).diagnostics).toEqual([]);
    const after = await runAgents(['--store', root, 'validate', '--format', 'json']);
    expect(after.code, after.stdout).toBe(0);
  });

  it('puts the id inside a flow mapping, after directives and at an indented mapping, so every file still parses', async () => {
    const root = testStore({
      'global/flow.yaml': '{text: Flow mapping rule, severity: info}\n',
      'global/directive.yaml': '%YAML 1.2\n---\ntext: Directive rule\n',
      'global/indented.yaml': '# c\n\n  text: Indented rule\n  severity: info\n',
    });
    const fix = await runAgents(['--store', root, 'validate', '--fix', '--format', 'json']);
    expect(fix.code, fix.stdout).toBe(0);
    const out = JSON.parse(fix.stdout) as { diagnostics: { code: string }[]; fixes: { action: string; done: boolean }[] };
    expect(out.fixes.filter((f) => f.action === 'add-id').map((f) => f.done)).toEqual([true, true, true]);
    expect(out.diagnostics).toEqual([]);
    const texts = readdirSync(join(root, 'global'))
      .filter((n) => n.endsWith('.yaml'))
      .map((n) => readFileSync(join(root, 'global', n), 'utf8').replace(/01[0-9A-Z]{24}/, 'ID'))
      .sort();
    expect(texts).toEqual([
      `${ML}\n# c\n\n  id: ID\n  text: Indented rule\n  severity: info\n`,
      `${ML}\n%YAML 1.2\n---\nid: ID\ntext: Directive rule\n`,
      `${ML}\n{id: ID, text: Flow mapping rule, severity: info}\n`,
    ]);
  });

  it('leaves a file it cannot add the id to safely as it was, and says so (done: false)', async () => {
    const odd = '? text\n: Explicit key rule\n';
    const root = testStore({ 'global/odd.yaml': odd });
    const fix = await runAgents(['--store', root, 'validate', '--fix', '--format', 'json']);
    expect(fix.code).toBe(1);
    const out = JSON.parse(fix.stdout) as { fixes: { action: string; file: string; done: boolean }[] };
    expect(out.fixes.map((f) => [f.action, f.file, f.done])).toEqual([['add-id', 'global/odd.yaml', false]]);
    expect(readdirSync(join(root, 'global')).filter((n) => n.endsWith('.yaml'))).toEqual(['odd.yaml']);
    expect(readFileSync(join(root, 'global/odd.yaml'), 'utf8')).toBe(odd);
  });

  it('gives a file named by an id another file already has a fresh id, not the clashing one', async () => {
    const GLOBAL = `# yaml-language-server: $schema=../schemas/invariant.schema.json\nid: ${NAMED}\ntext: Never delete production data\n`;
    const root = testStore({
      [`global/${NAMED}.yaml`]: GLOBAL,
      [`projects/web/${NAMED}.yaml`]: 'text: Web copy without id\n',
    });
    const fix = await runAgents(['--store', root, 'validate', '--fix', '--format', 'json']);
    expect(fix.code, fix.stdout).toBe(0);
    const out = JSON.parse(fix.stdout) as { diagnostics: { code: string }[]; fixes: { action: string; to?: string; done: boolean }[] };
    const [added] = out.fixes.filter((f) => f.action === 'add-id');
    expect(added?.done).toBe(true);
    const [name] = readdirSync(join(root, 'projects/web')).filter((n) => n.endsWith('.yaml'));
    const id = name!.slice(0, -5);
    expect(isUlid(id) && id !== NAMED).toBe(true);
    expect(added?.to).toBe(`projects/web/${name}`);
    expect(readFileSync(join(root, 'projects/web', name!), 'utf8')).toBe(
      `${ML.replace('../', '../../')}\nid: ${id}\ntext: Web copy without id\n`,
    );
    expect(readFileSync(join(root, `global/${NAMED}.yaml`), 'utf8')).toBe(GLOBAL);
    expect(out.diagnostics).toEqual([]);
  });

  it('withId keeps the modeline first and the line ends', () => {
    expect(withId('# yaml-language-server: $schema=x\r\ntext: a\r\n', 'ID')).toBe(
      '# yaml-language-server: $schema=x\r\nid: ID\r\ntext: a\r\n',
    );
    expect(withId('---\ntext: a\n', 'ID')).toBe('---\nid: ID\ntext: a\n');
    expect(withId('\uFEFFtext: a\n', 'ID')).toBe('\uFEFFid: ID\ntext: a\n');
    expect(withId('? text\n: a\n', 'ID')).toBeUndefined();
  });

  it('withId leaves no trailing space in a flow mapping whose { ends its line', () => {
    expect(withId('{\n  text: a\n}\n', 'ID')).toBe('{id: ID,\n  text: a\n}\n');
    expect(withId('{\r\n  text: a\r\n}\r\n', 'ID')).toBe('{id: ID,\r\n  text: a\r\n}\r\n');
    expect(withId('{ text: a }\n', 'ID')).toBe('{id: ID, text: a }\n');
    expect(withId('{text: a}\n', 'ID')).toBe('{id: ID, text: a}\n');
  });
});
