import type { Diagnostic } from '../core/diagnostics.ts';
import { parseWaiver } from '../core/waiver-file.ts';
import { waiverFolder, type ScopedWaiver, type WaiverScope } from '../core/waivers.ts';
import { readFailure } from './read-plan.ts';
import { filesOfKind } from './unplaced.ts';
import type { TreeSource } from './tree-source.ts';
import { parseYamlDocument } from './yaml-document.ts';

/**
 * Reads the waivers of the given plans and projects (`<folder>/waivers/`), in
 * id (creation) order. Invalid files become diagnostics, never exceptions.
 */
export async function readWaivers(
  source: TreeSource,
  scopes: readonly WaiverScope[],
): Promise<{ waivers: ScopedWaiver[]; diagnostics: Diagnostic[] }> {
  const waivers: ScopedWaiver[] = [];
  const diagnostics: Diagnostic[] = [];
  const jobs: { path: string; scope: WaiverScope; id: string }[] = [];
  for (const scope of scopes)
    for (const { path, c } of await filesOfKind(source, waiverFolder(scope), 'waiver', diagnostics)) jobs.push({ path, scope, id: c.id });
  const contents = await source.read(jobs.map((j) => j.path));
  for (const job of jobs) {
    const r = contents.get(job.path);
    if (!r) continue;
    if (!r.ok) {
      diagnostics.push(readFailure(job.path, r));
      continue;
    }
    const p = await parseYamlDocument((syntax) => parseWaiver(job.path, r.bytes, job.id, syntax));
    diagnostics.push(...p.diagnostics);
    if (p.value) waivers.push({ ...p.value, scope: job.scope, path: job.path });
  }
  waivers.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { waivers, diagnostics };
}
