/**
 * Each client's project settings for the guard hook (docs/guard.md,
 * "Install"): how our entry (./guard-hook-entry.ts) is merged into whatever
 * else they hold, and what in them would keep it from running. Pure: the
 * command reads and writes the files.
 */
import {
  type FormattingOptions,
  findNodeAtLocation,
  getNodeValue,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';
import { MAX_SETTINGS_NESTING } from './limits.ts';
import { appendJson, removeJson, setJson } from './json-edit.ts';
import type { GuardClient } from './guard-clients.ts';
import { docsRef } from './docs-link.ts';
import { GEMINI_HOOK_NAME, groupHooks, hookCommand, type Json, obj, OURS, ourCommand, wanted } from './guard-hook-entry.ts';

/**
 * How each client parses its settings file, which it skips whole (every hook in it), or stops at, when it cannot:
 * Claude Code as strict JSON, a byte order mark in front allowed; Codex CLI as strict JSON; Gemini CLI as JSON with
 * its comments stripped (no trailing comma, no byte order mark). Cursor's was not seen, so both are taken.
 * An install that merged into a file the client skips would report a hook that never runs.
 */
const DIALECT: Record<GuardClient, { name: string; comments: boolean; trailingCommas: boolean; bom: boolean; words: string }> = {
  claude: {
    name: 'Claude Code',
    comments: false,
    trailingCommas: false,
    bom: true,
    words: 'strict JSON, without comments or trailing commas',
  },
  codex: {
    name: 'Codex CLI',
    comments: false,
    trailingCommas: false,
    bom: false,
    words: 'strict JSON, without comments or trailing commas',
  },
  gemini: { name: 'Gemini CLI', comments: true, trailingCommas: false, bom: false, words: 'JSON with comments, without trailing commas' },
  cursor: { name: 'Cursor', comments: true, trailingCommas: true, bom: true, words: 'JSON with comments and trailing commas' },
};

/** The parser's options for a client's dialect. */
const parseOptions = (client: GuardClient) => ({
  allowTrailingComma: DIALECT[client].trailingCommas,
  disallowComments: !DIALECT[client].comments,
  allowEmptyContent: false,
});

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** One change to an event's list: a value set at a path below it, an entry added at its end, or an item taken out. */
type Change = { set: (string | number)[]; value: unknown } | { append: Json } | { remove: (string | number)[] };

/**
 * The changes that put `entry` into an event's list, leaving every hook of
 * the user's where it is. A group (matcher and hooks) holding our hook beside
 * others is shared: only our hook object in it is replaced; when its matcher
 * is not ours, our hook is taken out of it (the others stay) and our group
 * added. A group of our hook alone, or Cursor's plain entry, is replaced where
 * it stands. Every other hook of ours in the list (another program's, left by a
 * merge of two installs) is taken out: the client would run it too, and one
 * whose program is gone denies each call. None: the list already holds it.
 */
function listChanges(list: readonly unknown[], entry: Json): Change[] {
  const hook = groupHooks(entry)?.[0];
  // The one kept (replaced when it differs) goes first, as it changes no index; then the others, from the last.
  if (hook === undefined) {
    const mine = list.flatMap((e, i) => (ourCommand(e) ? [i] : []));
    if (mine.length === 0) return [{ append: entry }];
    const at = mine[0]!;
    const keep: Change[] = same(list[at], entry) ? [] : [{ set: [at], value: entry }];
    return [
      ...keep,
      ...mine
        .slice(1)
        .reverse()
        .map((i): Change => ({ remove: [i] })),
    ];
  }
  const ours = (g: unknown) => (groupHooks(g) ?? []).flatMap((h, j) => (ourCommand(h) ? [j] : []));
  const mine = (g: unknown) => ours(g).length > 0;
  const exact = list.findIndex((g) => mine(g) && obj(g).matcher === entry.matcher);
  const whole = exact >= 0 ? -1 : list.findIndex((g) => mine(g) && groupHooks(g)!.every(ourCommand));
  const out: Change[] = [];
  if (exact >= 0) {
    const j = ours(list[exact])[0]!;
    if (!same(groupHooks(list[exact])![j], hook)) out.push({ set: [exact, 'hooks', j], value: hook });
  } else if (whole >= 0) out.push({ set: [whole], value: entry });
  for (let g = list.length - 1; g >= 0; g--) {
    if (g === whole || !mine(list[g])) continue;
    const js = ours(list[g]);
    if (g === exact) js.shift();
    else if (groupHooks(list[g])!.every(ourCommand)) {
      out.push({ remove: [g] });
      continue;
    }
    for (const j of js.reverse()) out.push({ remove: [g, 'hooks', j] });
  }
  return exact >= 0 || whole >= 0 ? out : [...out, { append: entry }];
}

/** The settings of a new file: our entries alone. */
function freshSettings(client: GuardClient, program: string): Json {
  const hooks: Json = {};
  for (const { event, entry } of wanted(client, hookCommand(program, client))) hooks[event] = [entry];
  return client === 'cursor' ? { version: 1, hooks } : { hooks };
}

/** A settings file that cannot be merged into: where it breaks, and why (`syntax`: it is not JSON; else no object). */
export interface SettingsProblem {
  offset: number;
  reason: string;
  syntax: boolean;
  /** What to do, when it is not to reshape the hooks. */
  hint?: string;
}

/**
 * The value at `path` as the clients read it (JSON.parse's way): of a key given twice in one object, the last. A
 * first `"disableAllHooks": false` before a second `true` left the hook off unseen.
 */
function lastAt(root: Node, path: readonly string[]): Node | undefined {
  let node: Node | undefined = root;
  for (const key of path) {
    if (node?.type !== 'object') return undefined;
    node = node.children?.findLast((member) => member.children?.[0]?.value === key)?.children?.[1];
  }
  return node;
}

/**
 * Where Gemini CLI's own settings keep every hook of the file from running (`enabled: false`), or ours (`disabled`
 * naming it), under `hooksConfig` or, in its earlier versions, `hooks`: the entry would be written and found, and
 * never run.
 */
function geminiSwitchedOff(root: Node, setBack: SetBack): SettingsProblem | undefined {
  for (const at of ['hooksConfig', 'hooks']) {
    const enabled = lastAt(root, [at, 'enabled']);
    if (enabled?.value === false && !setBack([at, 'enabled']))
      return {
        offset: enabled.offset,
        reason: `"${at}"."enabled" is false, so Gemini CLI runs no hook, the guard's neither`,
        syntax: false,
        hint: 'Set it to true (or remove it), then run the install again. Nothing was written.',
      };
    const disabled = lastAt(root, [at, 'disabled']);
    for (const item of disabled?.type === 'array' ? (disabled.children ?? []) : []) {
      if (typeof item.value === 'string' && (item.value === GEMINI_HOOK_NAME || OURS.test(item.value)))
        return {
          offset: item.offset,
          reason: `"${at}"."disabled" names the guard hook (${JSON.stringify(item.value)}), so Gemini CLI skips it`,
          syntax: false,
          hint: 'Take it out of the list, then run the install again. Nothing was written.',
        };
    }
  }
  return undefined;
}

/** Claude Code's `disableAllHooks: true`: no hook of its settings runs, the guard's neither. */
function claudeSwitchedOff(root: Node, setBack: SetBack): SettingsProblem | undefined {
  const all = lastAt(root, ['disableAllHooks']);
  return all?.value === true && !setBack(['disableAllHooks'])
    ? {
        offset: all.offset,
        reason: '"disableAllHooks" is true, so Claude Code runs no hook, the guard\'s neither',
        syntax: false,
        hint: 'Set it to false (or remove it), then run the install again. Nothing was written.',
      }
    : undefined;
}

/**
 * Claude Code's or Gemini CLI's settings text that switches every hook of it off, or ours (`disableAllHooks`,
 * `hooksConfig.enabled: false`, `disabled` naming ours): where, and why. Claude Code's local settings
 * (`.claude/settings.local.json`, read over the project's) are read so too. Undefined for a text that is no JSON
 * object the client parses, which it skips. For the user's own settings (`~/.claude/settings.json`,
 * `~/.gemini/settings.json`), `over` holds the project's files the client reads over them (the project's settings,
 * then Claude Code's local ones): a switch one of them sets back is none, as each client merges its settings key by
 * key. Gemini CLI joins the `disabled` lists of both, so a name there is never set back. Offsets are in `text`; texts
 * without a byte order mark.
 */
export function hooksSwitchedOff(
  client: 'claude' | 'gemini',
  text: string,
  over: readonly (string | undefined)[] = [],
): SettingsProblem | undefined {
  const root = settingsRoot(client, text);
  if (root === undefined) return undefined;
  const roots = over.flatMap((t) => (t === undefined ? [] : [settingsRoot(client, t)]));
  const setBack: SetBack = (path) => roots.some((r) => r !== undefined && lastAt(r, path)?.type === 'boolean');
  return client === 'claude' ? claudeSwitchedOff(root, setBack) : geminiSwitchedOff(root, setBack);
}

/** Whether a file the client reads over the one holding a switch gives the same key a value of its own. */
type SetBack = (path: readonly string[]) => boolean;

/** No file read over it: every switch stands. */
const NONE_SET_BACK: SetBack = () => false;

/**
 * A settings text's object as the client parses it; undefined for one it skips whole (a comment in Claude Code's,
 * a trailing comma in Gemini CLI's), whose switches switch nothing, and for a text that is no object.
 */
function settingsRoot(client: GuardClient, text: string): Node | undefined {
  if (tooDeep(text) !== undefined) return undefined;
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, parseOptions(client));
  return errors.length === 0 && root?.type === 'object' ? root : undefined;
}

