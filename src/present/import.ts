// The shapes `agents import` prints (docs/json-output.md, "import"): the files read and the rules found in them, what
// was written and what --replace did to the files, as JSON and as the report's text. The command plans, reviews and
// writes; these say it.
import { type ImportFile, type ImportPlan, type PlannedCandidate, plannedScopeName } from '../core/import-plan.ts';
import { instructionKind } from '../core/import-sources.ts';
import type { LeftOut } from '../core/import-split.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import { shellPath } from '../core/shell-word.ts';
import { pathFromCwd } from '../store/current-folder.ts';
import type { Style } from '../core/style.ts';
import type { ReplacePreview, ReplaceResult } from '../service/import-replace.ts';
import type { ImportWritten } from '../service/import-service.ts';
import { staleLine } from './stale-exports.ts';

/** The stable JSON shape of an import (docs/json-output.md). */
export function importJson(
  plan: ImportPlan,
  written: ImportWritten | null,
  replaced: ReplaceResult | null,
  stale: readonly string[] = [],
  preview: readonly (ReplacePreview & { diff: string })[] | null,
  agents: string,
  pruned: readonly { id: string; path: string }[] | null = null,
) {
  return {
    files: plan.files.map((f) => ({
      file: f.file,
      kind: f.kind,
      scope: f.target.kind === 'project' ? { kind: 'project', project: f.target.name } : { kind: f.target.kind },
      skipped: f.skipped ?? (f.target.kind === 'skip' ? f.target.why : null),
      candidates: f.candidates.length,
      not_english: f.notEnglish === true,
      left_out: f.leftOut,
      overlaps: f.overlaps ?? [],
      references: (f.references ?? []).map((r) => ({
        line: r.line,
        path: r.path,
        import: r.missing ? null : referenceCommand(plan, f, r.path, agents),
        missing: r.missing === true,
      })),
    })),
    candidates: plan.candidates.map((c) => ({
      n: c.n,
      file: c.file,
      line: c.line,
      end_line: c.end_line,
      text: c.text,
      tags: c.tags,
      severity: c.severity,
      scope: c.scope.kind === 'project' ? { kind: 'project', project: c.scope.project } : { kind: 'global' },
      status: c.status,
      same_as: c.same_as ?? null,
      near_duplicates: c.near,
    })),
    projects: plan.projects,
    written,
    replaced,
    would_replace:
      preview?.map((p) => ({
        file: p.file,
        removed: p.removed,
        block: p.block,
        removes_file: p.after === null,
        diff: p.diff,
      })) ?? null,
    stale_exports: stale,
    gone_from_files: plan.stale ?? [],
    pruned: pruned?.map((r) => ({ id: r.id, path: r.path })) ?? null,
  };
}

/**
 * The invariants imported from files read here whose text those files no longer say (plan.stale), and what became of
 * them: `pruned` null without --prune, `dryRun` for what --prune would do.
 */
export function goneFromFilesLines(
  s: Style,
  plan: ImportPlan,
  pruned: readonly { id: string }[] | null,
  prune: boolean,
  dryRun: boolean,
  agents: string,
): string[] {
  const gone = plan.stale ?? [];
  if (gone.length === 0) return [];
  const removed = new Set(pruned?.map((r) => r.id));
  const n = gone.length;
  const lines = [
    '',
    s.yellow(
      `${n} invariant${n === 1 ? '' : 's'} imported from these files ${n === 1 ? 'is' : 'are'} no longer in ${n === 1 ? 'its file' : 'their files'} (edited or removed there since the import):`,
    ),
  ];
  for (const g of gone) {
    const mark = removed.has(g.id) ? s.red('-') : s.yellow('?');
    lines.push(`  ${mark} ${g.id}  ${oneLine(g.text)} ${s.dim(`(was ${oneLine(g.file)}:${g.line})`)}`);
  }
  // The review may keep some: those stay marked `?`, and the line counts them.
  const kept = n - gone.filter((g) => removed.has(g.id)).length;
  if (pruned !== null) lines.push(`${s.green('removed')} ${pruned.length} of them (--prune)${kept > 0 ? `; ${kept} not removed` : ''}`);
  else if (prune && dryRun) lines.push(`--prune would remove ${n === 1 ? 'it' : 'them'}. Nothing was removed.`);
  else
    lines.push(
      s.dim(
        `They stay in the store: run the import again with --prune to remove them (the review shows each; --yes removes them all), or \`${oneLine(agents)} invariant remove ID\` for each.`,
      ),
    );
  return lines;
}

