import type { Diagnostic } from '../../core/diagnostics.ts';
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
    const line = facts[i]!.m;
    if (line === undefined || withErrors.has(entry.path) || (touches !== undefined && !touches(entry.path))) continue;
    out.push({
      code: 'modeline-missing',
      severity: 'info',
      file: entry.path,
      line: 1,
      col: 1,
      message: `no \`# yaml-language-server: $schema=…\` first line; editors cannot validate this file as you type`,
      hint: 'Run `agents validate --fix` to add it.',
      lineText: line,
    });
  }
  return out;
}
