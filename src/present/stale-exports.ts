// The line text output adds when a write made exported instruction files stale (import, extends update).

/**
 * The line that says which exported files a write made stale, and what to run: `agents` is the start of the command as
 * the run was given it (CliContext.agentsCommand, its --store), so that, pasted, it exports the same store.
 */
export function staleLine(stale: readonly string[], agents = 'agents'): string {
  return `Exported files now stale: ${stale.join(', ')}. Run \`${agents} export\` to bring them in step.`;
}