/**
 * The command that imports a file a CLAUDE.md or GEMINI.md has its agent read: where the referring
 * file's rules go (an instruction file of its own kind goes where it applies). `agents`: the run's, with its --store.
 */
function referenceCommand(plan: ImportPlan, f: ImportFile, path: string, agents: string): string {
  const word = shellPath(fromHere(plan, path));
  if (instructionKind(path) !== undefined) return `${agents} import ${word}`;
  const where = f.target.kind === 'project' ? ` --project ${f.target.name}` : f.target.kind === 'global' ? ' --global' : '';
  return `${agents} import ${word} --from ${f.kind}${where}`;
}

/** `rel`, a path of the plan (from the top), as a command pasted in the run's current folder reads it. */
function fromHere(plan: ImportPlan, rel: string): string {
  return plan.folders ? pathFromCwd(plan.folders.cwd, plan.folders.top, rel) : rel;
}

/**
 * A file name (or a reason naming one) on one line of the report: a repository's file may be named with a newline,
 * which would otherwise start a line of its own, one that can look like a rule to import.
 */
function oneLine(text: string): string {
  return escapeUnsafe(text);
}

/** `refused`: the candidates the write refused (written.refused), marked `!` rather than `+`, as they were not written. */
export function planText(s: Style, plan: ImportPlan, verbose: boolean, agents: string, refused: ReadonlySet<number> = new Set()): string {
  const lines: string[] = [];
  // Global files first, as the plan weighs them (a rule said there applies everywhere).
  const files = [...plan.files].sort((a, b) => Number(a.target.kind === 'project') - Number(b.target.kind === 'project'));
  // Each file's candidates, gathered in one pass rather than a pass over all of them per file.
  const byFile = new Map<string, PlannedCandidate[]>();
  for (const c of plan.candidates) {
    const list = byFile.get(c.file);
    if (list) list.push(c);
    else byFile.set(c.file, [c]);
  }
  for (const f of files) {
    const skipped = f.skipped ?? (f.target.kind === 'skip' ? f.target.why : undefined);
    if (skipped) {
      lines.push(`${s.yellow('skipped')} ${oneLine(f.file)}: ${oneLine(skipped)}`);
      // A key its agent reads and the import does not may be why (`glob:` for `globs:`): said under the reason.
      for (const l of f.leftOut) if (l.reason === 'front-matter-key') lines.push(leftOutLine(s, l));
      continue;
    }
    const mine = byFile.get(f.file) ?? [];
    // Where its rules go: the review may have moved some of them out of the file's scope.
    const fileScope = f.target.kind === 'project' ? `project ${f.target.name}` : 'global';
    const scopes = new Set(mine.filter((c) => c.status === 'new').map((c) => plannedScopeName(c.scope)));
    const where = scopes.size > 0 ? [...scopes].join(', ') : fileScope;
    // Headings are listed with --verbose only (they name the tags of what follows): the count is of what is listed.
    const left = verbose ? f.leftOut : f.leftOut.filter((l) => l.reason !== 'heading');
    const headings = f.leftOut.length - left.length;
    const more =
      headings > 0
        ? s.dim(` (and ${headings} heading${headings === 1 ? '' : 's'}; --verbose lists ${headings === 1 ? 'it' : 'them'})`)
        : '';
    lines.push(`${s.bold(oneLine(f.file))} → ${where}: ${mine.length} rule${mine.length === 1 ? '' : 's'}, ${left.length} left out${more}`);
    for (const o of f.overlaps ?? [])
      lines.push(
        s.yellow(
          `    overlaps project ${o.project} (${oneLine(o.paths.join(', '))}), as projects.allow_overlap allows: both hold some of the same files`,
        ),
      );
    // Its rules were not told from descriptions by their words (English ones): say so, rather than pass them as judged.
    if (f.notEnglish)
      lines.push(
        s.yellow(
          '    not English: each list item is taken as it stands (the words that make a rule are known in English only): review them',
        ),
      );
    for (const c of mine) {
      const mark = refused.has(c.n)
        ? s.yellow('!')
        : c.status === 'new'
          ? s.green('+')
          : s.dim(c.status === 'exists' ? '=' : c.status === 'dropped' ? '-' : '~');
      const to = plannedScopeName(c.scope);
      const moved = c.status === 'new' && to !== fileScope ? s.dim(`  (→ ${to})`) : '';
      const note =
        c.status === 'dropped'
          ? s.dim('  (dropped in the review)')
          : c.status === 'exists' && c.same_as && 'id' in c.same_as
            ? s.dim(`  (already in the store${c.same_as.inactive ? ', inactive' : ''}: ${c.same_as.id})`)
            : c.status === 'duplicate' && c.same_as && 'file' in c.same_as
              ? s.dim(`  (said before at ${oneLine(c.same_as.file)}:${c.same_as.line})`)
              : c.near.length > 0
                ? s.yellow(`  (near-duplicate of ${c.near.map((n) => n.id).join(', ')})`)
                : '';
      lines.push(
        `  ${mark} ${String(c.line).padStart(4)}  ${c.text} ${s.dim(`[${c.severity}${c.tags.length ? `; ${c.tags.join(', ')}` : ''}]`)}${moved}${note}`,
      );
    }
    for (const l of left) lines.push(leftOutLine(s, l));
    for (const r of f.references ?? [])
      lines.push(
        s.yellow(
          r.missing
            ? `    missing ${String(r.line).padStart(7)}  ${oneLine(r.path)}, which the agent is told to read, does not exist: nothing of it is imported; fix the @ link at ${oneLine(f.file)}:${r.line}`
            : `    not read ${String(r.line).padStart(7)}  ${oneLine(r.path)}, which the agent reads too: ${oneLine(referenceCommand(plan, f, r.path, agents))}`,
        ),
      );
  }
  return lines.join('\n');
}

