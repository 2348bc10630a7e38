import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { inferProject } from '../scope-options.ts';
import { planJson } from '../../present/plan.ts';
import { emit } from '../render.ts';
import { invariantJson } from '../../present/invariant.ts';

interface UseArgs {
  action: string;
  project?: string;
  goal?: string;
  commit?: boolean;
}

export default defineCommand<UseArgs>({
  command: 'use <action>',
  describe: 'Create a plan from an action template, promoting its invariants',
  builder: (y) =>
    y
      .positional('action', { type: 'string', describe: 'the action template, NS/NAME (e.g. local/code-coverage)' })
      .option('project', { type: 'string', requiresArg: true, describe: 'the project the plan targets' })
      .option('goal', { type: 'string', requiresArg: true, describe: 'what the plan is for' })
      .option('commit', { type: 'boolean', describe: 'commit the new plan folder with git (default: commit: in config.yaml)' }),
  async run(argv, ctx) {
    const project = argv.project !== undefined ? String(argv.project) : await inferProject(ctx, await ctx.invariants());
    const r = await (await ctx.plans()).use({
      action: String(argv.action),
      ...(project !== undefined ? { project } : {}),
      ...(argv.goal !== undefined ? { goal: String(argv.goal) } : {}),
      ...(argv.commit !== undefined ? { commit: argv.commit } : {}),
    });
    const s = ctx.style;
    emit(
      ctx,
      {
        plan: planJson(r.plan),
        folder: r.folder,
        promoted: r.promoted.map(invariantJson),
        duplicates: r.duplicates,
        commit: r.commit ?? null,
      },
      () => {
        const n = r.promoted.length;
        const lines = [
          `${s.green('created')} plan ${s.bold(r.plan.id)} from action ${r.plan.action}${r.plan.project ? ` for project ${r.plan.project}` : ''}`,
          `  ${r.folder}`,
          `  promoted ${n} invariant${n === 1 ? '' : 's'}:`,
        ];
        for (const inv of r.promoted) lines.push(`    ${inv.id}  ${inv.text}  ${s.dim(`(from ${inv.source?.origin_id})`)}`);
        for (const d of r.duplicates) lines.push(`  ${s.yellow('skipped')} ${d.origin_id} (same text as ${d.of}): ${d.text}`);
        if (r.commit) lines.push(`  committed ${r.commit.slice(0, 12)}`);
        lines.push('', `Next: agents plan strategize ${r.plan.id}`);
        return lines.join('\n');
      },
    );
    return EXIT_CODES.ok;
  },
});
