// The line text output adds when a write made exported instruction files stale (import, extends update).

/** The line that says which exported files a write made stale, and what to run. */
export function staleLine(stale: readonly string[]): string {
  return `Exported files now stale: ${stale.join(', ')}. Run \`agents export\` to bring them in step.`;
}
