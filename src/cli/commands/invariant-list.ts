import { EXIT_CODES, UsageError } from '../../core/errors.ts';
import { describeScope, scopeFolder, type ScopedInvariant } from '../../core/model.ts';
import type { EffectiveResult, ListedInvariant } from '../../service/invariant-service.ts';
import { defineCommand } from '../command.ts';
import type { CliContext } from '../context.ts';
import { effectiveEntriesJson, waiverLine } from '../plan-render.ts';
import { emit, hiddenCopyLines, invariantJson, shadowJson } from '../render.ts';
import { inferProject, scopeFromArgs, scopeOptions, type ScopeArgs } from '../scope-options.ts';
import type { Style } from '../style.ts';

interface ListArgs extends ScopeArgs {
  pattern?: string;
  effective?: boolean;
  all?: boolean;
  interactive?: boolean;
}

export default defineCommand<ListArgs>({
  command: ['list [pattern]', 'ls'],
  describe: 'List invariants, or the effective set of a project or plan',
  builder: (y) =>
    scopeOptions(y, 'list')
      .positional('pattern', { type: 'string', describe: 'regex on the text (case-insensitive unless it holds an upper-case letter)' })
      .option('effective', { type: 'boolean', describe: 'the merged effective set (with --project or --plan)' })
      .option('all', { type: 'boolean', describe: 'include inactive invariants' })
      .option('interactive', {
        alias: 'i',
        type: 'boolean',
        describe: 'browse in the TUI (as `agents tui`), starting with this scope and pattern',
      }),
  async run(argv, ctx) {
    const service = await ctx.invariants();
    const given =
      scopeFromArgs(argv, false) ??
      (argv.effective ? await inferProject(ctx, service).then((project) => (project !== undefined ? { project } : undefined)) : undefined);
    const scope = given ? await service.resolveScope(given) : undefined;
    if (argv.interactive) {
      if (scope && 'project' in scope) await service.requireProject(scope.project);
      const { browse } = await import('./tui.ts');
      return browse(ctx, service, scope, argv.pattern, argv.effective ?? false);
    }
    if (argv.effective) {
      if (!scope || (scope.kind !== 'project' && scope.kind !== 'plan')) {
        throw new UsageError(
          '--effective needs --project P or --plan ID',
          'The effective set belongs to a project or a plan, e.g. --effective --project myapp.',
        );
      }
      if (argv.all)
        throw new UsageError(
          '--all cannot be combined with --effective',
          'Inactive invariants never apply; list them without --effective.',
        );
      const result = await service.effective(scope, argv.pattern !== undefined ? { pattern: argv.pattern } : {});
      printEffective(ctx, result);
      return EXIT_CODES.ok;
    }
    const items = await service.list({
      ...(scope ? { scope } : {}),
      all: argv.all ?? false,
      ...(argv.pattern !== undefined ? { pattern: argv.pattern } : {}),
    });
    printList(ctx, items);
    return EXIT_CODES.ok;
  },
});

function printEffective(ctx: CliContext, result: EffectiveResult): void {
  const s = ctx.style;
  emit(ctx, effectiveEntriesJson(result.entries, result.waivers), () => {
    const t = result.target;
    const title = t.kind === 'project' ? `project ${t.project}` : `plan ${t.plan}${t.project ? ` (project ${t.project})` : ''}`;
    const n = result.entries.length;
    const lines = [s.bold(`Effective set of ${title}: ${n} invariant${n === 1 ? '' : 's'}`) + s.dim('  (plan > project > global)')];
    let group = '';
    result.entries.forEach((e, i) => {
      const label = describeScope(e.invariant.scope);
      if (label !== group) {
        group = label;
        lines.push('', s.cyan(label));
      }
      lines.push(`  ${String(i + 1).padStart(2)}. ${e.invariant.text}`);
      lines.push(`      ${meta(s, e.invariant)}`);
      for (const line of hiddenCopyLines(e, s.yellow, (p) => `  ${s.dim(p)}`)) lines.push(`      ${line}`);
      for (const w of result.waivers) if (w.invariant_id === e.invariant.id) lines.push(`      ${waiverLine(s, w)}`);
    });
    if (n === 0) lines.push('', '  (none)');
    return lines.join('\n');
  });
}

function meta(s: Style, inv: ScopedInvariant): string {
  const parts = [inv.id, sev(s, inv.severity)];
  if (!inv.active) parts.push(s.yellow('inactive'));
  if (inv.tags.length) parts.push(inv.tags.map((t) => `#${t}`).join(' '));
  if (inv.source?.kind === 'action') parts.push(`source: action ${inv.source.ref ?? '?'} (${inv.source.origin_id ?? '?'})`);
  else if (inv.source?.kind === 'plan') parts.push('source: plan');
  return s.dim(parts.join(' · '));
}

function sev(s: Style, severity: string): string {
  return severity === 'error' ? s.red(severity) : severity === 'warning' ? s.yellow(severity) : severity;
}

function printList(ctx: CliContext, items: ListedInvariant[]): void {
  const s = ctx.style;
  emit(
    ctx,
    items.map(({ invariant, shadow }) => ({
      ...invariantJson(invariant),
      ...(shadow
        ? {
            shadowed_by: shadow.shadowedBy.map((o) => shadowJson({ id: o.id, scope: o.scope, path: o.path })),
            shadows: shadow.shadows.map((o) => shadowJson({ id: o.id, scope: o.scope, path: o.path })),
          }
        : {}),
    })),
    () => {
      if (items.length === 0) return 'No invariants match.';
      const lines: string[] = [];
      let folder = '';
      let count = 0;
      const counts = new Map<string, number>();
      for (const { invariant } of items) counts.set(scopeFolder(invariant.scope), (counts.get(scopeFolder(invariant.scope)) ?? 0) + 1);
      for (const { invariant, shadow } of items) {
        const f = scopeFolder(invariant.scope);
        if (f !== folder) {
          folder = f;
          if (lines.length) lines.push('');
          lines.push(s.cyan(`${describeScope(invariant.scope)} (${counts.get(f)})`));
        }
        count++;
        lines.push(`  ${invariant.text}`);
        lines.push(`    ${meta(s, invariant)}`);
        for (const o of shadow?.shadowedBy ?? []) lines.push(`    ${s.yellow('shadowed by')} ${describeScope(o.scope)} ${o.id}`);
        for (const o of shadow?.shadows ?? []) lines.push(`    ${s.yellow('shadows')} ${describeScope(o.scope)} ${o.id}`);
      }
      lines.push('', s.dim(`${count} invariant${count === 1 ? '' : 's'}`));
      return lines.join('\n');
    },
  );
}
