// An inherited invariant is overridden and waived here the way the store's own are (docs/extends.md):
// `edit --overrides` takes its id, and `validate` knows it when an `overrides` or a waiver names it.
import { appendFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentsError } from '../../src/core/errors.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { refuseUnknownInvariant } from '../../src/service/invariants/lookup.ts';
import { WorkingTreeSource } from '../../src/store/tree-source.ts';
import { inheritedFacts } from '../../src/validate/inherited-keys.ts';
import { sourceActionIds } from '../../src/validate/source-actions.ts';
import { invariantYaml } from '../helpers/tmp.ts';
import { LOCAL, LOCKED, SECRETS, pinnedApp, run, waiveForMyapp } from './repos.ts';

const MINE = '01JDQ6X5Z8W4N3B2C1D0E9F8G9';

const codes = async (app: string) =>
  (JSON.parse((await run(app, 'validate', '--strict', '--format', 'json')).stdout).diagnostics as { code: string }[])
    .map((d) => d.code)
    // The files the test writes by hand carry no editor modeline.
    .filter((c) => c !== 'modeline-missing');

describe('an inherited invariant', () => {
  it('is overridden by a copy of its text: edit --overrides takes its id, and validate --strict passes', async () => {
    const app = await pinnedApp({ [`.agents/global/${MINE}.yaml`]: invariantYaml(MINE, 'No secrets in prompts', { severity: 'warning' }) });
    const edit = await run(app, 'invariant', 'edit', MINE, '--overrides', SECRETS, '--format', 'json');
    expect(edit.code, edit.stderr).toBe(0);
    expect(await codes(app)).toEqual([]);
  });

  it('an override of an inherited invariant with another text is refused by edit and reported by validate', async () => {
    const app = await pinnedApp({ [`.agents/global/${MINE}.yaml`]: invariantYaml(MINE, 'Another rule') });
    expect((await run(app, 'invariant', 'edit', MINE, '--overrides', SECRETS)).code).toBe(2);
    appendFileSync(join(app, `.agents/global/${MINE}.yaml`), `overrides: ${SECRETS}\n`);
    expect(await codes(app)).toEqual(['overrides-text']);
  });

  it('a waiver of an inherited invariant is no unknown-invariant', async () => {
    const app = await pinnedApp();
    const waive = await waiveForMyapp(app, SECRETS);
    expect(waive.code, waive.stderr).toBe(0);
    expect(await codes(app)).toEqual([]);
    // A waiver of the locked one is refused before it is written.
    expect((await waiveForMyapp(app, LOCKED)).code).toBe(2);
  });

  it('a waiver edited to name a locked invariant does not count: the effective set shows no waiver of it', async () => {
    const app = await pinnedApp();
    expect((await waiveForMyapp(app, SECRETS)).code).toBe(0);
    const folder = join(app, '.agents/projects/myapp/waivers');
    for (const f of readdirSync(folder)) writeFileSync(join(folder, f), readFileSync(join(folder, f), 'utf8').replace(SECRETS, LOCKED));
    expect(await codes(app)).toEqual(['locked-waived']);
    const listed = JSON.parse((await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json')).stdout) as {
      id: string;
      waivers: unknown[];
    }[];
    expect(listed.find((e) => e.id === LOCKED)!.waivers).toEqual([]);
  });

  it('a waiver edited to name a locked invariant is not said in the exported files either; a waiver that counts is', async () => {
    const app = await pinnedApp({ '.agents/projects/myapp/project.yaml': 'paths:\n  - app/**\n' });
    expect((await waiveForMyapp(app, SECRETS)).code).toBe(0);
    const exported = async () => {
      const r = await run(app, 'export', '--target', 'agents-md', '--no-cache');
      expect(r.code, r.stderr).toBe(0);
      return readFileSync(join(app, 'app/AGENTS.md'), 'utf8');
    };
    expect(await exported()).toContain(`\`${SECRETS}\` is waived for this project`);
    const folder = join(app, '.agents/projects/myapp/waivers');
    for (const f of readdirSync(folder)) writeFileSync(join(folder, f), readFileSync(join(folder, f), 'utf8').replace(SECRETS, LOCKED));
    const text = await exported();
    expect(text).not.toContain('is waived');
    expect(text).toContain('All API changes need tests');
  });

  it('a waiver of a weaker copy of a locked text, which the floor shadows, is refused as locked-waived', async () => {
    const app = await pinnedApp({
      [`.agents/projects/myapp/${MINE}.yaml`]: invariantYaml(MINE, 'Never delete production data', { severity: 'warning' }),
    });
    const r = await waiveForMyapp(app, MINE, '--format', 'json');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe('locked-waived');
  });
});

describe('remove, edit and move of an inherited id', () => {
  it('are refused as read-only, naming the source; with the source not fetched, with its code (extends-not-fetched) as show says it; nothing written', async () => {
    const app = await pinnedApp();
    const refusal = async (...args: string[]) => {
      const r = await run(app, 'invariant', ...args, '--format', 'json');
      const { code, detail } = JSON.parse(r.stdout).error;
      return [r.code, code, detail?.source];
    };
    const writes = [
      ['remove', SECRETS, '--yes'],
      ['edit', SECRETS, '--severity', 'info'],
      ['move', SECRETS, '--project', 'myapp'],
    ];
    for (const args of writes) expect(await refusal(...args), args[0]).toEqual([2, 'usage', 'policy']);
    rmSync(join(app, '.git/agents/extends/policy.git'), { recursive: true, force: true });
    for (const args of [['show', SECRETS], ...writes])
      expect(await refusal(...args), args[0]).toEqual([2, 'extends-not-fetched', 'policy']);
    expect(readdirSync(join(app, '.agents/projects/myapp'))).toEqual([`${LOCAL}.yaml`]);
  });
});

describe('validate --fix that renames a file, in a store that extends a source', () => {
  // The check run again after the rename left out the policy sources: a store plain validate fails was called clean.
  it('reports what plain validate reports: the floor a copy weakens, and no unknown-invariant for a waiver of an inherited id', async () => {
    const app = await pinnedApp();
    expect((await waiveForMyapp(app, SECRETS)).code).toBe(0);
    writeFileSync(
      join(app, `.agents/global/${MINE.toLowerCase()}.yaml`),
      invariantYaml(MINE, 'Never delete production data', { severity: 'warning' }),
    );
    const fixed = await run(app, 'validate', '--fix', '--format', 'json');
    const out = JSON.parse(fixed.stdout) as { fixes: { action: string; done: boolean }[]; diagnostics: { code: string }[] };
    expect(out.fixes).toContainEqual(expect.objectContaining({ action: 'rename', done: true }));
    const codes = (r: typeof out) => r.diagnostics.map((d) => d.code).filter((c) => c !== 'modeline-missing');
    expect([fixed.code, codes(out)]).toEqual([1, ['locked-weakened']]);
    const plain = await run(app, 'validate', '--format', 'json');
    expect([plain.code, codes(JSON.parse(plain.stdout))]).toEqual([1, ['locked-weakened']]);
  });
});

describe('an id outside an effective set, with a policy source not fetched', () => {
  // The set's readers stop at the source first; the refusal of an id outside a set read before the cache went says the
  // same, never unknown-id, which would send the user looking for a typo in an id the source holds.
  it("is refused with the source's code (extends-not-fetched), as show refuses it; an id the store holds returns", async () => {
    const app = await pinnedApp();
    rmSync(join(app, '.git/agents/extends/policy.git'), { recursive: true, force: true });
    const svc = new InvariantService(join(app, '.agents'));
    const hints = { otherKind: 'o', unknown: 'u' };
    const refused = await refuseUnknownInvariant(svc, SECRETS, [], hints).then(
      () => undefined,
      (error: AgentsError) => [error.code, error.exitCode],
    );
    expect(refused).toEqual(['extends-not-fetched', 2]);
    await expect(refuseUnknownInvariant(svc, LOCAL, [], hints)).resolves.toBeUndefined();
  });
});

describe("validate's readers of the policy sources", () => {
  it('read no pin extends fetch never checked in this clone: the inherited ids and the templates answer none until it is checked', async () => {
    const app = await pinnedApp();
    const store = join(app, '.agents');
    // The same cached commit, pinned by hand under another ref and kind: never checked against that ref here.
    writeFileSync(join(store, 'config.yaml'), readFileSync(join(store, 'config.yaml'), 'utf8').replace('ref: v1', 'ref: main'));
    const lock = join(store, 'extends.lock.yaml');
    writeFileSync(lock, readFileSync(lock, 'utf8').replace('ref: v1', 'ref: main').replace('kind: tag', 'kind: branch'));
    const read = async () => {
      const tree = new WorkingTreeSource(store);
      return {
        keys: [...(await inheritedFacts(store, tree).keys()).keys()],
        template: await sourceActionIds(store, tree)('policy:org/release'),
      };
    };
    expect(await read()).toEqual({ keys: [], template: undefined });
    const validate = await run(app, 'validate', '--format', 'json');
    expect(validate.code).toBe(2);
    expect(JSON.parse(validate.stdout).error.code).toBe('extends-not-fetched');
    // Checked by the fetch (main holds that commit): read as pinned.
    expect((await run(app, 'extends', 'fetch')).code).toBe(0);
    expect(await read()).toEqual({ keys: [LOCKED, SECRETS], template: new Set() });
  });
});
