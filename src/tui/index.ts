/**
 * The terminal UI's entry points, in one module: the CLI loads it on demand
 * through `cli/tui-loader.ts` (Ink needs ES modules; docs/adr/0302-cli-bundle-with-code-cache.md).
 */
export { runAddForm, runEditForm } from './add.tsx';
export { runBrowser } from './browse.tsx';
export { runImportReview } from './import.tsx';
export { askPerson } from './reconcile.tsx';
export { runConfirmPlanRemove } from './plan-remove.tsx';
export { runConfirmRemove } from './remove.tsx';
export { runConfirmSync } from './sync.tsx';
