/**
 * The guard hook's entry in each client's settings (docs/guard.md, "Install"): the command line it runs, the events
 * it is put under, and how an entry is known for ours. Pure.
 */
import type { GuardClient } from './guard-clients.ts';

export type Json = Record<string, unknown>;

/**
 * Our entry is the one whose command runs `guard hook` as a program's words (`<program> guard hook …`): found again on
 * the next install, never added twice. Only as whole words: a hook of the user's such as `secret-guard hook` or
 * `guard hook.sh` is theirs, and was replaced by ours.
 */
export const OURS = /(?:^|\s)guard\s+hook(?:\s|$)/;

/**
 * The hook command line for a client: `<program> guard hook --client <client> || exit 2`. Claude Code
 * and Codex CLI take only exit 2 as a block and let the call through on any other failure, so a hook
 * that cannot start (the program not on the agent's PATH) or dies would switch every guard off
 * unseen; `|| exit 2` makes such a failure a deny, with the shell's message as the reason. The hook
 * itself exits 0 or 2 only, so its own answers pass unchanged. Those three clients run the command
 * through a shell (seen with each); Cursor's entry stays the plain command, as how Cursor starts it
 * was not seen, and a program given `||` as arguments would refuse every call.
 */
export function hookCommand(program: string, client: GuardClient): string {
  const command = `${program} guard hook --client ${client}`;
  return client === 'cursor' ? command : `${command} || exit 2`;
}

export const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

/** The name of our hook in Gemini CLI's settings, by which `hooksConfig.disabled` would skip it. */
export const GEMINI_HOOK_NAME = 'agents-guard';

/** The event lists of each client, and the group (matcher + hooks) or plain entry we put in each. */
export function wanted(client: GuardClient, command: string): { event: string; entry: Json }[] {
  switch (client) {
    case 'claude':
      return [{ event: 'PreToolUse', entry: { matcher: '*', hooks: [{ type: 'command', command, timeout: 30 }] } }];
    case 'codex':
      return [{ event: 'PreToolUse', entry: { matcher: '.*', hooks: [{ type: 'command', command, timeout: 30 }] } }];
    case 'gemini':
      return [
        { event: 'BeforeTool', entry: { matcher: '.*', hooks: [{ type: 'command', name: GEMINI_HOOK_NAME, command, timeout: 30000 }] } },
      ];
    case 'cursor':
      return [
        { event: 'beforeShellExecution', entry: { command } },
        { event: 'beforeMCPExecution', entry: { command } },
        { event: 'preToolUse', entry: { command, matcher: 'Write|Edit|MultiEdit|StrReplace|Delete' } },
      ];
  }
}

/** Whether a hook object or a plain entry runs our command: found again by the next install (another `--program`). */
export const ourCommand = (v: unknown): boolean => typeof obj(v).command === 'string' && OURS.test(obj(v).command as string);

/** A group's hook list (Claude Code, Codex, Gemini CLI: `{matcher, hooks: [...]}`), or undefined for another shape. */
export const groupHooks = (entry: unknown): unknown[] | undefined => {
  const hooks = obj(entry).hooks;
  return Array.isArray(hooks) ? hooks : undefined;
};

/**
 * The programs that start the hooks of ours a client's settings hold (`npx --no-install agents` of
 * `npx --no-install agents guard hook --client claude || exit 2`), in the order found: `--check` given another
 * `--program` than the install had finds the entry missing, and names the one it holds.
 */
export function hookPrograms(client: GuardClient, settings: Record<string, unknown>): string[] {
  const programs: string[] = [];
  for (const { event } of wanted(client, '')) {
    const list = obj(settings.hooks)[event];
    if (!Array.isArray(list)) continue;
    for (const hook of list.flatMap((e) => groupHooks(e) ?? [e])) {
      const command = obj(hook).command;
      const at = typeof command === 'string' ? OURS.exec(command) : null;
      if (at === null) continue;
      const program = (command as string).slice(0, at.index).trim();
      if (program !== '' && !programs.includes(program)) programs.push(program);
    }
  }
  return programs;
}
