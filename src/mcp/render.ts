import { effectiveEntriesJson } from '../cli/plan-render.ts';
import type { InvariantJson } from '../cli/render.ts';
import type { EffectiveResult } from '../service/invariant-service.ts';

/**
 * An effective set as the MCP tools and resources give it: the entries of
 * `invariant list --effective --format json` (docs/json-output.md), wrapped in
 * an object with the target, since structured content is an object.
 */
export interface EffectiveData {
  /** `path`: the file asked about, when the project was found from it. */
  target: { kind: 'project' | 'plan'; project: string | null; plan: string | null; path?: string };
  count: number;
  invariants: (InvariantJson & { shadows: { id: string; scope: string; path: string }[] })[];
}

export function effectiveData(result: EffectiveResult): EffectiveData {
  const t = result.target;
  return {
    target: { kind: t.kind, project: t.project ?? null, plan: t.kind === 'plan' ? t.plan : null },
    count: result.entries.length,
    invariants: effectiveEntriesJson(result.entries, result.waivers),
  };
}

function title(data: EffectiveData): string {
  const t = data.target;
  return t.kind === 'project' ? `project ${t.project}` : `plan ${t.plan}${t.project ? ` (project ${t.project})` : ''}`;
}

/** The effective set as Markdown, grouped by scope, for a model's context or a person. */
export function effectiveMarkdown(data: EffectiveData): string {
  const n = data.count;
  const lines = [
    `# Invariants of ${title(data)}`,
    '',
    `${n} invariant${n === 1 ? '' : 's'} apply (precedence: plan > project > global). Severity \`error\`: never break it; \`warning\`: avoid breaking it; \`info\`: keep in mind.`,
  ];
  if (n === 0) lines.push('', 'No invariant applies: the set is empty.');
  let group = '';
  data.invariants.forEach((inv, i) => {
    const label = inv.scope === 'plan' ? `plan ${inv.plan}` : inv.scope === 'project' ? `project ${inv.project}` : inv.scope;
    if (label !== group) {
      group = label;
      lines.push('', `## ${label}`, '');
    }
    const meta = [`\`${inv.id}\``, inv.severity, ...(inv.tags.length ? [inv.tags.map((t) => `#${t}`).join(' ')] : [])].join(' · ');
    lines.push(`${i + 1}. ${inv.text.replace(/\n/g, ' ')} (${meta})`);
    if (inv.rationale) lines.push(`   Why: ${inv.rationale.replace(/\n/g, ' ')}`);
    for (const s of inv.shadows) lines.push(`   Shadows ${s.scope} ${s.id}.`);
  });
  return lines.join('\n');
}