/**
 * The second member named `key` of an object node, if there are two: the clients read their settings as JSON.parse
 * does, which keeps the last, while an edit lands in the first, so an install would write a hook no client reads.
 */
function duplicateKey(node: Node | undefined, key: string): SettingsProblem | undefined {
  const named = (node?.children ?? []).filter((member) => member.children?.[0]?.value === key);
  const second = named[1]?.children?.[0];
  return second === undefined
    ? undefined
    : { offset: second.offset, reason: `"${key}" is given twice, and the client reads only the last one`, syntax: false };
}

/**
 * The first entry of an event's list that is not of the shape the client reads: Claude Code, Codex and Gemini CLI a
 * group (`{matcher?: string, hooks: [{type: string, command: string when type is "command"}]}`), Cursor an object
 * with a `command` string. A client refuses such a file or skips the entry, so a hook written beside it would be
 * reported installed and might never run; the person mends their own entry.
 */
function brokenEntry(client: GuardClient, listNode: Node): SettingsProblem | undefined {
  const problem = (node: Node, why: string): SettingsProblem => ({
    offset: node.offset,
    reason: why,
    syntax: false,
    hint: `Mend or remove that entry (${client}'s settings take the shape ${docsRef('guard.md')} shows), then run the install again. Nothing was written.`,
  });
  const member = (node: Node, key: string) => lastAt(node, [key]);
  const isString = (node: Node | undefined) => node?.type === 'string';
  for (const [i, item] of (listNode.children ?? []).entries()) {
    const at = `entry ${i + 1} of the list`;
    if (item.type !== 'object') return problem(item, `${at} is not an object`);
    if (client === 'cursor') {
      if (!isString(member(item, 'command'))) return problem(item, `${at} has no "command" string`);
      const matcher = member(item, 'matcher');
      if (matcher !== undefined && !isString(matcher)) return problem(matcher, `"matcher" of ${at} is not a string`);
      continue;
    }
    const matcher = member(item, 'matcher');
    if (matcher !== undefined && !isString(matcher)) return problem(matcher, `"matcher" of ${at} is not a string`);
    const hooks = member(item, 'hooks');
    if (hooks?.type !== 'array') return problem(hooks ?? item, `"hooks" of ${at} is not a list`);
    for (const [j, hook] of (hooks.children ?? []).entries()) {
      const where = `hook ${j + 1} of ${at}`;
      if (hook.type !== 'object') return problem(hook, `${where} is not an object`);
      const type = member(hook, 'type');
      if (!isString(type)) return problem(hook, `${where} has no "type" string`);
      if (type!.value === 'command' && !isString(member(hook, 'command'))) return problem(hook, `${where} has no "command" string`);
    }
  }
  return undefined;
}

