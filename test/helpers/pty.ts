import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { BIN } from './cli.ts';
import { GIT_ENV } from './git.ts';
import { tempDir } from './tmp.ts';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The real `bin/agents.js` in a real pseudo-terminal (a private tmux server).
 * After the program ends, the pane prints `[exit N]` and the terminal's mode,
 * then idles, so tests can read the exit code and check the terminal was restored.
 */
export class PtySession {
  private constructor(
    private readonly socket: string,
    readonly cwd: string,
  ) {}

  /**
   * `record`: a file that receives every byte the program writes to the
   * terminal (tmux pipe-pane), from its first: the program starts only once
   * the recording runs. `jobControl`: the program runs as a job of a shell
   * that has job control, as at a prompt; stopped (Ctrl-Z), the pane prints
   * `[stopped]` and the terminal's mode, and the shell puts it back in the
   * foreground (`fg`) once the test sends Enter. `above`: lines printed before the program starts, as a previous
   * command's output at a prompt, so that its screen is drawn below them rather than at the terminal's first row.
   * `stty`: settings given to the terminal before the program starts (`cols 0 rows 0`: a terminal that reports no size).
   */
  static start(
    args: string[],
    options: {
      cwd: string;
      columns?: number;
      rows?: number;
      env?: Record<string, string>;
      record?: string;
      jobControl?: boolean;
      above?: string[];
      stty?: string;
    },
  ): PtySession {
    const dir = tempDir('agents-pty-');
    const socket = join(dir, 'tmux.sock');
    const conf = join(dir, 'tmux.conf');
    // tmux sets the pane's TERM itself (default-terminal): a TERM the test gives is passed on that way.
    const term = options.env?.TERM ? `set -g default-terminal ${quote(options.env.TERM)}\n` : '';
    writeFileSync(conf, `set -g status off\nset -g history-limit 0\n${term}`);
    const env: NodeJS.ProcessEnv = { ...process.env, ...GIT_ENV, NO_COLOR: '1', TERM: 'xterm-256color', ...options.env };
    // An interactive terminal is the point: the test helpers' CI=true must not leak in (unless a test sets CI itself).
    if (options.env?.CI === undefined) delete env.CI;
    delete env.AGENTS_STORE;
    delete env.TMUX;
    const go = options.record ? `${options.record}.go` : undefined;
    const mode = `stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '`;
    // A job stopped by SIGTSTP ends its wait with 128 + 20.
    const stopped = options.jobControl
      ? `if [ "$code" = 148 ]; then printf '\\n[stopped]\\n'; ${mode}; printf '\\n'; read _; fg; code=$?; fi; `
      : '';
    // The shell outlives a Ctrl-C sent to the program (a trap, unlike an ignored signal, is not inherited), so it can report the exit code.
    const script =
      (options.jobControl ? 'set -m; ' : '') +
      'trap : INT; ' +
      (go ? `while [ ! -e ${quote(go)} ]; do sleep 0.05; done; ` : '') +
      (options.above ? `printf '%s\\n' ${options.above.map(quote).join(' ')}; ` : '') +
      (options.stty ? `stty ${options.stty}; ` : '') +
      `${quote(process.execPath)} ${quote(BIN)} ${args.map(quote).join(' ')}; ` +
      `code=$?; ${stopped}printf '\\n[exit %s]\\n' "$code"; ` +
      `${mode}; printf '\\n[done]\\n'; sleep 600`;
    execFileSync(
      'tmux',
      [
        '-S',
        socket,
        '-f',
        conf,
        'new-session',
        '-d',
        '-s',
        'agents',
        '-x',
        String(options.columns ?? 80),
        '-y',
        String(options.rows ?? 24),
        '-c',
        options.cwd,
        `${options.jobControl ? 'bash --norc --noprofile' : 'sh'} -c ${quote(script)}`,
      ],
      { env },
    );
    const session = new PtySession(socket, options.cwd);
    onTestFinished(() => session.kill());
    if (options.record && go) {
      session.tmux('pipe-pane', '-o', '-t', 'agents', `cat >> ${quote(options.record)}`);
      writeFileSync(go, '');
    }
    return session;
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-S', this.socket, ...args], { encoding: 'utf8' });
  }

  /** The visible screen, as text (`escapes`: with colour and style escapes). */
  screen(escapes = false): string {
    return this.tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', 'agents');
  }

  /** A tmux format of the pane, e.g. `#{cursor_flag}` or `#{alternate_on}`. */
  format(fmt: string): string {
    return this.tmux('display-message', '-p', '-t', 'agents', fmt).trim();
  }

  /**
   * Sends `signal` to the program (the child of the pane's shell), as `kill` or a supervisor would: Linux's /proc
   * names the child.
   */
  signal(signal: NodeJS.Signals): void {
    const shell = Number(this.format('#{pane_pid}'));
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat = '';
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue;
      }
      // pid (comm) state ppid …: the fields after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === shell) {
        process.kill(Number(entry), signal);
        return;
      }
    }
    throw new Error(`no program runs in the pane (shell ${shell})`);
  }

  /** Polls the screen until it shows `expected` (bounded: fails after `timeoutMs` with the last screen). */
  async waitFor(expected: string | RegExp, timeoutMs = 30_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    for (;;) {
      last = this.screen();
      if (typeof expected === 'string' ? last.includes(expected) : expected.test(last)) return last;
      if (Date.now() > deadline)
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${String(expected)}; the screen was:\n${last}`);
      // Most screens are drawn within a few tens of ms: a short interval ends most waits sooner (3 s off the pty
      // files together) for a tmux capture every 25 ms, a few ms of CPU each.
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Resizes the terminal, as a person dragging the window would (the program gets SIGWINCH). */
  resize(columns: number, rows: number): void {
    this.tmux('resize-window', '-t', 'agents', '-x', String(columns), '-y', String(rows));
  }

  /** Named keys (Enter, Escape, C-c, Down, BSpace …), one at a time. */
  keys(...keys: string[]): void {
    for (const k of keys) this.tmux('send-keys', '-t', 'agents', k);
  }

  /** Literal text, as typed. */
  type(text: string): void {
    this.tmux('send-keys', '-t', 'agents', '-l', text);
  }

  /**
   * Text pasted, as a terminal pastes it: marked as a paste (bracketed paste) when the program asked for that,
   * with its line breaks as carriage returns.
   */
  paste(text: string): void {
    this.tmux('set-buffer', '-b', 'agents-paste', '--', text);
    this.tmux('paste-buffer', '-p', '-d', '-b', 'agents-paste', '-t', 'agents');
  }

  /** Waits for the program to end; its exit code and the terminal mode it left (e.g. "icanon echo"). */
  async exit(timeoutMs = 30_000): Promise<{ code: number; mode: string; screen: string }> {
    const screen = await this.waitFor(/\[exit (\d+)\][\s\S]*\[done\]/, timeoutMs);
    const m = /\[exit (\d+)\]\n(.*)\n\[done\]/.exec(screen.replace(/\n+(?=\[done\])/, '\n'));
    return { code: Number(/\[exit (\d+)\]/.exec(screen)![1]), mode: (m?.[2] ?? '').trim(), screen };
  }

  kill(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}
