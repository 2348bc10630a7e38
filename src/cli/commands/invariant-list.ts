import { conflictingOptions, EXIT_CODES, missingOption } from '../../core/errors.ts';
import { someNames } from '../../core/closest.ts';
import { shellWord } from '../../core/shell-word.ts';
import type { EffectiveResult, ListedInvariant } from '../../service/invariant-service.ts';
import { defineCommand } from '../command.ts';
import { boundHeapGrowth } from '../heap.ts';
import type { CliContext } from '../context.ts';
import { effectiveEntriesJsonEach, effectiveLines } from '../../present/effective.ts';
import { emptyListText, listedJson } from '../../present/invariant.ts';
import { listLines } from '../../present/list.ts';
import { emitList, piecesOf } from '../render.ts';
import { inferProject, scopeFromArgs, scopeOptions, type ScopeArgs } from '../scope-options.ts';

interface ListArgs extends ScopeArgs {
  pattern?: string;
  effective?: boolean;
  all?: boolean;
  interactive?: boolean;
}

export default defineCommand<ListArgs>({
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
    // With --interactive too: the browser would otherwise open on every scope, the effective set asked for not shown.
    const target = scope?.kind === 'project' || scope?.kind === 'plan' ? scope : undefined;
    if (argv.effective && !target) {
      // The store's own projects, not an example name it may not have: the one meant is among them (JSON: choices).
      const projects = await service.projectNames().catch((): string[] => []);
      throw missingOption(
        '--effective needs --project P or --plan ID',
        projects.length > 0
          ? `The effective set belongs to a project or a plan: --project ${shellWord(projects[0]!)} (the store's projects: ${someNames(projects.map(shellWord), { shown: 5 })}), or --plan ID.`
          : (agents) =>
              `The effective set belongs to a project or a plan, and the store has none yet: \`${agents} project add NAME\` makes a project.`,
        'invariant list',
        ['project', 'plan'],
        { project: projects },
      );
    }
    if (argv.interactive) {
      // A scope that does not exist is refused as the plain `list` refuses it, not browsed as an empty one.
      if (scope && 'project' in scope) await service.requireProject(scope.project);
      if (scope?.kind === 'plan') await service.readPlan(scope.plan);
      const { browse } = await import('./tui.ts');
      return browse(ctx, service, scope, argv.pattern, argv.effective ?? false);
    }
    if (argv.effective && target) {
      if (argv.all)
        throw conflictingOptions(
          '--all cannot be combined with --effective',
          'Inactive invariants never apply; list them without --effective.',
          ['all', 'effective'],
        );
      const result = await service.effective(target, argv.pattern !== undefined ? { pattern: argv.pattern } : {});
      await printEffective(ctx, result, argv.pattern);
      return EXIT_CODES.ok;
    }
    const { listShown } = await import('../../service/invariant-service.ts');
    const { items, inactive } = await listShown(service, {
      ...(scope ? { scope } : {}),
      all: argv.all ?? false,
      ...(argv.pattern !== undefined ? { pattern: argv.pattern } : {}),
    });
    // Nothing found with no filter is an empty store (or one of inactive invariants only), not a filter that matched nothing.
    const filtered = scope !== undefined || argv.pattern !== undefined;
    await printList(ctx, items, emptyListText(filtered, inactive, '--all', ctx.agentsCommand()));
    return EXIT_CODES.ok;
  },
});

function printEffective(ctx: CliContext, result: EffectiveResult, pattern: string | undefined): Promise<void> {
  const s = ctx.style;
  return emitList(
    ctx,
    () => effectiveEntriesJsonEach(result.entries, result.waivers),
    () => piecesOf(effectiveLines(s, result, pattern)),
  );
}

function printList(ctx: CliContext, items: ListedInvariant[], empty: string): Promise<void> {
  const s = ctx.style;
  return emitList(
    ctx,
    function* () {
      for (const item of items) yield listedJson(item);
    },
    () => piecesOf(listLines(s, items, empty)),
  );
}
