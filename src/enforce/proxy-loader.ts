// undici is large and only the llm actor behind a proxy, or with a timeout_ms past undici's own limits, needs it:
// loaded on demand, and the command line's bundle takes it from the ES module build (scripts/build.mjs) instead of holding it.
import type { Agent, EnvHttpProxyAgent, fetch } from 'undici';

export function loadUndici(): Promise<{ Agent: typeof Agent; EnvHttpProxyAgent: typeof EnvHttpProxyAgent; fetch: typeof fetch }> {
  return import('./undici-entry.ts');
}
