import { EXIT_CODES } from '../../core/errors.ts';
import { describeScope } from '../../core/model.ts';
import { location } from '../../core/diagnostics.ts';
import { defineCommand } from '../command.ts';
import { emit } from '../render.ts';

export default defineCommand<{ id: string }>({
  builder: (y) => y.positional('id', { type: 'string', describe: 'id or unique prefix (4+ characters); removed invariants too' }),
  async run(argv, ctx) {
    const r = await (await ctx.review()).log(String(argv.id));
    const s = ctx.style;
    emit(
      ctx,
      {
        id: r.id,
        deleted: r.deleted,
        path: r.path ?? null,
        shallow: r.shallow,
        events: r.events.map((e) => ({
          commit: e.commit,
          author: e.author,
          email: e.email,
          date: e.date,
          subject: e.subject,
          change: e.change,
          path: e.path,
          scope: describeScope(e.scope),
          from_path: e.fromPath ?? null,
          from_scope: e.fromScope ? describeScope(e.fromScope) : null,
          text: e.text ?? null,
          fields: e.fields.map((f) => ({ field: f.field, before: f.before, after: f.after })),
          invalid: e.invalid
            ? { code: e.invalid.code, file: e.invalid.file, line: e.invalid.line, col: e.invalid.col, message: e.invalid.message }
            : null,
        })),
      },
      () => {
        const newest = r.events[0];
        const state = r.deleted ? s.red(`removed in ${newest!.commit.slice(0, 12)}`) : `now ${r.path}`;
        const lines = [`${s.bold(r.id)}  ${state}`];
        if (r.shallow) lines.push(s.yellow('note: this is a shallow clone; older history may be missing (git fetch --unshallow).'));
        for (const e of r.events) {
          lines.push('', `${s.yellow(e.commit.slice(0, 12))}  ${e.date}  ${e.author} <${e.email}>`, `    ${e.subject}`);
          switch (e.change) {
            case 'added':
              lines.push(`  ${s.green('added')} to ${describeScope(e.scope)}${quoted(e.text)}`);
              break;
            case 'removed':
              lines.push(`  ${s.red('removed')} from ${describeScope(e.scope)}${quoted(e.text)}`);
              break;
            case 'moved':
              lines.push(`  ${s.cyan('moved')} from ${describeScope(e.fromScope!)} to ${describeScope(e.scope)}`);
              break;
            case 'edited':
              lines.push(`  ${s.cyan('edited')} in ${describeScope(e.scope)}`);
              break;
          }
          for (const f of e.fields) lines.push(`    ${f.field}: ${JSON.stringify(f.before)} → ${JSON.stringify(f.after)}`);
          if (e.invalid) lines.push(`    ${s.red('invalid here:')} ${location(e.invalid)} ${e.invalid.message}`);
        }
        return lines.join('\n');
      },
    );
    return EXIT_CODES.ok;
  },
});

/** `: "TEXT"`, or nothing when no version says the text (a file that never parsed): never an empty text it did not have. */
function quoted(text: string | undefined): string {
  return text === undefined ? '' : `: ${JSON.stringify(text)}`;
}