/** One piece of a file left out, with its lines and why. */
function leftOutLine(s: Style, l: LeftOut): string {
  const at = l.line === l.end_line ? `${l.line}` : `${l.line}-${l.end_line}`;
  return s.dim(`    left out ${at.padStart(7)}  ${l.reason}: ${l.excerpt}`);
}

export function importSummary(plan: ImportPlan): string {
  const fresh = plan.candidates.filter((c) => c.status === 'new');
  const wanted = new Set(fresh.map((c) => c.scope.project));
  const creates = plan.projects.filter((p) => !p.exists && wanted.has(p.name));
  const by = new Map<string, number>();
  for (const c of fresh) {
    const k = c.scope.kind === 'global' ? 'global' : c.scope.project!;
    by.set(k, (by.get(k) ?? 0) + 1);
  }
  const parts = [...by].map(([k, n]) => `${k} ${n}`).join(', ');
  return `${fresh.length} new invariant${fresh.length === 1 ? '' : 's'}${parts ? ` (${parts})` : ''}${
    creates.length ? `, ${creates.length} new project${creates.length === 1 ? '' : 's'} (${creates.map((p) => p.name).join(', ')})` : ''
  }`;
}

/** The text of `import --dry-run`: the plan, what --replace would change (its diff made safe to print), and the total. */
export function importPreviewText(
  s: Style,
  plan: ImportPlan,
  verbose: boolean,
  preview: readonly unknown[] | null,
  safeDiffs: string,
  agents: string,
): string {
  return [
    planText(s, plan, verbose, agents),
    ...(preview === null
      ? []
      : [
          '',
          preview.length === 0
            ? '--replace would change no file.'
            : `--replace would change these files (the block is filled by \`agents export\`):\n${safeDiffs.replace(/\n$/, '')}`,
        ]),
    '',
    `Would write ${importSummary(plan)}. Nothing was written.`,
  ].join('\n');
}

