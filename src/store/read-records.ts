import type { Diagnostic } from '../core/diagnostics.ts';
import type { RecordKind } from '../core/layout.ts';
import { parseRecord } from '../core/record-files.ts';
import type { DecisionNode, EnforcementRun, Violation } from '../core/records.ts';
import { parseYamlDocument } from './yaml-document.ts';
import { readFailure } from './read.ts';
import { fileWhereFolderGoes, isRequiredFolder } from './read-plan.ts';
import { filesOfKind } from './unplaced.ts';
import type { TreeSource } from './tree-source.ts';

/** The records kept under one plan, each list in id (creation) order. */
export interface PlanRecords {
  decisions: DecisionNode[];
  enforcement: EnforcementRun[];
  violations: Violation[];
  diagnostics: Diagnostic[];
}

/**
 * Reads `plans/<plan>/{decisions,enforcement,violations}/` (only the kinds
 * asked for). Invalid files become diagnostics, never exceptions.
 */
export async function readPlanRecords(
  source: TreeSource,
  plan: string,
  kinds: readonly RecordKind[] = ['decisions', 'enforcement', 'violations'],
): Promise<PlanRecords> {
  const out: PlanRecords = { decisions: [], enforcement: [], violations: [], diagnostics: [] };
  const jobs: { path: string; kind: RecordKind; id: string }[] = [];
  // A file where a records folder goes lists as none: its violations would vanish from the list and the gate.
  for (const entry of await source.list(`plans/${plan}`, { recursive: false }))
    if (
      entry.type !== 'dir' &&
      entry.type !== 'symlink' &&
      isRequiredFolder(entry.path) &&
      (kinds as readonly string[]).includes(entry.path.split('/')[2]!)
    )
      out.diagnostics.push(fileWhereFolderGoes(entry.path));
  for (const kind of kinds)
    for (const { path, c } of await filesOfKind(source, `plans/${plan}/${kind}`, 'record', out.diagnostics))
      jobs.push({ path, kind: c.record, id: c.id });
  const contents = await source.read(jobs.map((j) => j.path));
  for (const job of jobs) {
    const r = contents.get(job.path);
    if (!r) continue;
    if (!r.ok) {
      out.diagnostics.push(readFailure(job.path, r));
      continue;
    }
    const p = await parseYamlDocument((syntax) => parseRecord(job.kind, job.path, r.bytes, job.id, syntax));
    out.diagnostics.push(...p.diagnostics);
    if (!p.value) continue;
    if (p.value.record === 'decisions') out.decisions.push(p.value.value);
    else if (p.value.record === 'enforcement') out.enforcement.push(p.value.value);
    else out.violations.push(p.value.value);
  }
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  out.decisions.sort(byId);
  out.enforcement.sort(byId);
  out.violations.sort(byId);
  return out;
}
