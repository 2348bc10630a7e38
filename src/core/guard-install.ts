/**
 * Each client's project settings for the guard hook (docs/guard.md,
 * "Install"): where they live and how our entry is merged into whatever
 * else they hold. Pure: the command reads and writes the files.
 */
import { applyEdits, type FormattingOptions, modify, type ParseError, parse, printParseErrorCode } from 'jsonc-parser';
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

/** A settings file that cannot be merged into: where it breaks, and why (`syntax`: it is not JSON; else no object). */
export interface SettingsProblem {
  offset: number;
  reason: string;
  syntax: boolean;
}

/** The indentation and line ends a settings file is written with, for what is inserted into it. */
function formattingOf(text: string): FormattingOptions {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
  return {
    insertSpaces: !indent.startsWith('\t'),
    tabSize: indent.startsWith('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/**
 * The text of a client's settings with our hook merged in (as
 * {@link mergeSettings} merges the values), every other byte of the file
 * kept: its comments (Gemini CLI's settings take them), its indentation,
 * its other hooks. Only the entries that change are written; a file that
 * already holds them comes back unchanged; `settings` is what the file held
 * before. A file that is not a JSON object (comments and trailing commas
 * allowed) is a problem at its offset.
 */
export function mergeSettingsText(
  client: GuardClient,
  text: string | undefined,
  program: string,
): { text: string; settings: Json } | SettingsProblem {
  if (text === undefined || text.trim() === '') {
    return { text: `${JSON.stringify(mergeSettings(client, {}, program), null, 2)}\n`, settings: {} };
  }
  // A byte order mark (a Windows editor's) is no JSON: the settings after it are merged, and it stays in front.
  if (text.charCodeAt(0) === 0xfeff) {
    const merged = mergeSettingsText(client, text.slice(1), program);
    return 'reason' in merged ? { ...merged, offset: merged.offset + 1 } : { ...merged, text: `\uFEFF${merged.text}` };
  }
  const errors: ParseError[] = [];
  const data: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  if (errors.length > 0) {
    // ValueExpected → "value expected".
    const reason = printParseErrorCode(errors[0]!.error)
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase();
    return { offset: errors[0]!.offset, reason, syntax: true };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { offset: 0, reason: 'not a JSON object', syntax: false };
  const settings = data as Json;
  const merged = mergeSettings(client, settings, program);
  const formattingOptions = formattingOf(text);
  let out = text;
  const set = (path: (string | number)[], value: unknown, isArrayInsertion = false) => {
    out = applyEdits(out, modify(out, path, value, { formattingOptions, isArrayInsertion }));
  };
  if (merged.version !== settings.version) set(['version'], merged.version);
  const before = obj(settings.hooks);
  const after = obj(merged.hooks);
  // A `hooks` that is no object holds nothing of a client's: it is replaced whole, as mergeSettings does.
  if (settings.hooks !== undefined && before !== settings.hooks) {
    set(['hooks'], after);
    return { text: out, settings };
  }
  for (const event of Object.keys(after)) {
    const old = before[event];
    const now = after[event] as unknown[];
    if (!Array.isArray(old)) {
      set(['hooks', event], now);
      continue;
    }
    // The list is kept, entry by entry: ours replaced where it stood, or added at its end.
    const at = old.findIndex(isOurs);
    const index = at >= 0 ? at : old.length;
    if (JSON.stringify(old[index]) !== JSON.stringify(now[index])) set(['hooks', event, index], now[index], at < 0);
  }
  return { text: out, settings };
}
