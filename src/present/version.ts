import pkg from '../../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;

declare const __AGENTS_BUILD_ID__: string | undefined;

/**
 * Identifies the code of this build (a digest of its sources, set by
 * scripts/build.mjs): caches of checked files are valid for one build only.
 * Run from the sources, without a build, it is the version alone.
 */
export const BUILD_ID: string = typeof __AGENTS_BUILD_ID__ === 'string' ? __AGENTS_BUILD_ID__ : `${pkg.version}+source`;
