// What the llm actor takes from undici: an entry of its own in the ES module build (scripts/build.mjs).
export { Agent, EnvHttpProxyAgent, fetch } from 'undici';
