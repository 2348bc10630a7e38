// `invariant show` goes on while other files of the store are invalid (a removal's confirmation shows the invariant
// then), but never as if its relations were whole: the CLI text warns on stderr, its JSON and the MCP show_invariant
// give `incomplete`, naming the files not read, since a copy it shadows or a plan targeting it may be there; so does
// `invariant remove` of what comes back into effect. The command `incomplete` names validates the store asked: a run
// given --store names it, so that, pasted in the same folder, it does not validate another store or none.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellPath } from '../../src/core/shell-word.ts';
import { InvariantService } from '../../src/index.ts';
import { newToolContext, TOOLS } from '../../src/mcp/tools.ts';
import { runAgents } from '../helpers/main.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

const PROJECT = '01M8KJT9G0XNWEM589ZS7FV0VT';
const GLOBAL = '01M8KJT9G0XNWEM589ZS7FV0VV';
const OTHER = '01M8KJT9G0XNWEM589ZS7FV0VW';
const SHOW = TOOLS.find((t) => t.name === 'show_invariant')!;

describe('invariant show with invalid files in the store', () => {
  it('says, in text, JSON and MCP alike, that a shadowed copy may be missing as a file was not read', async () => {
    const store = testStore({
      [`projects/web/${PROJECT}.yaml`]: invariantYaml(PROJECT, 'Never log secrets', { severity: 'error' }),
      [`global/${GLOBAL}.yaml`]: invariantYaml(GLOBAL, 'Never log secrets', { severity: 'error' }),
      [`global/${OTHER}.yaml`]: invariantYaml(OTHER, 'Other rule', { severity: 'error' }),
    });
    const show = (format: string) => runAgents(['--store', store, '--format', format, 'invariant', 'show', PROJECT]);

    const r = await show('json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ shadows: [{ id: GLOBAL }], incomplete: null });
    expect(r.stderr).toBe('');
    // The copy it shadows is the invalid file: it drops out of the relations.
    writeFileSync(join(store, `global/${GLOBAL}.yaml`), invariantYaml(GLOBAL, 'Never log secrets', { severty: 'x' }));
    const incomplete = { problems: 1, files: [`global/${GLOBAL}.yaml`], command: `agents --store ${shellPath(store)} validate` };
    const json = await show('json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: PROJECT, shadows: [], incomplete });
    expect(json.stderr).toContain(`global/${GLOBAL}.yaml`);
    const text = await show('text');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(PROJECT);
    expect(text.stderr).toContain(`global/${GLOBAL}.yaml`);
    expect(text.stderr).toContain(`\`${incomplete.command}\``);
    // The MCP server names the command its `agents mcp` run was started with; a context made without one, bare agents.
    const mcp = await SHOW.run(
      { id: PROJECT },
      newToolContext(new InvariantService(store), {}, incomplete.command.replace(/ validate$/, '')),
    );
    expect((mcp.data as Record<string, unknown>).incomplete).toEqual(incomplete);
    expect(mcp.text).toContain(`\`${incomplete.command}\``);
    const bare = await SHOW.run({ id: PROJECT }, newToolContext(new InvariantService(store)));
    expect((bare.data as Record<string, unknown>).incomplete).toEqual({ ...incomplete, command: 'agents validate' });
    // A removal goes through, and says that what comes back into effect may be short, as show does.
    const removed = await runAgents(['--store', store, '--format', 'json', 'invariant', 'remove', PROJECT, '--yes']);
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({ removed: PROJECT, back_in_effect: [], incomplete });
    expect(removed.stderr).toContain(`global/${GLOBAL}.yaml`);
  });
});

describe('invariant add, edit and move with invalid files or a policy source left unread', () => {
  it('say in JSON (incomplete) and on stderr that what the written copy meets is of the files read', async () => {
    const store = testStore({
      [`projects/web/${PROJECT}.yaml`]: invariantYaml(PROJECT, 'Never log secrets', { severity: 'error' }),
      // The copy the new one would shadow is the invalid file: an answer of nothing met is not known.
      [`global/${GLOBAL}.yaml`]: invariantYaml(GLOBAL, 'Keep logs', { severty: 'x' }),
    });
    const run = (...args: string[]) => runAgents(['--store', store, '--format', 'json', 'invariant', ...args]);
    const incomplete = { problems: 1, files: [`global/${GLOBAL}.yaml`], command: `agents --store ${shellPath(store)} validate` };

    const added = await run('add', '--project', 'web', 'Keep logs');
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ text: 'Keep logs', shadows: [], incomplete });
    expect(added.stderr).toContain(`global/${GLOBAL}.yaml`);
    const edited = await run('edit', PROJECT, '--severity', 'warning');
    expect(edited.code).toBe(0);
    expect(JSON.parse(edited.stdout)).toMatchObject({ changed: ['severity'], incomplete });
    expect(edited.stderr).toContain(`global/${GLOBAL}.yaml`);
    const moved = await run('move', PROJECT, '--project', 'api', '--new-project');
    expect(moved.code).toBe(0);
    expect(JSON.parse(moved.stdout)).toMatchObject({ project: 'api', incomplete });
    expect(moved.stderr).toContain(`global/${GLOBAL}.yaml`);
    expect(moved.stderr).toContain(`\`${incomplete.command}\``);

    // Every file valid again, but a policy source not pinned: its invariants were not read, and the command that reads them is said.
    writeFileSync(join(store, `global/${GLOBAL}.yaml`), invariantYaml(GLOBAL, 'Keep logs', { severity: 'error' }));
    writeFileSync(join(store, 'config.yaml'), 'extends:\n  - url: https://git.example.com/acme/acme-policy.git\n    ref: v3\n');
    const text = await runAgents(['--store', store, 'invariant', 'add', '--project', 'api', 'Keep traces']);
    expect(text.code).toBe(0);
    expect(text.stderr).toContain('agents extends update');
    const json = await run('add', '--project', 'api', 'Keep metrics');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).incomplete).toBeNull();
    expect(json.stderr).toContain('agents extends update');
  });
});