/**
 * Where a text first opens more than {@link MAX_SETTINGS_NESTING} objects or lists, outside its strings and
 * comments, in one flat pass: the parser recurses once per level, and a file nested deep enough ran it out of stack.
 */
function tooDeep(text: string): SettingsProblem | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"' && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
    } else if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const end = text[i + 1] === '/' ? text.indexOf('\n', i) : text.indexOf('*/', i + 2) + 1;
      i = end <= 0 ? text.length : end;
    } else if (c === '{' || c === '[') {
      if (++depth > MAX_SETTINGS_NESTING)
        return {
          offset: i,
          reason: `nested more than ${MAX_SETTINGS_NESTING} levels deep`,
          syntax: false,
          hint: 'No client needs settings nested this deep: fix the file, then run the install again. Nothing was written.',
        };
    } else if (c === '}' || c === ']') depth--;
  }
  return undefined;
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
 * The text of a client's settings with our hook merged in, every other byte
 * of the file kept: its comments (Gemini CLI's settings take them), its
 * indentation, its other hooks. Only the entries that change are written; a
 * file that already holds them comes back unchanged; `settings` is what the
 * file held before. A file that is not a JSON object as the client parses it
 * ({@link DIALECT}), or whose `hooks` is not an object or an event's value not a
 * list, is a problem at its offset: replacing it would lose the user's hooks.
 */
export function mergeSettingsText(
  client: GuardClient,
  text: string | undefined,
  program: string,
): { text: string; settings: Json } | SettingsProblem {
  if (text === undefined || text.trim() === '') {
    return { text: `${JSON.stringify(freshSettings(client, program), null, 2)}\n`, settings: {} };
  }
  // A byte order mark (a Windows editor's) is no JSON: the settings after it are merged, and it stays in front where
  // the client takes it; Codex CLI and Gemini CLI skip the whole file at the mark, so there it is taken out.
  if (text.charCodeAt(0) === 0xfeff) {
    const merged = mergeSettingsText(client, text.slice(1), program);
    if ('reason' in merged) return { ...merged, offset: merged.offset + 1 };
    return DIALECT[client].bom ? { ...merged, text: `\uFEFF${merged.text}` } : merged;
  }
  const deep = tooDeep(text);
  if (deep !== undefined) return deep;
  const syntaxError = (strict: boolean): SettingsProblem | undefined => {
    const errors: ParseError[] = [];
    const options = strict ? parseOptions(client) : { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false };
    const root = parseTree(text, errors, options);
    if (errors.length === 0 && root !== undefined) return undefined;
    // ValueExpected → "value expected".
    const reason = printParseErrorCode(errors[0]?.error ?? 4)
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase();
    return { offset: errors[0]?.offset ?? 0, reason, syntax: true };
  };
  const loose = syntaxError(false);
  if (loose) return loose;
  // A comment or a trailing comma the client's parser does not take makes it skip every hook in the file.
  const dialect = DIALECT[client];
  const strict = dialect.comments && dialect.trailingCommas ? undefined : syntaxError(true);
  if (strict)
    return {
      ...strict,
      reason: `${strict.reason}: ${dialect.name} reads this file as ${dialect.words}, and runs none of its hooks otherwise`,
    };
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false })!;
  if (root.type !== 'object')
    return {
      offset: root.offset,
      reason: `not a JSON object (it is ${root.type === 'null' ? 'null' : root.type === 'array' ? 'a list' : `a ${root.type}`})`,
      syntax: false,
      // The generic hint speaks of the hooks' object, which is not where this file goes wrong.
      hint: `The client reads this file as one JSON object of settings (${client === 'cursor' ? '{"version": 1, "hooks": {…}}' : '{"hooks": {…}, …}'}): make it one (keep what it holds in it), or remove the file, then run the install again. Nothing was written.`,
    };
  const settings = getNodeValue(root) as Json;
  const twice = duplicateKey(root, 'hooks') ?? (client === 'cursor' ? duplicateKey(root, 'version') : undefined);
  if (twice) return twice;
  // Cursor rejects the whole file when its version is no number ("Config version must be a number").
  const version = client === 'cursor' ? lastAt(root, ['version']) : undefined;
  if (version !== undefined && version.type !== 'number')
    return {
      offset: version.offset,
      reason: '"version" is not a number, and Cursor runs none of the file\'s hooks then',
      syntax: false,
      hint: 'Set it to 1, then run the install again. Nothing was written.',
    };
  const off =
    client === 'gemini' ? geminiSwitchedOff(root, NONE_SET_BACK) : client === 'claude' ? claudeSwitchedOff(root, NONE_SET_BACK) : undefined;
  if (off) return off;
  const hooksNode = findNodeAtLocation(root, ['hooks']);
  if (hooksNode !== undefined && hooksNode.type !== 'object') {
    return { offset: hooksNode.offset, reason: '"hooks" is not an object', syntax: false };
  }
  for (const { event } of wanted(client, '')) {
    const dup = duplicateKey(hooksNode, event);
    if (dup) return dup;
  }
  const fmt = formattingOf(text);
  let out = text;
  const set = (path: (string | number)[], value: unknown) => {
    out = setJson(out, path, value, fmt);
  };
  if (client === 'cursor' && settings.version === undefined) set(['version'], 1);
  const before = obj(settings.hooks);
  for (const { event, entry } of wanted(client, hookCommand(program, client))) {
    const list = before[event];
    if (list === undefined) {
      set(['hooks', event], [entry]);
      continue;
    }
    if (!Array.isArray(list)) {
      const at = findNodeAtLocation(root, ['hooks', event])!;
      return { offset: at.offset, reason: `"hooks"."${event}" is not a list`, syntax: false };
    }
    const broken = brokenEntry(client, findNodeAtLocation(root, ['hooks', event])!);
    if (broken) return { ...broken, reason: `"hooks"."${event}": ${broken.reason}` };
    for (const change of listChanges(list, entry)) {
      if ('append' in change) out = appendJson(out, ['hooks', event], change.append, fmt);
      else if ('set' in change) set(['hooks', event, ...change.set], change.value);
      else out = removeJson(out, ['hooks', event, ...change.remove]);
    }
  }
  return { text: out, settings };
}
