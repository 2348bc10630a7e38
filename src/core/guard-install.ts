/**
 * Each client's project settings for the guard hook (docs/guard.md,
 * "Install"): where they live and how our entry is merged into whatever
 * else they hold. Pure: the command reads and writes the files.
 */
import type { GuardClient } from './guard-clients.ts';

/** The settings file of each client, relative to the repository's top. */
export const SETTINGS_FILE: Record<GuardClient, string> = {
  claude: '.claude/settings.json',
  codex: '.codex/hooks.json',
  gemini: '.gemini/settings.json',
  cursor: '.cursor/hooks.json',
};

type Json = Record<string, unknown>;

/** Our entry is the one whose command runs `guard hook`: found again on the next install, never added twice. */
const OURS = /\bguard hook\b/;

/** The hook command line for a client: `<program> guard hook --client <client>`. */
export function hookCommand(program: string, client: GuardClient): string {
  return `${program} guard hook --client ${client}`;
}

const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

/** The event lists of each client, and the group (matcher + hooks) or plain entry we put in each. */
function wanted(client: GuardClient, command: string): { event: string; entry: Json }[] {
  switch (client) {
    case 'claude':
      return [{ event: 'PreToolUse', entry: { matcher: '*', hooks: [{ type: 'command', command, timeout: 30 }] } }];
    case 'codex':
      return [{ event: 'PreToolUse', entry: { matcher: '.*', hooks: [{ type: 'command', command, timeout: 30 }] } }];
    case 'gemini':
      return [
        { event: 'BeforeTool', entry: { matcher: '.*', hooks: [{ type: 'command', name: 'agents-guard', command, timeout: 30000 }] } },
      ];
    case 'cursor':
      return [
        { event: 'beforeShellExecution', entry: { command } },
        { event: 'beforeMCPExecution', entry: { command } },
        { event: 'preToolUse', entry: { command, matcher: 'Write|Edit|MultiEdit|StrReplace|Delete' } },
      ];
  }
}

/** Whether one entry of an event's list is ours (a group holding our command, or Cursor's plain entry). */
function isOurs(entry: unknown): boolean {
  const e = obj(entry);
  if (typeof e.command === 'string' && OURS.test(e.command)) return true;
  return Array.isArray(e.hooks) && e.hooks.some((h) => typeof obj(h).command === 'string' && OURS.test(obj(h).command as string));
}

/**
 * The settings with our hook in each event list, everything else kept as it
 * was (other keys, other hooks, their order). Our old entry is replaced in
 * place, so a second install changes nothing.
 */
export function mergeSettings(client: GuardClient, settings: Json, program: string): Json {
  const out: Json = structuredClone(settings);
  if (client === 'cursor' && out.version === undefined) out.version = 1;
  const hooks = obj(out.hooks);
  for (const { event, entry } of wanted(client, hookCommand(program, client))) {
    const list = Array.isArray(hooks[event]) ? [...(hooks[event] as unknown[])] : [];
    const at = list.findIndex(isOurs);
    if (at >= 0) list[at] = entry;
    else list.push(entry);
    hooks[event] = list;
  }
  out.hooks = hooks;
  return out;
}

/** Whether the settings already run our hook for every event the client needs. */
export function hasHook(client: GuardClient, settings: Json): boolean {
  const hooks = obj(settings.hooks);
  return wanted(client, '').every(({ event }) => Array.isArray(hooks[event]) && (hooks[event] as unknown[]).some(isOurs));
}
