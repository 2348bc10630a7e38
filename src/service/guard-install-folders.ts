/**
 * The clients' settings in the folders below the repository's top, for `agents guard install --check`
 * (docs/guard.md, "Installing the hook"): a session started in such a folder reads them, and the install writes at
 * the top only, so a folder whose settings lack the hook, or switch it off, leaves that session unguarded.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { codexHooksOff, codexLayersHooksOff } from '../core/codex-features.ts';
import { type GuardClient, USER_SETTINGS } from '../core/guard-clients.ts';
import { hooksSwitchedOff, mergeSettingsText } from '../core/guard-install.ts';
import { MAX_FILE_BYTES } from '../core/limits.ts';
import { readUtf8 } from '../core/utf8.ts';
import { lineStartsOf } from '../core/yaml-file.ts';
import { lsRepoFiles } from '../git/file-listing.ts';
import { commonGitDir, looksLikeGitDir } from '../git/location.ts';
import { readRegularFile } from '../store/read-file.ts';
import { userSettingsDir } from './guard-paths.ts';

/** A subfolder's settings file as `--check` reports it: `missing` the hook, or switching it `off` at `line`:`col`. */
export interface FolderSettings {
  client: GuardClient;
  file: string;
  status: 'installed' | 'missing' | 'off';
  line?: number;
  col?: number;
}

/**
 * The files below the top a client started in their folder reads: Claude Code's and Gemini CLI's settings of the
 * folder it starts in only, Codex CLI's config.toml of each folder up to the top (its hooks.json is the top's).
 */
const BELOW: Partial<Record<GuardClient, readonly string[]>> = {
  claude: ['.claude/settings.json', '.claude/settings.local.json'],
  gemini: ['.gemini/settings.json'],
  codex: ['.codex/config.toml'],
};

/** A file's text, byte order mark dropped; undefined when it is absent or cannot be read as UTF-8 (the client refuses it). */
export function textOf(top: string, rel: string): string | undefined {
  const read = readRegularFile(resolve(top, rel), MAX_FILE_BYTES, { followLinks: true });
  const text = read.ok ? readUtf8(read.bytes, { dropBom: true }) : undefined;
  return text?.ok ? text.text : undefined;
}

function off(client: GuardClient, file: string, text: string, offset: number): FolderSettings {
  return { client, file, status: 'off', ...lineStartsOf(text).linePos(offset) };
}

/**
 * Each settings file below the top, of the clients given, that git lists (tracked, or untracked and not ignored),
 * with what a session started in its folder would run: the hook (`installed`), no hook (`missing`: Claude Code's or
 * Gemini CLI's settings without the entry the install writes), or none because a key switches hooks off (`off`).
 * Codex CLI's config.toml is listed only when it switches them off. None outside a repository git can read: a
 * store made outside git has no folders of a repository.
 */
export async function folderSettings(top: string, clients: readonly GuardClient[], program: string): Promise<FolderSettings[]> {
  const names = clients.flatMap((c) => BELOW[c] ?? []);
  const common = commonGitDir(top);
  if (names.length === 0 || common === undefined || !looksLikeGitDir(common)) return [];
  // The index lists a file deleted from the working tree too, which no session reads.
  const below = (await lsRepoFiles(top, true, names)).filter(
    (f) => f.includes('/') && names.some((n) => f.endsWith(`/${n}`)) && existsSync(join(top, f)),
  );
  const rows: FolderSettings[] = [];
  for (const client of clients) {
    const own = BELOW[client] ?? [];
    const folders = [...new Set(below.flatMap((f) => own.filter((n) => f.endsWith(`/${n}`)).map((n) => f.slice(0, -n.length - 1))))].sort();
    for (const folder of folders) {
      if (client === 'codex') {
        const file = `${folder}/.codex/config.toml`;
        const text = textOf(top, file);
        const at = text === undefined ? undefined : codexHooksOff(text);
        if (text !== undefined && at) rows.push(off(client, file, text, at.offset));
        continue;
      }
      const file = `${folder}/${own[0]}`;
      // Claude Code reads its local settings over the project's: a switch there is the folder's answer.
      const local = client === 'claude' ? `${folder}/.claude/settings.local.json` : undefined;
      const localText = local === undefined ? undefined : textOf(top, local);
      const localOff = localText === undefined ? undefined : hooksSwitchedOff('claude', localText);
      if (local !== undefined && localText !== undefined && localOff) {
        rows.push(off(client, local, localText, localOff.offset));
        continue;
      }
      const text = textOf(top, file);
      const switched = text === undefined ? undefined : hooksSwitchedOff(client as 'claude' | 'gemini', text);
      if (text !== undefined && switched) {
        rows.push(off(client, file, text, switched.offset));
        continue;
      }
      // Installed is what the install would write at the top, as for the top's file.
      const merged = text === undefined ? undefined : mergeSettingsText(client, text, program);
      const installed = merged !== undefined && !('reason' in merged) && merged.text === text;
      rows.push({ client, file, status: installed ? 'installed' : 'missing' });
    }
  }
  return rows;
}

/** The user's own settings file of a client that switches its hooks off, where the client looks for it (userSettingsDir). */
function homeFile(client: 'claude' | 'gemini' | 'codex'): string {
  return join(userSettingsDir(client), USER_SETTINGS[client].switch!);
}

/**
 * The user's settings that switch the project's hook `off` for every session of theirs (`disableAllHooks: true`,
 * `hooksConfig.enabled: false`, `[features] hooks = false`), where the project's files the client reads over them do
 * not set the same key back: one row each, its file absolute, at the switch's line and col. The project's own
 * switches are the install's refusals; a home folder that is the repository's top holds the project's files, and is
 * read as those.
 */
export function homeSettings(top: string, clients: readonly GuardClient[]): FolderSettings[] {
  const rows: FolderSettings[] = [];
  for (const client of clients) {
    if (client === 'cursor') continue;
    const file = homeFile(client);
    const own = BELOW[client]!;
    if (own.some((rel) => resolve(top, rel) === file)) continue;
    const text = textOf(top, file);
    if (text === undefined) continue;
    const project = own.map((rel) => textOf(top, rel));
    if (client === 'codex') {
      const at = codexLayersHooksOff([text, ...project.filter((t) => t !== undefined)]);
      if (at?.layer === 0) rows.push(off(client, file, text, at.offset));
      continue;
    }
    const at = hooksSwitchedOff(client, text, project);
    if (at) rows.push(off(client, file, text, at.offset));
  }
  return rows;
}
