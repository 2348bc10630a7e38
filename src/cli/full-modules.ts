/**
 * What the guard hook's own bundle (dist/hook.cjs) takes from the full
 * bundle (docs/adr/0508-the-guard-hook-bundle.md): each module the hook's
 * code imports on demand, by its path from the repository's top, evaluated
 * on first use. Filled in by the build (scripts/build.mjs) with the modules
 * that bundle asks for; empty everywhere else, where nothing asks.
 */
export const fullModules: Readonly<Record<string, () => unknown>> = {};
