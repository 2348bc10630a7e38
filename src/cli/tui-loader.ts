/**
 * Loads the terminal UI. The CLI's CommonJS bundle replaces this module with
 * one that imports the UI's ES module build (Ink has top-level awaits, which
 * CommonJS cannot hold): docs/adr/0302-cli-bundle-with-code-cache.md.
 */
export function loadTui(): Promise<typeof import('../tui/index.ts')> {
  return import('../tui/index.ts');
}
