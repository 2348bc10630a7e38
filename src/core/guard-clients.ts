/**
 * The hook protocols of the agent clients (docs/guard.md): the JSON each one
 * hands its PreToolUse / BeforeTool hook on standard input, turned into one
 * action, and the answer each one obeys. Pure: paths stay as the client gave
 * them; the service resolves them (links, `..`) against the file system.
 */
import { AgentsError } from './errors.ts';
import { escapeUnsafe } from './plain-text.ts';
import { argumentTexts, namedPaths } from './guard-arguments.ts';
import type { Move } from './guard-shell-writes.ts';
import { APPLY_PATCH, commandFolders, type PlacedInput, patchParts, patchPathsIn, shellWritesIn } from './guard-scripts.ts';

export type GuardClient = 'claude' | 'codex' | 'gemini' | 'cursor';
export const GUARD_CLIENTS: readonly GuardClient[] = ['claude', 'codex', 'gemini', 'cursor'];

/** The settings file of each client, relative to the repository's top. */
export const SETTINGS_FILE: Record<GuardClient, string> = {
  claude: '.claude/settings.json',
  codex: '.codex/hooks.json',
  gemini: '.gemini/settings.json',
  cursor: '.cursor/hooks.json',
};

/**
 * Where each client reads its user settings: its `folder` in the home folder or, where its `variable` is set (in the
 * client's environment, which the hook inherits), the folder that names, `below` it when the client takes it for its
 * home folder (Gemini CLI reads `$GEMINI_CLI_HOME/.gemini/settings.json`). `files` hold hooks or the switch that turns
 * them off, `switch` the one whose key does. The service's userSettingsFiles reads this, for every command that needs them.
 */
export const USER_SETTINGS: Record<
  GuardClient,
  { folder: string; variable?: string; below?: string; files: readonly string[]; switch?: string }
> = {
  claude: { folder: '.claude', variable: 'CLAUDE_CONFIG_DIR', files: ['settings.json'], switch: 'settings.json' },
  codex: { folder: '.codex', variable: 'CODEX_HOME', files: ['hooks.json', 'config.toml'], switch: 'config.toml' },
  gemini: { folder: '.gemini', variable: 'GEMINI_CLI_HOME', below: '.gemini', files: ['settings.json'], switch: 'settings.json' },
  cursor: { folder: '.cursor', files: ['hooks.json'] },
};

/**
 * The variable in which a client tells its hook the folder its session was started in. Claude Code runs the hook in
 * its shell's folder, wherever a `cd` of the agent's took it (a nested repository with a store of its own, a folder
 * of another repository): the store is found from the session's folder instead, whose settings ran the hook.
 * Gemini CLI sets both names, and a client started by another's shell may inherit the other's: only the client's own.
 */
export const PROJECT_FOLDER_VARIABLE: Partial<Record<GuardClient, string>> = {
  claude: 'CLAUDE_PROJECT_DIR',
  gemini: 'GEMINI_PROJECT_DIR',
};

/**
 * Every settings file in which a client reads hooks or a switch that turns them off (`disableAllHooks`,
 * `hooksConfig.enabled`), relative to the repository's top: a write there could switch the guard hook off, so the hook
 * keeps them from agents' file tools (docs/guard.md; docs/adr/0087-hook-settings-reserved.md), as it keeps the user's
 * ({@link USER_SETTINGS}).
 */
export const HOOK_SETTINGS: { readonly project: readonly string[] } = {
  project: [...Object.values(SETTINGS_FILE), '.claude/settings.local.json', '.codex/config.toml'],
};

