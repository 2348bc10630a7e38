// `agents import`'s write: the chosen candidates put in place as one change.
import { AgentsError } from '../core/errors.ts';
import type { ImportPlan, PlannedCandidate } from '../core/import-plan.ts';
import { importedTextHash } from '../core/import-stale.ts';
import { PROJECTS_LOCK } from '../core/layout.ts';
import type { ScopedInvariant, Scope } from '../core/model.ts';
import { textKey } from '../core/normalise.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import { readProjects } from '../store/projects.ts';
import { readFolders } from '../store/read.ts';
import { loadIdGenerator } from './deps.ts';
import { idMaker } from './new-ids.ts';
import { namedFolders } from './invariants/projects.ts';
import { requireValid, type InvariantService } from './invariant-service.ts';
import type { ScopeService } from './scope-service.ts';

/** What an import wrote. */
export interface ImportWritten {
  invariants: { id: string; path: string; n: number }[];
  projects: string[];
  /** Candidates the invariant schema refused, whose text their scope holds already, or whose new project's paths another project's came to overlap, with why: left out, the others written. */
  refused: { n: number; why: string }[];
}

/** Files staged between two turns of the event loop, at which a stop signal is taken. */
const STAGED_BETWEEN_SIGNALS = 200;

/**
 * Writes the chosen candidates as one change: each new project's folder
 * (project.yaml with the paths its files apply to) with its invariants,
 * and the invariants of the scopes that exist, under the locks of those
 * scopes, put in place together by one batch (one flush of the file system,
 * not one per file), or not at all when a write fails. A text a scope came
 * to hold meanwhile is left out, as `add` refuses it, and so are the rules of
 * a new project whose paths a project made meanwhile came to overlap. When `signal` is
 * aborted while the files are being staged, the batch's temporaries are
 * removed and its reason thrown: nothing was written.
 */
