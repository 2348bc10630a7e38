import { structuredPatch } from 'diff';

/**
 * A unified diff of two texts (as `diff -u` / `git diff` print it), for
 * `agents export --dry-run`. Line-based, three lines of context; `before`
 * undefined is a new file, `after` undefined a deleted one. The line diff is
 * jsdiff's (Myers, linear in memory): a hand-written longest common
 * subsequence took tens of seconds on a large AGENTS.md (docs/adr/0100-unified-diff-from-jsdiff.md).
 */
export function unifiedDiff(path: string, before: string | undefined, after: string | undefined, context = 3): string {
  const { hunks } = structuredPatch(path, path, before ?? '', after ?? '', undefined, undefined, { context });
  if (hunks.length === 0) return '';
  const out = [`--- ${before === undefined ? '/dev/null' : `a/${path}`}`, `+++ ${after === undefined ? '/dev/null' : `b/${path}`}`];
  for (const h of hunks) {
    // An empty side starts before its first line, as diff and git number it.
    out.push(
      `@@ -${h.oldLines === 0 ? h.oldStart - 1 : h.oldStart},${h.oldLines} +${h.newLines === 0 ? h.newStart - 1 : h.newStart},${h.newLines} @@`,
    );
    out.push(...h.lines);
  }
  return `${out.join('\n')}\n`;
}
