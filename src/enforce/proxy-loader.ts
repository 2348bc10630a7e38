// undici is large and only the llm actor behind a proxy needs it: loaded on demand, and the command line's bundle
// takes it from the ES module build (scripts/build.mjs) instead of holding it.
import type { EnvHttpProxyAgent, fetch } from 'undici';

export function loadUndici(): Promise<{ EnvHttpProxyAgent: typeof EnvHttpProxyAgent; fetch: typeof fetch }> {
  return import('./undici-entry.ts');
}