export async function applyImport(
  invariants: InvariantService,
  scopes: ScopeService,
  plan: ImportPlan,
  chosen: readonly PlannedCandidate[],
  options: { signal?: AbortSignal; again?: true } = {},
): Promise<ImportWritten> {
  const { signal } = options;
  const written: ImportWritten = { invariants: [], projects: [], refused: [] };
  const needed = new Set(chosen.filter((c) => c.scope.kind === 'project').map((c) => c.scope.project!));
  const planned = plan.projects.filter((p) => !p.exists && needed.has(p.name));
  // A project the plan would make that another writer made meanwhile (a second import, `project add`, while the
  // review was open): with the same paths its rules go into it, as they would had it been there; with others they are
  // reported not imported, as those of a project whose paths came to overlap are: one project refuses its own rules only.
  const there = new Set(await namedFolders(invariants.source, 'projects'));
  const { meta } = await readProjects(
    invariants.source,
    planned.filter((p) => there.has(p.name)).map((p) => p.name),
  );
  const sorted = (paths: readonly string[] | undefined) => [...(paths ?? [])].sort().join('\n');
  const meanwhile = new Map<string, string>();
  for (const p of planned)
    if (there.has(p.name) && sorted(meta.get(p.name)?.paths) !== sorted(p.paths))
      meanwhile.set(
        p.name,
        `project ${p.name} was made meanwhile with other paths (${meta.get(p.name)?.paths?.join(', ') || 'none'}) than this import gives it (${p.paths.join(', ') || 'none'}): import the file again, with --project ${p.name} to put its rules there`,
      );
  const creating = planned.filter((p) => !there.has(p.name));
  const madeMeanwhile = (project: string) =>
    `project ${project} was made meanwhile by another writer: run the import again to put its rules there`;
  let made: Awaited<ReturnType<ScopeService['newProjects']>>;
  try {
    made = await scopes.newProjects(creating.map((p) => ({ project: p.name, ...(p.paths.length > 0 ? { paths: p.paths } : {}) })));
  } catch (error) {
    // One of them made by another writer since the listing above (a second import at once), with nothing staged yet:
    // the write is made again, once, against the project that is there now, as below.
    const now = options.again === undefined && error instanceof AgentsError ? await namedFolders(invariants.source, 'projects') : [];
    if (creating.some((p) => now.includes(p.name)))
      return applyImport(invariants, scopes, plan, chosen, { ...(signal ? { signal } : {}), again: true });
    throw error;
  }
  const [{ checkInvariantDraft, formatInvariantFile }, { CreateBatch }, { withFolderLocks }] = await Promise.all([
    import('../core/serialize.ts'),
    import('../store/create-batch.ts'),
    import('../store/lock.ts'),
    loadIdGenerator(),
  ]);
  const { deps, root, source } = invariants;
  /** Why a refused rule is refused, said of its scope: the file named in the first refusal is never written. */
  const draftRefusal = (folder: string, inv: ScopedInvariant): string | undefined => {
    try {
      checkInvariantDraft(folder, inv);
    } catch (error) {
      if (error instanceof AgentsError) return error.message;
      throw error;
    }
    return undefined;
  };
  const author = await deps.author(root);
  const now = deps
    .clock()
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');
  const fileText = (c: PlannedCandidate) => {
    const planned = plan.candidates[c.n - 1];
    return planned?.n === c.n ? planned.text : c.text;
  };
  const groups = new Map<string, { scope: Scope; items: PlannedCandidate[] }>();
  for (const c of chosen) {
    const refusal = c.scope.kind === 'project' ? meanwhile.get(c.scope.project!) : undefined;
    if (refusal !== undefined) {
      written.refused.push({ n: c.n, why: refusal });
      continue;
    }
    const scope: Scope = c.scope.kind === 'global' ? { kind: 'global' } : { kind: 'project', project: c.scope.project! };
    const folder = scope.kind === 'global' ? 'global' : `projects/${scope.project}`;
    const g = groups.get(folder) ?? { scope, items: [] };
    g.items.push(c);
    groups.set(folder, g);
  }
  const newFolder = new Map(made.map((m) => [m.folder, m]));
  // The scopes that exist are locked (all of them, for the whole import); a new project's folder appears whole, by one rename.
  const existing = [...groups.keys()].filter((f) => !newFolder.has(f));
  // New projects' paths are compared again with the store's projects under the lock `project add` takes to write
  // paths: one made meanwhile would otherwise share their files, and the store be left invalid.
  const withPaths = creating.filter((p) => p.paths.length > 0).map((p) => ({ project: p.name, paths: p.paths }));
  const overlapping = new Map<string, string>();
  const madeByOther = new Set<string>();
  await withFolderLocks(
    root,
    withPaths.length > 0 ? [...existing, PROJECTS_LOCK] : existing,
    async () => {
      // The same project made by another writer since the check above (a second import at once): the rules are
      // not written, and the way to write them is to run the import again, which finds the project there.
      for (const [project, refusal] of await scopes.pathOverlaps(withPaths)) {
        overlapping.set(project, refusal.detail?.other === project ? madeMeanwhile(project) : refusal.message);
        if (refusal.detail?.other === project) madeByOther.add(project);
      }
      const here = await readFolders(source, existing);
      for (const folder of existing) {
        const invalid = here.diagnostics.filter((d) => d.file === folder || d.file.startsWith(`${folder}/`));
        requireValid({ ...here, diagnostics: invalid }, `import into ${folder}`);
      }
      requireValid(here, 'import');
      const held = new Map<string, Set<string>>();
      for (const inv of here.invariants) {
        const folder = inv.path.slice(0, inv.path.lastIndexOf('/'));
        const keys = held.get(folder) ?? new Set<string>();
        keys.add(textKey(inv.text));
        held.set(folder, keys);
      }
      // Each scope's files are staged as soon as they are made, so their texts are not all held at once.
      const newId = await idMaker(invariants);
      const batch = new CreateBatch(root);
      // Staging thousands of files takes seconds: now and then the signals are let in, and an abort stops the import.
      let staged = 0;
      const letSignalsIn = async (files: number) => {
        staged += files;
        if (signal === undefined || staged < STAGED_BETWEEN_SIGNALS) return;
        staged = 0;
        await new Promise((resolve) => setImmediate(resolve));
        signal.throwIfAborted();
      };
      try {
        for (const [folder, { scope, items }] of groups) {
          // Left out and said, as a rule whose text a scope came to hold meanwhile is.
          const overlap = scope.kind === 'project' ? overlapping.get(scope.project) : undefined;
          if (overlap !== undefined) {
            for (const c of items) written.refused.push({ n: c.n, why: overlap });
            continue;
          }
          const keys = held.get(folder) ?? new Set<string>();
          /** The texts this import writes into the folder, each with the candidate that says it. */
          const saying = new Map<string, PlannedCandidate>();
          const mine: { name: string; content: string }[] = [];
          for (const c of items) {
            const key = textKey(c.text);
            if (keys.has(key)) {
              // Said, as add refuses it: a text the review edited into one the scope holds or another kept rule says,
              // or one the scope came to hold meanwhile, is not written, never silently.
              const by = saying.get(key);
              const why =
                by !== undefined
                  ? `${escapeUnsafe(by.file)}:${by.line} says this text too, in ${folder}/`
                  : `${folder}/ already holds this text`;
              written.refused.push({ n: c.n, why });
              continue;
            }
            keys.add(key);
            saying.set(key, c);
            const id = newId();
            const inv: ScopedInvariant = {
              id,
              text: c.text,
              severity: c.severity,
              active: true,
              tags: c.tags,
              created_at: now,
              scope,
              path: `${folder}/${id}.yaml`,
              // Of the text the file says, not the review's edit of it: that edit is the store's, as a later one is.
              imported_from: { file: c.file, line: c.line, text_hash: importedTextHash(fileText(c)) },
            };
            if (author !== undefined) inv.created_by = author;
            let content: string;
            try {
              content = formatInvariantFile(inv.path, inv);
            } catch (error) {
              // A rule the schema refuses (hidden characters, say) is reported, and the others are written.
              if (!(error instanceof AgentsError)) throw error;
              written.refused.push({ n: c.n, why: draftRefusal(folder, inv) ?? error.message });
              continue;
            }
            mine.push({ name: `${id}.yaml`, content });
            written.invariants.push({ id, path: inv.path, n: c.n });
          }
          const project = newFolder.get(folder);
          if (project) {
            batch.folder(folder, [project.file, ...mine]);
            await letSignalsIn(mine.length + 1);
          } else
            for (const f of mine) {
              batch.file(`${folder}/${f.name}`, f.content);
              await letSignalsIn(1);
            }
        }
        signal?.throwIfAborted();
      } catch (error) {
        batch.discard();
        throw error;
      }
      batch.commit();
    },
    { notice: deps.notice },
  );
  written.projects = made.map((m) => m.project).filter((p) => !overlapping.has(p));
  // A project another writer made while this import staged its own (a second import at once): its rules are written
  // again, once, as they would be had it been there at the start: into it when its paths are these (a text it holds
  // already left out, never a copy), else refused naming its paths. Only the winner says it created the project.
  if (madeByOther.size > 0 && options.again === undefined) {
    const retry = chosen.filter((c) => c.scope.kind === 'project' && madeByOther.has(c.scope.project!));
    const retried = new Set(retry.map((c) => c.n));
    const second = await applyImport(invariants, scopes, plan, retry, { ...(signal ? { signal } : {}), again: true });
    written.refused = [...written.refused.filter((r) => !retried.has(r.n)), ...second.refused];
    written.invariants.push(...second.invariants);
  }
  return written;
}