/** An action as the client described it, before its paths are resolved. */
export interface ClientAction {
  client: GuardClient;
  /** The hook event (`PreToolUse`, `BeforeTool`, `beforeShellExecution`…). */
  event: string;
  tool: string;
  /** The tool's name as the client spelt it, where {@link tool} is another spelling (Gemini CLI's `mcp_db_drop_table`). */
  clientTool?: string;
  /** Files written, as given: absolute, or relative to `cwd`. */
  paths: string[];
  /**
   * Each move's two ends (both in `paths` too): a folder moved writes each of its files at the other end as well. A
   * copy (`copy`, its source not in `paths`) writes them at the other end only.
   */
  moves?: Move[];
  /** What a deleting tool names (in `paths` too): a folder deleted deletes each file below it. */
  removes?: string[];
  /**
   * The folders of {@link moves} (their sources) and {@link removes} read from a shell command's text alone: one of more
   * files than the hook judges is judged by its name (`rm -rf node_modules` is no call it cannot decide), where one a
   * tool names itself is refused.
   */
  byName?: string[];
  /** The patch files and archives a shell command reads to learn what it writes (`git apply fix.diff`, `tar -xf a.tar`), which the hook reads. */
  inputs?: PlacedInput[];
  texts: string[];
  command?: string;
  /**
   * The folders the command changes to (`cd DIR`, `pushd DIR`), as named: relative to where it starts, absolute, or
   * from the home folder (`~/x`). It may run in each of them, so each one's project's guards judge it.
   */
  cds?: string[];
  /** The folder the agent works in: absolute as the clients give it (named otherwise, it is read as {@link dir} is). */
  cwd: string;
  /** The folder the tool names for its command (Gemini CLI's dir_path, Codex CLI's workdir), as named: relative to `cwd`, absolute or `~/x`. */
  dir?: string;
  /**
   * The folder the client's session started in, where the client says it ({@link PROJECT_FOLDER_VARIABLE}): an MCP
   * server takes a relative path from its own folder, that one, though a `cd` of the agent's moved `cwd` elsewhere.
   */
  started?: string;
  session?: string;
  /** False for events that report what already happened (Cursor's afterFileEdit): nothing to answer. */
  blocking: boolean;
}

/**
 * Why the hook could not decide, on one line (a client shows stderr to the
 * person as it is): the error's message with its lines joined, the first
 * problem's own words when the message only names its place (`config.yaml:17:13 is invalid`),
 * and the error's hint, what to do, which a command would print below it.
 */
export function hookReason(error: unknown, agents = 'agents'): string {
  let text = error instanceof Error ? error.message : String(error);
  const first = error instanceof AgentsError ? error.diagnostics.find((d) => d.severity === 'error') : undefined;
  if (first && !text.includes(first.message)) text += ` (${first.message})`;
  // The reason is all the person sees of the error (a fresh clone's unfetched policy source, a stale active plan).
  // A command it names starts with the run's `agents`, with its --store (AgentsError.hintFor).
  const hint = error instanceof AgentsError ? error.hintFor(agents)?.trim() : undefined;
  if (hint) text += `${/[.!?]$/.test(text) ? '' : '.'} ${hint.replace(/[.;]$/, '')}`;
  // Escaped: the message may quote the input (JSON.parse's does), whose escape sequences would reach the person's terminal.
  text = escapeUnsafe(text.replace(/\s*\n\s*/g, ' ').trim());
  return text.length > 2000 ? `${text.slice(0, 1999)}…` : text;
}

/** Why the input could not be read: the hook answers by `guard.on_error`. */
export class GuardInputError extends Error {}

/** The hook's time ran out while the paths of a call were being judged: it answers by `guard.on_error`. */
export class GuardTimeout extends Error {}

type Json = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/**
 * A shell command as a client gives it: a string, or an argv array (Codex's
 * `shell` and `local_shell` take `["bash", "-lc", "…"]`), joined with spaces
 * so that the command patterns see its words as in the string form.
 */
const commandOf = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : Array.isArray(v) && v.length > 0 && v.every((a) => typeof a === 'string') ? v.join(' ') : undefined;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

/**
 * The one value a tool's input gives under any of `keys` (a command as `command` or `cmd`), read by `read`. A tool
 * reads one of them and ignores the rest, and which one is not in its input: given two that differ, the hook would
 * judge a decoy beside what runs (`{"cmd": "rm -r x", "command": "ls"}`), so the call is one it cannot decide.
 */
function oneOf<T>(ti: Json, keys: readonly string[], read: (v: unknown) => T | undefined): T | undefined {
  let found: { key: string; value: T } | undefined;
  for (const key of keys) {
    const value = read(ti[key]);
    if (value === undefined) continue;
    if (found === undefined) found = { key, value };
    else if (value !== found.value)
      throw new GuardInputError(
        `the tool's input gives ${found.key} and ${key} different values, and the hook cannot tell which one the tool reads: give it one of them`,
      );
  }
  return found?.value;
}

/** The value of a JSON text, or undefined when it is not JSON. */
function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A tool's arguments as the hook input gives them: an object, or the JSON text of one, as some clients and proxies
 * send it. Read as no arguments, a text or another value would pass every guard unjudged, so it is a call the hook
 * cannot decide.
 */
