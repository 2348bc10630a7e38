import { loadTui } from '../tui-loader.ts';
import { abortOnStopSignals } from '../stop-signals.ts';
import { EXIT_CODES, UsageError } from '../../core/errors.ts';
import type { SyncResult } from '../../service/plan-service.ts';
import { defineCommand } from '../command.ts';
import { requireInteractive, tuiIo } from '../interactive.ts';
import { activeChangeText, planJson } from '../../present/plan.ts';
import { emit } from '../render.ts';
import { invariantJson } from '../../present/invariant.ts';
import type { Style } from '../../core/style.ts';

interface SyncArgs {
  id: string;
  yes?: boolean;
  dryRun?: boolean;
  commit?: boolean;
}

/** The stable JSON shape of a sync (docs/json-output.md). */
function syncJson(r: SyncResult) {
  return {
    plan: planJson(r.plan),
    applied: r.applied,
    changes: r.changes.map((c) => ({
      kind: c.kind,
      action: c.drift.action,
      origin_id: c.drift.origin_id,
      plan_invariant_id: c.kind === 'added' ? (c.after?.id ?? null) : c.before.id,
      fields: c.drift.fields ?? [],
      before: c.kind === 'added' ? null : invariantJson(c.before),
      after:
        c.kind === 'removed'
          ? null
          : c.kind === 'changed'
            ? invariantJson(c.after)
            : c.after
              ? invariantJson(c.after)
              : { text: c.origin.text, severity: c.origin.severity },
    })),
    skipped: r.skipped.map((k) => ({ kind: k.drift.kind, action: k.drift.action, origin_id: k.drift.origin_id, reason: k.reason })),
    commit: r.commit ?? null,
  };
}

function syncText(s: Style, r: SyncResult): string {
  const lines: string[] = [];
  const n = r.changes.length;
  if (n === 0)
    lines.push(`plan ${r.plan.id} is in step with its action template${r.skipped.length ? ' (apart from what is skipped below)' : ''}`);
  else lines.push(`${r.applied ? s.green('synced') : 'would sync'} plan ${s.bold(r.plan.id)}: ${n} change${n === 1 ? '' : 's'}`);
  for (const c of r.changes) {
    if (c.kind === 'changed') {
      lines.push(`  ${s.yellow('changed')}  ${c.before.id} (${(c.drift.fields ?? []).join(', ')})`);
      if (c.before.text !== c.after.text) lines.push(`      "${c.before.text}" → "${c.after.text}"`);
      if (c.before.severity !== c.after.severity) lines.push(`      severity ${c.before.severity} → ${c.after.severity}`);
      const active = activeChangeText(c.before, c.after);
      if (active) lines.push(`      ${active}`);
    } else if (c.kind === 'removed') {
      lines.push(`  ${s.red('removed')}  ${c.before.id} "${c.before.text}" (origin ${c.drift.origin_id} left ${c.drift.action})`);
    } else {
      lines.push(`  ${s.green('added')}    ${c.after ? `${c.after.id} ` : ''}"${c.origin.text}" (from ${c.drift.action} ${c.origin.id})`);
    }
  }
  for (const k of r.skipped) lines.push(`  ${s.dim(`skipped  ${k.drift.kind} ${k.drift.origin_id}: ${k.reason}`)}`);
  if (r.commit) lines.push(`  committed ${r.commit.slice(0, 12)}`);
  return lines.join('\n');
}

export default defineCommand<SyncArgs>({
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'plan id or unique prefix (4+ characters)' })
      .option('yes', { alias: 'y', type: 'boolean', describe: 'apply without asking' })
      .option('dry-run', { type: 'boolean', describe: 'only show the changes; write nothing' })
      .option('commit', { type: 'boolean', describe: 'commit the changed files with git (default: commit: in config.yaml)' })
      .conflicts('yes', 'dry-run'),
  async run(argv, ctx) {
    const service = await ctx.plans();
    const s = ctx.style;
    const commit = argv.commit !== undefined ? { commit: argv.commit } : {};
    let declined = false;
    let r: SyncResult;
    const confirm = async (preview: SyncResult): Promise<boolean> => {
      if (!ctx.interactive) {
        // No terminal to ask in: show what it would change (on stderr: a failure prints nothing on stdout), and which flag applies it.
        if (ctx.format === 'text') ctx.io.stderr.write(`${syncText(s, preview)}\n`);
        throw new UsageError(
          'confirmation needed, but this is not an interactive terminal (or --no-input was given)',
          `Nothing was changed. Run again with --yes to apply the ${preview.changes.length === 1 ? 'change' : `${preview.changes.length} changes`} shown.`,
          { flag: '--yes', changes: preview.changes.length },
          'confirmation-needed',
        );
      }
      requireInteractive(ctx);
      const { runConfirmSync } = await loadTui();
      declined = !(await ctx.onScreen(() => runConfirmSync(tuiIo(ctx), preview)));
      return !declined;
    };
    if (argv.dryRun) r = await service.sync(String(argv.id), { apply: false });
    else {
      // A stop before the first write cancels the sync; once the plan's files are being written, they are written whole,
      // and the run then ends as the signal asks.
      r = await abortOnStopSignals(
        'the plan was left as it was; nothing was synced.',
        (signal) =>
          service.sync(String(argv.id), {
            apply: true,
            ...commit,
            signal,
            ...(argv.yes ? {} : { confirm }),
          }),
        (done) =>
          !done.applied || done.changes.length === 0
            ? 'nothing was synced.'
            : `plan ${done.plan.id} was synced whole (${done.changes.length} ${done.changes.length === 1 ? 'change' : 'changes'}${done.commit === undefined ? '' : `, commit ${done.commit.slice(0, 12)}`}): nothing is left to sync.`,
      );
    }
    if (declined) {
      // As every form answered no (n or Esc): nothing changed, exit 1 (docs/tui.md).
      ctx.io.stderr.write('Nothing synced.\n');
      return EXIT_CODES.checkFailed;
    }
    emit(ctx, syncJson(r), () => syncText(s, r));
    return EXIT_CODES.ok;
  },
});
