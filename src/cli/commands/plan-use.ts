import { EXIT_CODES } from '../../core/errors.ts';
import { actorNeeds, actorNeedsExample } from '../../core/actor-choice.ts';
import type { StoreConfig } from '../../core/model.ts';
import { defineCommand } from '../command.ts';
import { inferProject } from '../scope-options.ts';
import { planJson } from '../../present/plan.ts';
import { emit } from '../render.ts';
import { invariantJson } from '../../present/invariant.ts';
import { docsRef } from '../../core/docs-link.ts';
import { cliFlags } from '../../service/option-words.ts';

interface UseArgs {
  action: string;
  project?: string;
  goal?: string;
  commit?: boolean;
}

export default defineCommand<UseArgs>({
  builder: (y) =>
    y
      .positional('action', { type: 'string', describe: 'the action template, NS/NAME (e.g. local/code-coverage)' })
      .option('project', { type: 'string', requiresArg: true, describe: 'the project the plan targets' })
      .option('goal', { type: 'string', requiresArg: true, describe: 'what the plan is for' })
      .option('commit', { type: 'boolean', describe: 'commit the new plan folder with git (default: commit: in config.yaml)' }),
  async run(argv, ctx) {
    const project = argv.project !== undefined ? String(argv.project) : await inferProject(ctx, await ctx.invariants());
    const service = await ctx.plans();
    const r = await service.use({
      action: String(argv.action),
      ...(project !== undefined ? { project } : {}),
      ...(argv.goal !== undefined ? { goal: String(argv.goal) } : {}),
      ...(argv.commit !== undefined ? { commit: argv.commit } : {}),
    });
    const config = await service.config();
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
          // None to list: said without a colon over an empty list (a template of inactive invariants only, or copies skipped).
          n === 0
            ? `  promoted no invariant${r.duplicates.length === 0 ? ' (the template holds no active one)' : ''}`
            : `  promoted ${n} invariant${n === 1 ? '' : 's'}:`,
        ];
        for (const inv of r.promoted) lines.push(`    ${inv.id}  ${inv.text}  ${s.dim(`(from ${inv.source?.origin_id})`)}`);
        for (const d of r.duplicates) lines.push(`  ${s.yellow('skipped')} ${d.origin_id} (same text as ${d.of}): ${d.text}`);
        if (r.commit) lines.push(`  committed ${r.commit.slice(0, 12)}`);
        lines.push('', ...nextStep(r.plan.id, config.reconciliation, ctx.agentsCommand()));
        return lines.join('\n');
      },
    );
    return EXIT_CODES.ok;
  },
});

/**
 * The "Next" line: `plan strategize` when an actor is configured that it can run, else how
 * to configure one (a command actor without its command fails with exit 2). `agents`: the run's, with its --store.
 */
function nextStep(id: string, r: StoreConfig['reconciliation'], agents: string): string[] {
  const strategize = cliFlags(agents).calls.strategize(id);
  // An actor lacking a key it needs (actor-incomplete) would stop the run: it is not chosen yet either.
  const missing = r.actor !== 'command' ? actorNeeds(r, r.actor) : [];
  const ready = r.actor !== 'command' ? missing.length === 0 : r.command !== undefined && r.command.length > 0;
  if (ready) return [`Next: ${strategize}`];
  // The actor is chosen but lacks a key: that key is what to add, not another actor to choose.
  if (missing.length > 0)
    return [
      `Next: the ${r.actor} actor in config.yaml needs ${missing.join(' and ')}: add ${actorNeedsExample(missing)} under reconciliation,`,
      `      then ${strategize}; or judge it yourself: ${strategize} --actor interactive`,
    ];
  return [
    `Next: choose who judges plans (${docsRef('actors.md')}), e.g. set \`reconciliation: {actor: agent, agent: claude}\` in config.yaml,`,
    `      then ${strategize}; or judge it yourself: ${strategize} --actor interactive`,
  ];
}
