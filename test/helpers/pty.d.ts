/**
 * The real `bin/agents.js` in a real pseudo-terminal (a private tmux server).
 * After the program ends, the pane prints `[exit N]` and the terminal's mode,
 * then idles, so tests can read the exit code and check the terminal was restored.
 */
export declare class PtySession {
    private readonly socket;
    readonly cwd: string;
    private constructor();
    static start(args: string[], options: {
        cwd: string;
        columns?: number;
        rows?: number;
        env?: Record<string, string>;
    }): PtySession;
    private tmux;
    /** The visible screen, as text (`escapes`: with colour and style escapes). */
    screen(escapes?: boolean): string;
    /** A tmux format of the pane, e.g. `#{cursor_flag}` or `#{alternate_on}`. */
    format(fmt: string): string;
    /** Polls the screen until it shows `expected` (bounded: fails after `timeoutMs` with the last screen). */
    waitFor(expected: string | RegExp, timeoutMs?: number): Promise<string>;
    /** Named keys (Enter, Escape, C-c, Down, BSpace …), one at a time. */
    keys(...keys: string[]): void;
    /** Literal text, as typed. */
    type(text: string): void;
    /** Waits for the program to end; its exit code and the terminal mode it left (e.g. "icanon echo"). */
    exit(timeoutMs?: number): Promise<{
        code: number;
        mode: string;
        screen: string;
    }>;
    kill(): void;
}
