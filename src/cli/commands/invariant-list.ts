import { EXIT_CODES, UsageError } from '../../core/errors.ts';
import { describeScope, scopeFolder, type ScopedInvariant } from '../../core/model.ts';
import type { EffectiveResult, ListedInvariant } from '../../service/invariant-service.ts';
import { defineCommand } from '../command.ts';
import { boundHeapGrowth } from '../heap.ts';
import type { CliContext } from '../context.ts';
import { effectiveEntriesJsonEach, waiverLine } from '../plan-render.ts';
import { emitList, hiddenCopyLines, invariantJson, shadowJson } from '../render.ts';
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
    boundHeapGrowth();
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
      await printEffective(ctx, result);
      return EXIT_CODES.ok;
    }
    const items = await service.list({
      ...(scope ? { scope } : {}),
      all: argv.all ?? false,
      ...(argv.pattern !== undefined ? { pattern: argv.pattern } : {}),
    });
    await printList(ctx, items);
    return EXIT_CODES.ok;
  },
});

/** Pieces of about this many characters. */
const PIECE = 1 << 16;

/** Lines joined into pieces of about PIECE characters, each line ended by a newline. */
function* piecesOf(lines: Iterable<string>): Generator<string> {
  let piece = '';
  for (const line of lines) {
    piece += `${line}\n`;
    if (piece.length >= PIECE) {
      yield piece;
      piece = '';
    }
  }
  if (piece !== '') yield piece;
}

function printEffective(ctx: CliContext, result: EffectiveResult): Promise<void> {
  const s = ctx.style;
  return emitList(
    ctx,
    () => effectiveEntriesJsonEach(result.entries, result.waivers),
    () => piecesOf(effectiveLines(s, result)),
  );
}

function* effectiveLines(s: Style, result: EffectiveResult): Generator<string> {
  const t = result.target;
  const title = t.kind === 'project' ? `project ${t.project}` : `plan ${t.plan}${t.project ? ` (project ${t.project})` : ''}`;
  const n = result.entries.length;
  yield s.bold(`Effective set of ${title}: ${n} invariant${n === 1 ? '' : 's'}`) + s.dim('  (plan > project > global > inherited)');
  const waivers = waiversById(result.waivers);
  let group = '';
  for (const [i, e] of result.entries.entries()) {
    const label = describeScope(e.invariant.scope);
    if (label !== group) {
      group = label;
      yield '';
      yield s.cyan(label);
    }
    yield `  ${String(i + 1).padStart(2)}. ${e.invariant.text}`;
    yield `      ${meta(s, e.invariant)}`;
    for (const line of hiddenCopyLines(e, s.yellow, (p) => `  ${s.dim(p)}`)) yield `      ${line}`;
    for (const w of waivers.get(e.invariant.id) ?? []) yield `      ${waiverLine(s, w)}`;
  }
  if (n === 0) {
    yield '';
    yield '  (none)';
  }
}

/** The waivers of each invariant, in their order. */
function waiversById<W extends { invariant_id: string }>(waivers: readonly W[]): Map<string, W[]> {
  const by = new Map<string, W[]>();
  for (const w of waivers) {
    const list = by.get(w.invariant_id);
    if (list) list.push(w);
    else by.set(w.invariant_id, [w]);
  }
  return by;
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

function printList(ctx: CliContext, items: ListedInvariant[]): Promise<void> {
  const s = ctx.style;
  return emitList(
    ctx,
    function* () {
      for (const { invariant, shadow } of items)
        yield {
          ...invariantJson(invariant),
          ...(shadow
            ? {
                shadowed_by: shadow.shadowedBy.map((o) => shadowJson({ id: o.id, scope: o.scope, path: o.path })),
                shadows: shadow.shadows.map((o) => shadowJson({ id: o.id, scope: o.scope, path: o.path })),
              }
            : {}),
        };
    },
    () => piecesOf(listLines(s, items)),
  );
}

function* listLines(s: Style, items: ListedInvariant[]): Generator<string> {
  if (items.length === 0) {
    yield 'No invariants match.';
    return;
  }
  let folder = '';
  let count = 0;
  let first = true;
  const counts = new Map<string, number>();
  for (const { invariant } of items) counts.set(scopeFolder(invariant.scope), (counts.get(scopeFolder(invariant.scope)) ?? 0) + 1);
  for (const { invariant, shadow } of items) {
    const f = scopeFolder(invariant.scope);
    if (f !== folder) {
      folder = f;
      if (!first) yield '';
      yield s.cyan(`${describeScope(invariant.scope)} (${counts.get(f)})`);
    }
    first = false;
    count++;
    yield `  ${invariant.text}`;
    yield `    ${meta(s, invariant)}`;
    for (const o of shadow?.shadowedBy ?? []) yield `    ${s.yellow('shadowed by')} ${describeScope(o.scope)} ${o.id}`;
    for (const o of shadow?.shadows ?? []) yield `    ${s.yellow('shadows')} ${describeScope(o.scope)} ${o.id}`;
  }
  yield '';
  yield s.dim(`${count} invariant${count === 1 ? '' : 's'}`);
}
