import { lstatSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loosely } from '../../core/names.ts';
import { userSettingsFiles } from '../../service/guard-paths.ts';
import { physicalPath } from '../../service/link-paths.ts';
import { closestNames, hintWithGuess } from '../../core/closest.ts';
import { EXIT_CODES, missingValue, storeChanged, UsageError } from '../../core/errors.ts';
import { GUARD_CLIENTS, type GuardClient } from '../../core/guard-clients.ts';
import { SETTINGS_FILE } from '../../core/guard-clients.ts';
import { hookPrograms } from '../../core/guard-hook-entry.ts';
import { hooksSwitchedOff, mergeSettingsText } from '../../core/guard-install.ts';
import { shellWord } from '../../core/shell-word.ts';
import { executableFile, programOnPath, runByNpm, sessionPath } from '../../store/program-path.ts';
import { isAbsolute } from 'node:path';
import { codexHooksOff } from '../../core/codex-features.ts';
import { repositoryTop } from '../../store/projects.ts';
import { hookStoreOption } from '../../store/hooks.ts';
import { failedPartWay, writeFileAtomic } from '../../store/atomic-write.ts';
import { readRegularFile } from '../../store/read-file.ts';
import { textOf } from '../../service/guard-install-folders.ts';
import { gitDirFor } from '../../store/git-dir.ts';
import { withFolderLock } from '../../store/lock.ts';
import { MAX_FILE_BYTES } from '../../core/limits.ts';
import { readUtf8 } from '../../core/utf8.ts';
import { defineCommand } from '../command.ts';
import { guardInstallJson, guardInstallRows, guardInstallText } from '../../present/guard-install.ts';
import { emit } from '../render.ts';
import { lineStartsOf } from '../../core/yaml-file.ts';
import { docsRef } from '../../core/docs-link.ts';
import { crlf } from '../../core/file-style.ts';

interface InstallArgs {
  client?: string[];
  check?: boolean;
  program?: string;
}