/**
 * The text of an import that wrote: the plan as the review left it, the files written, what --replace did, and the
 * exported files now stale. `again` is the command that runs this import again with --replace (of `paths`); `agents`
 * the start of a command to paste, with the run's --store (CliContext.agentsCommand).
 */
export function importDoneText(
  s: Style,
  done: ImportPlan,
  verbose: boolean,
  written: ImportWritten,
  replaced: ReplaceResult | null,
  stale: readonly string[],
  again: (paths?: string[]) => string,
  agents = 'agents',
  /** The import that takes the written rules' lines out of their files (--replace), when this one left them there. */
  next?: string,
): string {
  const lines = [
    planText(s, done, verbose, agents, new Set(written.refused.map((r) => r.n))),
    '',
    `${s.green('imported')} ${written.invariants.length} invariant${written.invariants.length === 1 ? '' : 's'}`,
  ];
  for (const w of written.invariants) lines.push(`  ${w.path}`);
  for (const r of written.refused) {
    const c = done.candidates[r.n - 1]!;
    lines.push(`${s.yellow('not imported')} ${oneLine(c.file)}:${c.line}: ${r.why}`);
  }
  for (const f of replaced?.files ?? [])
    lines.push(
      `${s.green('replaced')} ${f.removed.length} line${f.removed.length === 1 ? '' : 's'} of ${oneLine(f.file)}${f.block ? ' with the managed block' : ''}`,
    );
  // The export's files it leaves alone are said first: a rule their target would carry stays for that reason.
  for (const r of replaced?.refused ?? [])
    lines.push(
      `${s.yellow('not exported')} ${oneLine(r.path)}: ${r.status}, so the export leaves it alone and the rules it would hold keep their lines (\`${oneLine(agents)} export\` says how to repair it; then run \`${oneLine(again())}\`)`,
    );
  for (const u of replaced?.unexported ?? [])
    lines.push(
      `${s.yellow('not replaced')} ${oneLine(u.file)}:${u.line}: the export (${u.target}) writes this rule in no file (its project has no paths, or none ${u.target} can express${replaced!.refused.length > 0 ? ', or its file is left alone' : ''}), so its line stays`,
    );
  for (const file of replaced?.changed ?? [])
    lines.push(
      `${s.yellow('not replaced')} ${oneLine(file)}: it changed since it was read, so its lines stay; run \`${oneLine(again([fromHere(done, file)]))}\` again`,
    );
  for (const p of replaced?.exported ?? []) lines.push(`${s.green('exported')} ${oneLine(p)}`);
  for (const p of replaced?.emptied ?? []) {
    // A link removed with the file it led to held no headings of its own: it is said as what it was.
    const link = replaced!.emptied_links.find((l) => l.file === p);
    // A rule file (.cursor/rules/style.mdc) goes for its agent reads the export's own file beside it.
    const kind = done.files.find((f) => f.file === p)?.kind;
    const folderFile = kind === 'agents-md' || kind === 'claude-md' || kind === 'gemini-md';
    lines.push(
      link === undefined && !folderFile
        ? `${s.green('removed')} ${oneLine(p)}: only its front matter and headings were left in it, and its rules reach its agent through the export's files`
        : link === undefined
          ? `${s.green('removed')} ${oneLine(p)}: only headings were left in it, and agents in its folder now read the file above it`
          : `${s.green('removed')} ${oneLine(p)}: it ${link.link === 'symbolic' ? 'was a symbolic link' : 'said nothing but a reference'} to ${oneLine(link.to)}, removed above, so it would lead nowhere`,
    );
  }
  if (stale.length > 0) lines.push(s.yellow(staleLine(stale, agents)));
  if (next !== undefined)
    lines.push(
      '',
      `Next: review them (\`${oneLine(agents)} invariant list\`), then \`${oneLine(next)}\` takes their lines out of the files, where the export's block says them from then on`,
    );
  return lines.join('\n');
}
