import { type Diagnostic, lineExcerpt } from '../../core/diagnostics.ts';
import type { FileFacts } from '../file-facts.ts';
import type { ContentJob } from './context.ts';

/**
 * Files that parsed cleanly but lack the editor modeline (info; `--fix` adds
 * it). A finding about one file alone: in hook mode (`touches`), only the
 * touched files are looked at.
 */
export function checkModelines(
  jobs: readonly ContentJob[],
  facts: readonly FileFacts[],
  found: readonly Diagnostic[],
  touches?: (path: string) => boolean,
): Diagnostic[] {
  const withErrors = new Set(found.filter((d) => d.severity === 'error').map((d) => d.file));
  const out: Diagnostic[] = [];
  for (let i = 0; i < jobs.length; i++) {
    const entry = jobs[i]!.entry;
    const { m: line, l: at } = facts[i]!;
    if (line === undefined || withErrors.has(entry.path) || (touches !== undefined && !touches(entry.path))) continue;
    out.push({
      code: 'modeline-missing',
      severity: 'info',
      file: entry.path,
      line: at ?? 1,
      col: 1,
      message:
        at === undefined
          ? `no \`# yaml-language-server: $schema=…\` first line; editors cannot validate this file as you type`
          : "the modeline names another schema than this file's copy in schemas/; editors validate the file against the wrong one",
      hint: at === undefined ? 'Run `agents validate --fix` to add it.' : 'Run `agents validate --fix` to replace it.',
      ...lineExcerpt(line, 1),
    });
  }
  return out;
}
