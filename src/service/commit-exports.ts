/**
 * The exported files (repository-relative) that the export-check pre-commit hook finds missing, out of date or
 * refused, when that hook is installed: a commit `--commit` made was refused by it, and the way on is to export and
 * commit them with the change. Empty when the hook does not check exports, or the export cannot say (no targets,
 * an invalid store), so a refusal for any other reason keeps its own hint.
 */
export async function staleExports(root: string): Promise<string[]> {
  try {
    const { hookChecksExports } = await import('../store/hooks.ts');
    if (!(await hookChecksExports(root))) return [];
    const [{ InvariantService }, { ExportService }] = await Promise.all([import('./invariant-service.ts'), import('./export-service.ts')]);
    const plan = await new ExportService(new InvariantService(root)).plan({});
    return [...plan.changes.filter((c) => c.action !== 'unchanged').map((c) => c.path), ...plan.refused.map((r) => r.path)];
  } catch {
    return [];
  }
}