function toolInput(given: unknown): Json {
  if (given === undefined || given === null) return {};
  const value = typeof given === 'string' ? parsedOrUndefined(given) : given;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Json;
  throw new GuardInputError(
    typeof given === 'string'
      ? 'the tool_input is a text that is not the JSON of an object: the hook cannot tell what the tool is given'
      : 'the tool_input is not an object: the hook cannot tell what the tool is given',
  );
}

/** Which client wrote this input: by its event name and the fields only it sends. */
export function detectClient(input: Json): GuardClient | undefined {
  const event = str(input.hook_event_name);
  if (event === 'BeforeTool') return 'gemini';
  if (event !== undefined && /^(before|after|pre|post)[A-Z]/.test(event)) return 'cursor';
  if ('conversation_id' in input || 'workspace_roots' in input) return 'cursor';
  if (event === 'PreToolUse') return 'turn_id' in input ? 'codex' : 'claude';
  return undefined;
}

/**
 * The tools that only read or search files (Claude Code's, Gemini CLI's, the MCP filesystem server's and
 * Serena's, by their own name): the paths they name are not written, so a write guard says nothing of them.
 * A tool guard (`guard.tool`) still applies by the name the client gives.
 */
const READ_TOOLS =
  /^(?:Read|Glob|Grep|LS|NotebookRead|read_file|read_many_files|list_directory|glob|search_file_content|grep_search|read_text_file|read_media_file|read_multiple_files|list_directory_with_sizes|directory_tree|search_files|get_file_info|list_allowed_directories|list_dir|find_file|search_for_pattern|get_symbols_overview|find_symbol|find_referencing_symbols)$/;

/**
 * Claude Code's StructuredOutput (`claude -p --json-schema`): the run's final answer, handed to the
 * program that asked for it as a plain-text answer is (which no hook sees). It writes and runs
 * nothing, so write and content guards say nothing of it; judging it denied the judge of
 * `actor: agent` whenever its reasoning quoted guarded text, and recorded that as a violation.
 */
const ANSWER_TOOL = 'StructuredOutput';

/**
 * Tools that move a file: the file they take away is written as much as the one they make. Known by the end of
 * their name, however the client joins an MCP server's name to it (`mcp__fs__move_file`, `fs__move_file`, and Gemini
 * CLI's `mcp_fs_move_file`, where the server's name cannot be told from the tool's), in any case: a server may name
 * it `moveFile` or `MoveFile`, and a move missed lets the file it takes away out of a guarded folder.
 */
const MOVE_TOOLS = /(?:^|_)(?:move|rename)(?:_?(?:files?|paths?|directory|directories))?$/i;

/** Tools that copy a file or a folder, known by the end of their name as moves are (`mcp__fs__copy_directory`, `copyDirectory`). */
const COPY_TOOLS = /(?:^|_)copy(?:_?(?:files?|paths?|directory|directories|dirs?|folders?))?$/i;

/**
 * Tools that delete a file or a folder, known by the end of their name as moves are (`mcp__fs__delete_directory`,
 * `delete_files`, Cursor's `Delete`).
 */
const REMOVE_TOOLS = /(?:^|_)(?:delete|remove)(?:_?(?:files?|paths?|directory|directories|dirs?|folders?))?$/i;

/**
 * What a tool named by `agents guard try --tool` or MCP `check_action` does with the paths given beside it, as the hook
 * reads the same tool: a deleting tool deletes each file below a folder; a moving or copying tool given two paths moves
 * or copies the first to the second.
 */
function namedToolFiles(tool: string, paths: readonly string[]): Pick<ClientAction, 'moves' | 'removes'> {
  const copy = COPY_TOOLS.test(tool);
  if (paths.length === 2 && (copy || MOVE_TOOLS.test(tool)))
    return { moves: [{ from: paths[0]!, to: paths[1]!, ...(copy ? { copy: true as const } : {}) }] };
  return REMOVE_TOOLS.test(tool) && paths.length > 0 ? { removes: [...paths] } : {};
}

/**
 * The action `agents guard try` and MCP `check_action` are given (a tool, the files it names, its command, the text it
 * writes), read through the hook's own reading of that tool's input ({@link toolParts}), so that both answer as the hook
 * would: `apply_patch`'s text is its patch, whose files and added lines are judged, as are those of a patch a shell
 * command applies; a command's `cd` folders are read; a tool that only reads writes nothing.
 */