describe('show, remove, edit and move of an id the store does not hold, a policy source not pinned', () => {
  it("are each refused with the source's code (extends-not-pinned), naming the update that reads it, not as an unknown id; the store untouched", async () => {
    const store = testStore({
      [`projects/web/${PROJECT}.yaml`]: invariantYaml(PROJECT, 'Never log secrets', { severity: 'error' }),
      'config.yaml': 'extends:\n  - url: https://git.example.com/acme/acme-policy.git\n    ref: v3\n',
    });
    const run = (...args: string[]) => runAgents(['--store', store, '--format', 'json', 'invariant', ...args]);
    // A prefix as the export prints inherited ids, and a whole id: the source's, for all the store can tell.
    const inherited = '01JDQ6X5Z8W4N3B2C1D0E9F8G1';
    for (const id of [inherited.slice(0, 10), inherited])
      for (const args of [
        ['show', id],
        ['remove', id, '--yes'],
        ['edit', id, '--severity', 'info'],
        ['move', id, '--project', 'web'],
      ]) {
        const r = await run(...args);
        const error = JSON.parse(r.stdout).error;
        expect([r.code, error.code, error.detail], args.join(' ')).toEqual([
          2,
          'extends-not-pinned',
          { source: 'acme-policy', file: 'config.yaml', line: 2, col: 5 },
        ]);
        expect(error.hint, args.join(' ')).toContain('extends update`');
      }
    expect((await run('list', '--project', 'web')).stdout).toContain(PROJECT);
  });

  it("are refused for what the store itself says of the id first: a file of another name holding it (id-mismatch, exit 3), a plan's id (unknown-id)", async () => {
    const PLAN = '01M8KJT9G0XNWEM589ZS7FV0VX';
    const store = testStore({
      // Renamed by hand: the store holds OTHER, in a file of another name.
      [`global/${GLOBAL}.yaml`]: invariantYaml(OTHER, 'Never log secrets', { severity: 'error' }),
      [`plans/${PLAN}/plan.yaml`]: `id: ${PLAN}\nproject: web\ngoal: Upgrade the API\n`,
      'projects/web/project.yaml': 'name: web\n',
      'config.yaml': 'extends:\n  - url: https://git.example.com/acme/acme-policy.git\n    ref: v3\n',
    });
    const run = async (...args: string[]) => {
      const r = await runAgents(['--store', store, '--format', 'json', 'invariant', ...args]);
      const { code, detail } = JSON.parse(r.stdout).error;
      return [r.code, code, detail?.diagnostics?.map((d: { code: string; file: string }) => `${d.code} ${d.file}`)];
    };
    for (const args of [
      ['show', OTHER],
      ['remove', OTHER, '--yes'],
      ['edit', OTHER.slice(0, 12), '--severity', 'info'],
    ])
      expect(await run(...args), args.join(' ')).toEqual([3, 'invalid-store', [`id-mismatch global/${GLOBAL}.yaml`]]);
    for (const args of [
      ['show', PLAN],
      ['remove', PLAN, '--yes'],
    ])
      expect((await run(...args)).slice(0, 2), args.join(' ')).toEqual([2, 'unknown-id']);
  });
});

describe('invariant show and remove of the store own id with a policy source not pinned', () => {
  it('shows and removes it, saying on stderr (and in the MCP text) that the sources copies were not read; an id not in the store is refused', async () => {
    const store = testStore({
      [`projects/web/${PROJECT}.yaml`]: invariantYaml(PROJECT, 'Never log secrets', { severity: 'error' }),
      'config.yaml': 'extends:\n  - url: https://git.example.com/acme/acme-policy.git\n    ref: v3\n',
    });
    const run = (...args: string[]) => runAgents(['--store', store, '--format', 'json', 'invariant', ...args]);
    const shown = await run('show', PROJECT);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: PROJECT, shadows: [], shadowed_by: [] });
    expect(shown.stderr).toContain('extends update');
    const mcp = await SHOW.run({ id: PROJECT }, newToolContext(new InvariantService(store)));
    expect(mcp.text).toContain('extends update');
    // Another id may be one of the source's, which cannot be read: refused as `list --effective` is.
    const other = await run('show', GLOBAL);
    expect(other.code).toBe(2);
    expect(JSON.parse(other.stdout).error.code).toBe('extends-not-pinned');
    const removed = await run('remove', PROJECT, '--yes');
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({ removed: PROJECT });
    expect(removed.stderr).toContain('extends update');
  });
});
