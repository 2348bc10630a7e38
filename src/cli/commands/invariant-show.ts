import { EXIT_CODES } from '../../core/errors.ts';
import { describeScope } from '../../core/model.ts';
import { defineCommand } from '../command.ts';
import { emit, invariantJson, shadowJson } from '../render.ts';

export default defineCommand<{ id: string }>({
  command: 'show <id>',
  describe: 'Show everything about one invariant, and where it applies',
  builder: (y) => y.positional('id', { type: 'string', describe: 'id or unique prefix (4+ characters)' }),
  async run(argv, ctx) {
    const r = await (await ctx.invariants()).show(String(argv.id));
    const inv = r.invariant;
    const s = ctx.style;
    emit(
      ctx,
      {
        ...invariantJson(inv),
        applies_to: r.appliesTo,
        plans_targeting: r.plansTargeting ?? null,
        shadows: r.shadow.shadows.map((o) => shadowJson({ id: o.id, scope: o.scope, path: o.path })),
        shadowed_by: r.shadow.shadowedBy.map((o) => shadowJson({ id: o.id, scope: o.scope, path: o.path })),
      },
      () => {
        const rows: [string, string][] = [
          ['id', inv.id],
          ['text', inv.text],
          ['scope', describeScope(inv.scope)],
          ['severity', inv.severity],
          ['active', String(inv.active)],
        ];
        if (inv.tags.length) rows.push(['tags', inv.tags.join(', ')]);
        if (inv.rationale) rows.push(['rationale', inv.rationale]);
        if (inv.created_at) rows.push(['created at', inv.created_at]);
        if (inv.created_by) rows.push(['created by', inv.created_by]);
        if (inv.source) rows.push(['source', [inv.source.kind, inv.source.ref, inv.source.origin_id].filter(Boolean).join(' ')]);
        rows.push(['path', inv.path]);
        rows.push(['applies to', r.appliesTo]);
        for (const o of r.shadow.shadows) rows.push(['shadows', `${describeScope(o.scope)} ${o.id}`]);
        for (const o of r.shadow.shadowedBy) rows.push(['shadowed by', `${describeScope(o.scope)} ${o.id}`]);
        const width = Math.max(...rows.map(([k]) => k.length));
        return rows.map(([k, v]) => `${s.dim(k.padEnd(width))}  ${v.replace(/\n/g, `\n${' '.repeat(width + 2)}`)}`).join('\n');
      },
    );
    return EXIT_CODES.ok;
  },
});