export function namedToolAction(tool: string, given: { paths: readonly string[]; command?: string; content?: string }): ToolParts {
  const patchTool = tool === 'apply_patch';
  const input: Json = {};
  if (given.command !== undefined) input.command = given.command;
  if (given.content !== undefined) input[patchTool && given.command === undefined ? 'input' : 'content'] = given.content;
  const read = toolParts(tool, input);
  if (READ_TOOLS.test(ownName(tool)) || tool === ANSWER_TOOL) return read;
  const paths = [...given.paths, ...read.paths.filter((p) => !given.paths.includes(p))];
  // The text given is written as well, by a tool whose input holds it elsewhere (a shell tool's, which the hook reads
  // only for a patch): not a patch's own text, whose added lines are what it writes.
  const content = given.content;
  const texts = content !== undefined && !patchTool && !read.texts.includes(content) ? [...read.texts, content] : read.texts;
  return withToolFolders({ ...read, paths, texts }, namedToolFiles(tool, given.paths));
}

/**
 * A tool's own name: an MCP tool's without its server's (`mcp__filesystem__read_file`, `filesystem__read_file`).
 * Gemini CLI joins them with one `_` (`mcp_fs_read_file`), and both may hold `_`: only a server's name without one
 * is taken off, the one split that can be told. Any other split could take a writing tool for a reader by the end
 * of its name (`mcp_fs_delete_glob` is no `glob`); left whole, such a name is judged as a write.
 */
function ownName(tool: string): string {
  const at = tool.lastIndexOf('__');
  if (at >= 0) return tool.slice(at + 2);
  return /^mcp_[^_]+_(.+)$/.exec(tool)?.[1] ?? tool;
}

/** What a tool's input says it does, before the hook adds the client's own fields (cwd, tool name). */
type ToolParts = Pick<ClientAction, 'paths' | 'texts' | 'command' | 'cds' | 'moves' | 'removes' | 'byName' | 'inputs'>;

/**
 * A shell tool's command, the folders its `cd`s go to and the files it writes ({@link shellWritesIn}), read from its
 * argv where the tool is given one (`["bash", "-lc", "…"]`), whose words the joined text no longer tells apart.
 */
function shellParts(command: string, ti: Json): ToolParts {
  const given = ti.command ?? ti.cmd;
  const argv = Array.isArray(given) ? (given as string[]) : undefined;
  const writes = shellWritesIn(command, argv);
  const named = [...(writes.removes ?? []), ...(writes.moves ?? []).map((m) => m.from)];
  return { texts: [], command, ...commandFolders(command), ...writes, ...(named.length > 0 ? { byName: named } : {}) };
}

/**
 * `parts` with the moves and removes a tool names itself beside those its command's text names: both are judged, and
 * a folder the tool names is refused when too large, though its command names it too (no longer judged by name).
 */
function withToolFolders(parts: ToolParts, own: Pick<ClientAction, 'moves' | 'removes'>): ToolParts {
  if (own.moves === undefined && own.removes === undefined) return parts;
  const moves = [...(own.moves ?? []), ...(parts.moves ?? [])];
  const removes = [...new Set([...(own.removes ?? []), ...(parts.removes ?? [])])];
  const strict = new Set([...(own.removes ?? []), ...(own.moves ?? []).map((m) => m.from)]);
  const byName = (parts.byName ?? []).filter((p) => !strict.has(p));
  const { byName: _, ...rest } = parts;
  return {
    ...rest,
    ...(moves.length > 0 ? { moves } : {}),
    ...(removes.length > 0 ? { removes } : {}),
    ...(byName.length > 0 ? { byName } : {}),
  };
}