/** The first part of `rel` below the top that is a symbolic link (a linked client folder or settings file), if any. */
function linkIn(top: string, rel: string): string | undefined {
  const parts = rel.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const part = parts.slice(0, i).join('/');
    try {
      if (lstatSync(join(top, part)).isSymbolicLink()) return part;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The client's user settings (its home folder's, or the folder CLAUDE_CONFIG_DIR or CODEX_HOME moves them to) that
 * the project's file `abs` is, if it is: a repository at the home folder, or a store made there outside git. Every
 * session of that client, in every project, reads them, and the hook of one that finds no store denies each call.
 */
function userSettingsOf(client: GuardClient, abs: string): string | undefined {
  const files = [...userSettingsFiles(client, 'home'), ...userSettingsFiles(client)];
  const here = physicalPath(abs);
  return files.find((f) => loosely(physicalPath(f)) === loosely(here));
}

/**
 * Why the agents' shell would not start the program word of `--program` (`agents` of the default), if so: the clients
 * run the hook with the PATH of the session, which holds no `node_modules/.bin` that `npx agents` or an npm script
 * added for this run alone; and a word naming its file from the top of the file system is run as named, there or
 * nowhere. Such a hook would answer every call with `agents: not found`, a deny. A word with a folder in it that is
 * relative (taken from whichever folder the client runs the hook in), or a variable set in front, is not looked up.
 */
function programNotRunnable(program: string, env: Record<string, string | undefined>): string | undefined {
  const word = program.trim().split(/\s+/)[0] ?? '';
  if (word === '' || word.includes('=')) return undefined;
  if (/[/\\]/.test(word)) {
    // Windows runs a file by its extension, not by a mode X_OK could read.
    if (process.platform === 'win32' || !isAbsolute(word) || executableFile(word)) return undefined;
    return `\`${word}\` is no file this user can run (missing, or not executable), so a client's hook starting it would answer every call with \`${word}: not found\` (or \`Permission denied\`), a deny: install with --program naming the agents program where it is installed`;
  }
  const byNpm = runByNpm(env);
  if (programOnPath(word, sessionPath(env), { pathext: env.PATHEXT }) !== undefined) return undefined;
  return `\`${word}\` is on no folder of PATH${word === 'agents' && byNpm ? ' (npx finds it in node_modules/.bin for this run only)' : ''}, so a client's hook starting it would answer every call with \`${word}: not found\`, a deny: install with --program "npx --no-install agents" (agents installed in this repository), or put ${word} on the PATH the agents run with`;
}

/** A client's settings file as it is: undefined when absent (exit 2 naming the file when it cannot be read). */
function readSettings(top: string, rel: string): string | undefined {
  // A regular file only, read without waiting: a FIFO at its name held the install (and --check) for ever.
  const read = readRegularFile(join(top, rel), MAX_FILE_BYTES, { followLinks: true });
  if (!read.ok) {
    const folder = rel.slice(0, rel.lastIndexOf('/'));
    if (read.code === 'missing') {
      if (statSync(join(top, folder), { throwIfNoEntry: false })?.isDirectory() === false)
        throw new UsageError(
          `cannot read ${rel}: ${folder} is a file, not a folder`,
          `The client's settings go in ${rel}: move ${folder} away, then run the install again. Nothing was written.`,
        );
      return undefined;
    }
    if (read.code === 'not-a-file')
      throw new UsageError(`cannot read ${rel}: it ${read.message}`, `Move ${rel} away, then run the install again. Nothing was written.`);
    throw new UsageError(`cannot read ${rel}: it ${read.message}`, 'Fix it, or move it away. Nothing was written.');
  }
  const bytes = read.bytes;
  // Read leniently, a byte that is not UTF-8 would be written back as U+FFFD.
  const text = readUtf8(bytes);
  if (text.ok) return text.text;
  throw new UsageError(
    `${rel}:${text.line}:${text.col}: not UTF-8 text`,
    'Save it as UTF-8, then run the install again. Nothing was written.',
  );
}

/**
 * Refuses to put the merged settings in place when the file is no longer what the install read (`before`, undefined
 * for none): an editor that saved it meanwhile would lose its change without a word. Checked just before the rename.
 */
function unchangedSince(top: string, rel: string, before: string | undefined): void {
  let now: string | undefined | null;
  try {
    now = readSettings(top, rel);
  } catch {
    // No longer readable as settings (made a folder, or not UTF-8): changed all the same.
    now = null;
  }
  if (now === before) return;
  throw storeChanged(
    `cannot write ${rel}: it ${before === undefined ? 'was created' : now === undefined ? 'was removed' : 'changed'} since the install read it (another program wrote it meanwhile)`,
    'Nothing was written to it. Run the install again: it merges the hook into the file as it is now.',
    { changed: [rel] },
  );
}

/**
 * A project's `.codex/config.toml` that switches Codex's hooks off (`[features] hooks = false`): the entry would be
 * written and found, and never run, so install and --check stop at the switch, as at Gemini CLI's and Claude Code's.
 */
function codexSwitchedOff(top: string): void {
  switchedOff(top, '.codex/config.toml', (text) => {
    const off = codexHooksOff(text);
    return (
      off && {
        offset: off.offset,
        reason: `features.${off.key} is false, so Codex CLI runs no hook, the guard's neither`,
        hint: 'Set it to true (or remove it), then run the install again. Nothing was written.',
      }
    );
  });
}

/**
 * A file of the client's beside the one the install writes that switches its hooks off (Codex CLI's config.toml,
 * Claude Code's local settings): said at its place. One that cannot be read, or is no text, says nothing: the client
 * refuses it itself.
 */
function switchedOff(
  top: string,
  rel: string,
  find: (text: string) => { offset: number; reason: string; hint?: string } | undefined,
): void {
  const text = textOf(top, rel);
  const off = text === undefined ? undefined : find(text);
  if (off === undefined || text === undefined) return;
  const { line, col } = lineStartsOf(text).linePos(off.offset);
  throw new UsageError(`${rel}:${line}:${col}: ${off.reason}`, off.hint);
}

/** What the install would write for each client, every file read first: one that cannot be merged stops it before anything is written. */
function planInstall(top: string, clients: readonly GuardClient[], program: string, check: boolean) {
  return clients.map((client) => {
    const rel = SETTINGS_FILE[client];
    const before = readSettings(top, rel);
    if (client === 'codex') codexSwitchedOff(top);
    // Claude Code reads its local settings over the project's: a disableAllHooks there switches the hook off.
    if (client === 'claude') switchedOff(top, '.claude/settings.local.json', (text) => hooksSwitchedOff('claude', text));
    const merged = mergeSettingsText(client, before, program);
    if ('reason' in merged) {
      // A byte order mark is no column, as editors and the not-UTF-8 refusal count (bytePlace).
      const bom = before!.charCodeAt(0) === 0xfeff ? 1 : 0;
      const { line, col } = lineStartsOf(before!.slice(bom)).linePos(Math.max(0, merged.offset - bom));
      if (merged.syntax)
        throw new UsageError(
          `${rel}:${line}:${col}: not valid JSON (${merged.reason})`,
          'Fix the file, then run the install again. Nothing was written.',
        );
      // Replacing a value of another shape would lose the hooks it holds: the user reshapes it.
      throw new UsageError(
        `${rel}:${line}:${col}: ${merged.reason}`,
        merged.hint ??
          `${client}'s settings take an object of event names, each a list of entries: make it one (keep your hooks in it), then run the install again. Nothing was written.`,
      );
    }
    const exists = before !== undefined;
    const changed = merged.text !== before;
    // Writing through a link would change a file outside the repository (a dotfiles folder shared by every project), and
    // replacing the link would cut it off silently: the person decides. Reading through it (--check, unchanged) is harmless.
    const user = changed && !check ? userSettingsOf(client, join(top, rel)) : undefined;
    if (user !== undefined)
      throw new UsageError(
        `cannot write ${rel}: it is ${client}'s user settings (${user}), read in every project, where the hook of a project without a store denies each call`,
        `Nothing was written. Make the store in a project's repository (agents init there) and install the hook there; to guard every project with this store, add the hook to ${user} by hand (${docsRef('guard.md', 'installing-the-hook')}).`,
        { path: user, client },
        'user-settings',
      );
    const link = changed && !check ? linkIn(top, rel) : undefined;
    if (link !== undefined)
      throw new UsageError(
        `cannot write ${rel}: ${link} is a symbolic link (to ${readlinkSync(join(top, link))}), which the install does not write through`,
        `Add the hook to the file it leads to by hand (${docsRef('guard.md', 'installing-the-hook')}), or replace the link with a real ${link === rel ? 'file' : 'folder'}, then run the install again. Nothing was written.`,
      );
    // The write renames a new file over this name: another name of the file (a hard link from a dotfiles folder) would
    // keep the old settings without a word, as a replaced link would.
    const names = changed && !check && exists ? lstatSync(join(top, rel)).nlink : 1;
    if (names > 1)
      throw new UsageError(
        `cannot write ${rel}: it has ${names} names (hard links), and the install would give this one alone the hook while the others kept the old settings`,
        `Add the hook to it by hand (${docsRef('guard.md', 'installing-the-hook')}), or make the other names symbolic links to it, then run the install again. Nothing was written.`,
      );
    // Installed is what the install would write, matcher and command included: a hook limited to Bash, or a command
    // that merely names `guard hook`, leaves the client's other tools unguarded.
    const installed = exists && !changed;
    // The entry of ours started by another program than --check was given is no hook missing: the check was.
    const found = installed ? [] : hookPrograms(client, merged.settings);
    const other = found.includes(program) ? undefined : found[0];
    return { client, rel, before, exists, installed, changed, text: merged.text, other };
  });
}

export default defineCommand<InstallArgs>({
  lists: { client: GUARD_CLIENTS },
  builder: (y) =>
    y
      .option('client', {
        type: 'string',
        array: true,
        requiresArg: true,
        demandOption: true,
        describe: `clients, comma-separated or repeated: ${GUARD_CLIENTS.join(', ')}`,
      })
      .option('check', { type: 'boolean', describe: "write nothing; exit 1 when a client's settings lack the hook" })
      .option('program', {
        type: 'string',
        requiresArg: true,
        default: 'agents',
        describe: 'how the hook starts this tool (e.g. "npx --no-install agents" or "node /path/bin/agents.js")',
      }),
  async run(argv, ctx) {
    const clients: GuardClient[] = [];
    for (const c of (argv.client ?? [])
      .flatMap((v) => String(v).split(','))
      .map((v) => v.trim())
      .filter(Boolean)) {
      if (!GUARD_CLIENTS.includes(c as GuardClient)) {
        const close = closestNames(c, GUARD_CLIENTS);
        throw new UsageError(
          `--client ${c} is not one of ${GUARD_CLIENTS.join(', ')}`,
          hintWithGuess(close, 'E.g. --client claude,codex.'),
          { option: 'client', value: c, suggestions: close },
          'invalid-value',
        );
      }
      if (!clients.includes(c as GuardClient)) clients.push(c as GuardClient);
    }
    // An empty list would install nothing and pass --check: a CI step that checks nothing.
    if (clients.length === 0)
      throw missingValue(
        `--client names no client`,
        `Name one or more of ${GUARD_CLIENTS.join(', ')}, e.g. --client claude,codex.`,
        'client',
        GUARD_CLIENTS,
      );
    // Blanks around the command are no part of it: the hook written, and --check's search, use it without them.
    const program = String(argv.program ?? 'agents').trim();
    // A hook command without its program cannot start, and the clients take a failing hook as no answer: guards off.
    if (program.trim() === '')
      throw missingValue(
        '--program is empty',
        'Give the command that starts this tool, e.g. --program agents or --program "npx --no-install agents".',
        'program',
      );
    const root = await ctx.root();
    const top = repositoryTop(root);
    // What the entry starts: the program, given the store when it is not .agents, which the hook would not find
    // unnamed (a monorepo's tools/policy/.agents): read from the session's folder, the top, as the settings lie there.
    const hooked = `${program}${hookStoreOption(top, root)}`;
    const write = async () => {
      const plans = planInstall(top, clients, hooked, false);
      // Temporaries a killed install left beside the settings (which git would show for ever) go first.
      const { removeStaleTemps } = await import('../../store/stale-temps.ts');
      removeStaleTemps(
        top,
        plans.map((p) => p.rel),
      );
      // Every file checked before the first is written: a client's folder found read-only after another's settings
      // were written left that one changed behind a message that nothing was.
      const { checkWritable, crlfTargets } = await import('../../service/export-targets.ts');
      for (const p of plans) if (p.changed) checkWritable(top, p.rel, p.exists, 'or leave that client out of --client', 'settings');
      // A full disk part-way leaves the clients before it installed: said, never "nothing was changed".
      const changed = plans.filter((p) => p.changed);
      // A new settings file gets the line ends git checks it out with, as an export's new file does (docs/adr/0606): a
      // plain git add under core.autocrlf and core.safecrlf takes it as written. A file there keeps its own.
      const crlfFiles = await crlfTargets(
        top,
        changed.filter((p) => !p.exists).map((p) => p.rel),
      );
      const written: string[] = [];
      for (const p of changed) {
        try {
          const text = crlfFiles.has(p.rel) ? crlf(p.text) : p.text;
          writeFileAtomic(top, p.rel, text, p.exists ? 'replace' : 'create', undefined, p.rel, () => unchangedSince(top, p.rel, p.before));
        } catch (error) {
          failedPartWay(error, written, `${ctx.agentsCommand()} guard install --client ${clients.join(',')}`, changed.length);
        }
        written.push(p.rel);
      }
      return plans;
    };
    const git = gitDirFor(root);
    // Installs take turns from their read to their last write: two at once each found a file absent, and the second
    // failed at its create with part of its files written; or replaced a file the first had changed since it read it.
    const plans = argv.check
      ? planInstall(top, clients, hooked, true)
      : git === undefined
        ? await write()
        : await withFolderLock(git, 'agents/guard-install', write, {
            label: join(git, 'agents/guard-install'),
            notice: (m) => ctx.notice(m),
          });
    // A session started in a folder below the top reads that folder's settings (docs/guard.md): --check says each, and
    // the install, which writes the top's only, warns of each that leaves such a session unguarded.
    const { folderSettings, homeSettings } = await import('../../service/guard-install-folders.ts');
    const folders = await folderSettings(top, clients, hooked);
    // The user's own settings switch hooks off for every project of theirs that does not set the key back.
    const home = homeSettings(top, clients);
    // --check adds the store's --store to the --program it is given, so the one to give is an entry's program without
    // it; an entry without it (installed before the store was named) no --program finds: only the install.
    const store = hooked.slice(program.length);
    const toGive = (other: string) => (other.endsWith(store) ? other.slice(0, other.length - store.length) : undefined);
    // The JSON's `program` is the one --check must be given, that entry's own where none finds it.
    const rows = guardInstallRows(
      plans.map((p) => (p.other === undefined ? p : { ...p, other: toGive(p.other) ?? p.other })),
      argv.check === true,
      folders,
      home,
    );
    if (argv.check) {
      // A failing check says what to do, as export --check does: the install that writes the missing entries, or the
      // --program an entry was installed with, which --check must be given to find it.
      const asGiven = program === 'agents' ? '' : ` --program ${shellWord(program)}`;
      const missing = plans.filter((p) => !p.installed);
      for (const other of new Set(missing.flatMap((m) => (m.other === undefined ? [] : [m.other])))) {
        const those = missing.filter((m) => m.other === other);
        const given = toGive(other);
        const check = given === undefined || given === program ? '' : `check it with --program ${shellWord(given)}, or `;
        ctx.notice(
          `${those.map((m) => m.rel).join(', ')}: the guard hook there is started by \`${other}\`, not \`${hooked}\`: ${check}run \`${ctx.agentsCommand()} guard install --client ${those.map((m) => m.client).join(',')}${asGiven}\` to replace it`,
        );
      }
      const plain = missing.filter((m) => m.other === undefined).map((m) => m.client);
      if (plain.length > 0) ctx.notice(`fix: run \`${ctx.agentsCommand()} guard install --client ${plain.join(',')}${asGiven}\``);
    }
    // Said where the hook is written; a --check in CI runs with a PATH other than the agents' own.
    const unrunnable = argv.check ? undefined : programNotRunnable(program, ctx.io.env);
    if (unrunnable !== undefined) ctx.notice(`warning: ${unrunnable}`);
    // The folders' and the user's settings that leave a session unguarded: the install warns of each, and a check that
    // fails on them says what to do with each as well.
    for (const f of folders.filter((r) => r.status !== 'installed'))
      ctx.notice(
        `warning: ${f.file}${f.line === undefined ? '' : `:${f.line}:${f.col}`}: ${f.status === 'off' ? 'switches hooks off' : 'holds no guard hook'}, so a ${f.client} session started in ${f.file.slice(0, f.file.indexOf('/.'))} runs none: ${f.status === 'off' ? 'set it back' : 'copy the entry into it by hand'}${argv.check ? '' : ` (${ctx.agentsCommand()} guard install --check lists these)`}`,
      );
    for (const f of home)
      ctx.notice(
        `warning: ${f.file}:${f.line}:${f.col}: your own ${f.client} settings switch hooks off, and the project's do not set them back, so your ${f.client} sessions here run no guard hook: set it back there, or in the project's settings (${docsRef('guard.md', 'installing-the-hook')})`,
      );
    emit(ctx, guardInstallJson(rows), () => guardInstallText(rows));
    return argv.check && rows.some((r) => r.status !== 'installed') ? EXIT_CODES.checkFailed : EXIT_CODES.ok;
  },
});