/** The file, text and command of a tool's input, whichever client's tool it is (names differ, shapes rhyme). */
function toolParts(tool: string, ti: Json): ToolParts {
  const own = ownName(tool);
  if (READ_TOOLS.test(own) || tool === ANSWER_TOOL) return { paths: [], texts: [] };
  if (tool === 'apply_patch') {
    const patch = oneOf(ti, ['command', 'patch', 'input'], str) ?? '';
    return patchParts(patch);
  }
  const command = oneOf(ti, ['command', 'cmd'], commandOf);
  if (/^(Bash|Shell|run_shell_command|shell|exec_command|local_shell)$/.test(tool) && command !== undefined) {
    // Codex runs apply_patch given to its shell tool as its own patch (`["apply_patch", "*** Begin Patch…"]`, or a
    // heredoc in `bash -lc`), not as a command: its files and added lines meet the guards as the apply_patch tool's do.
    if (APPLY_PATCH.test(command) && command.includes('*** Begin Patch')) {
      const patch = patchParts(command);
      return { ...patch, paths: patchPathsIn(command, patch.paths), command, ...commandFolders(command) };
    }
    return shellParts(command, ti);
  }
  const paths: string[] = [];
  // `relative_path`: the Serena MCP server's file tools (create_text_file, replace_content, insert_at_line…).
  const keys = ['file_path', 'notebook_path', 'path', 'absolute_path', 'filePath', 'relative_path', 'destination'];
  if (MOVE_TOOLS.test(tool)) keys.push('source');
  for (const key of keys) {
    const p = str(ti[key]);
    if (p !== undefined && p !== '') paths.push(p);
  }
  // And every other path under a key named for one, at any depth: a tool names its files as it likes (`paths: [...]`,
  // `files: [{path}]`, `edits: [{file_path}]`, `target`), and a file it writes unseen would pass every write guard. A
  // copy's source is read, not written: its files are judged where they go (below).
  const copySource = COPY_TOOLS.test(tool) && !MOVE_TOOLS.test(tool) ? ti.source : undefined;
  const named = new Set(paths);
  for (const p of namedPaths(ti, keys))
    if (p !== copySource && !named.has(p)) {
      named.add(p);
      paths.push(p);
    }
  const texts: string[] = [];
  // `body`, `repl`: the code Serena's symbol tools write into the file they name, and its replace_content's
  // replacement. Only with a file: a tool that names none (an HTTP request's `body`) is judged by all its arguments.
  const textKeys = paths.length > 0 ? [...TEXT_KEYS, 'body', 'repl'] : TEXT_KEYS;
  for (const key of textKeys) {
    const t = str(ti[key]);
    if (t !== undefined) texts.push(t);
  }
  // MultiEdit's edits (new_string), and the MCP filesystem server's edit_file (newText): each one an edit holds, since
  // a server reads its own key and drops the others, and a decoy under another would hide the text it writes. So
  // are an edit's other keys, as the tool's other arguments are (below), but for the text it replaces.
  let editsRead = Array.isArray(ti.edits);
  if (Array.isArray(ti.edits))
    for (const e of ti.edits) {
      const edit = obj(e);
      const before = texts.length;
      for (const key of EDIT_TEXT_KEYS) {
        const t = str(edit[key]);
        if (t !== undefined) texts.push(t);
      }
      if (texts.length === before) editsRead = false;
      else {
        const other = Object.entries(edit).filter(
          ([key, v]) => !(EDIT_TEXT_KEYS.includes(key) && typeof v === 'string') && !REPLACED_KEYS.includes(key),
        );
        if (other.length > 0) texts.push(...argumentTexts(Object.fromEntries(other)));
      }
    }
  // The other arguments are looked at by content guards too: a tool that names no file writes none, but its text (an
  // MCP tool's arguments) may be anything; one that does may hold what it writes under a key not known here (`data`, a
  // content given as a list), beside a `content` it drops. For all the hook can tell they are what it writes, and a
  // content guard errs on its side as a write guard does. Not the files, the texts read, nor the text an edit replaces.
  const rest = Object.entries(ti).filter(
    ([key, v]) =>
      !(
        (keys.includes(key) && typeof v === 'string' && v !== '') ||
        (textKeys.includes(key) && typeof v === 'string') ||
        REPLACED_KEYS.includes(key) ||
        (key === 'edits' && editsRead)
      ),
  );
  if (rest.length > 0) texts.push(...argumentTexts(Object.fromEntries(rest)));
  // A command meets the command guards whatever else the tool names: a `path` beside it (the folder to run it in, a
  // file it reads) does not make its command one no guard sees.
  // And the files it writes, as a shell tool's: a tool given a command runs it in a shell for all the hook can tell.
  let parts: ToolParts = { paths, texts };
  if (command !== undefined) {
    const shell = shellParts(command, ti);
    parts = { ...shell, paths: [...new Set([...paths, ...shell.paths])], texts };
  }
  const from = MOVE_TOOLS.test(tool) ? str(ti.source) : undefined;
  const to = str(ti.destination);
  if (from && to) return withToolFolders(parts, { moves: [{ from, to }] });
  // A folder copied writes each of its files where it goes (`public/` copied to `.claude`: `.claude/settings.json`).
  const copied = COPY_TOOLS.test(tool) ? str(ti.source) : undefined;
  if (copied && to) return withToolFolders(parts, { moves: [{ from: copied, to, copy: true }] });
  return REMOVE_TOOLS.test(tool) && paths.length > 0 ? withToolFolders(parts, { removes: paths }) : parts;
}

/** The keys under which a tool's input holds the text it writes (Write's `content`, Edit's `new_string`…). */
const TEXT_KEYS: readonly string[] = ['content', 'new_string', 'new_source', 'newString', 'contents', 'text'];

/** The keys under which an edit of a list of them (MultiEdit's `edits`, edit_file's) holds the text it writes. */
const EDIT_TEXT_KEYS: readonly string[] = ['new_string', 'newString', 'newText'];

/**
 * The keys under which an edit names the text it replaces (Edit's `old_string`, edit_file's `oldText`, Serena's
 * `needle`): what the file holds already, not what the tool writes, so no content guard judges it.
 */
const REPLACED_KEYS: readonly string[] = ['old_string', 'oldString', 'oldText', 'old_str', 'needle'];

/**
 * Reads one hook input. `client` forces the protocol (`--client`); otherwise
 * it is recognised. Throws GuardInputError for input that is not a hook call.
 */
export function parseClientInput(raw: string, client?: GuardClient): ClientAction {
  let data: unknown;
  // Nothing written at all is said so, not by the JSON parser's words for a text cut short.
  if (raw.trim() === '' || raw === '\ufeff')
    throw new GuardInputError('the hook input is empty: the client must write its JSON to standard input');
  try {
    // A byte-order mark before the document, which JSON allows a reader to ignore, is no reason to answer by on_error.
    data = JSON.parse(raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw);
  } catch (error) {
    throw new GuardInputError(`the hook input is not JSON (${(error as Error).message})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new GuardInputError('the hook input is not a JSON object');
  const input = data as Json;
  const who = client ?? detectClient(input);
  if (!who) throw new GuardInputError('the hook input names no known event (hook_event_name); pass --client claude|codex|gemini|cursor');
  const cwd = str(input.cwd) ?? str((input.workspace_roots as unknown[] | undefined)?.[0]);
  if (cwd === undefined || cwd === '') throw new GuardInputError('the hook input has no working folder (cwd)');
  const event = str(input.hook_event_name) ?? '';
  const session = str(input.session_id) ?? str(input.conversation_id);
  const base = { client: who, event, cwd, ...(session !== undefined ? { session } : {}) };
  if (who === 'cursor') {
    if (event === 'beforeShellExecution') {
      const command = str(input.command);
      if (command === undefined) throw new GuardInputError('beforeShellExecution without a command');
      return { ...base, tool: 'Shell', ...shellParts(command, input), blocking: true };
    }
    if (event === 'beforeReadFile') return { ...base, tool: 'Read', paths: [], texts: [], blocking: false };
    if (event === 'afterFileEdit') {
      const p = str(input.file_path);
      const texts = Array.isArray(input.edits) ? input.edits.map((e) => str(obj(e).new_string) ?? '') : [];
      return { ...base, tool: 'Edit', paths: p ? [p] : [], texts, blocking: false };
    }
  }
  // Cursor's beforeMCPExecution takes this route too: its MCP tool's arguments are read as another client's are (a
  // filesystem server's write names its file), and arguments that are no object are a call the hook cannot decide.
  const given = str(input.tool_name);
  if (given === undefined || given === '') throw new GuardInputError(`the ${event || 'hook'} input has no tool_name`);
  // Gemini CLI joins an MCP server's name to its tool's with one `_`, where either may hold one, and gives the two apart
  // in mcp_context: named as Claude Code names it (`mcp__db__drop_table`), the tool meets the same `tool` guards and is
  // known as a read by its own name, however many `_` the server's holds.
  const mcp = obj(input.mcp_context);
  const [server, own] = [str(mcp.server_name), str(mcp.tool_name)];
  const tool = server && own ? `mcp__${server}__${own}` : given;
  const ti = toolInput(input.tool_input);
  const parts = toolParts(tool, ti);
  // A shell tool may name its own folder, relative to the project: Gemini's dir_path, Codex's workdir, the Serena MCP
  // server's execute_shell_command's cwd (a project's command guards apply to a command run in its folders).
  const dir = parts.command !== undefined ? oneOf(ti, ['dir_path', 'directory', 'workdir', 'cwd'], str) : undefined;
  const spelt = tool !== given ? { clientTool: given } : {};
  return { ...base, ...(dir ? { dir } : {}), tool, ...spelt, ...parts, blocking: true };
}
