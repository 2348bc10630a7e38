/**
 * What a command needs, built once per run and only when asked
 * (docs/architecture.md, "One command"): the global options, the store's
 * root, the services over it, the output style and the outside world. A
 * command that never touches the store loads no store or service code:
 * each service module is imported on first use.
 */
import type { Style } from '../core/style.ts';
import type { InvariantService } from '../service/invariant-service.ts';
import type { PlanService } from '../service/plan-service.ts';
import type { ExportService } from '../service/export-service.ts';
import type { ReviewService } from '../service/review-service.ts';
import type { ScopeService } from '../service/scope-service.ts';
import type { CliIo, OutputFormat } from './io.ts';
import { safeText } from './safe-output.ts';
import { shellPath } from '../core/shell-word.ts';
import { envSwitchOn } from '../core/env-switch.ts';
import { makeStyle } from '../core/style.ts';

/** The global options of one run, as `main` parsed them. */
export interface ContextOptions {
  io: CliIo;
  /** `--store DIR`, else undefined (then AGENTS_STORE or discovery). */
  store: string | undefined;
  format: OutputFormat;
  color: boolean;
  /** Prompts allowed: stdin and stdout are TTYs, not in CI, and not --no-input. */
  interactive: boolean;
  /** --quiet: no progress display (src/cli/progress.ts). */
  quiet?: boolean;
  /** The run's words as given (after `agents`): where a command checks how its arguments were typed. */
  words?: readonly string[];
}

/**
 * `agents`, with `--store store` when one is given: the start of a command to paste as it is (CliContext.agentsCommand;
 * `main` says it of the words it was given, before the parse, for an error the parse itself finds).
 */
export function agentsCommandOf(store: string | undefined): string {
  return store === undefined ? 'agents' : `agents --store ${shellPath(store)}`;
}

export class CliContext implements ContextOptions {
  readonly io: CliIo;
  readonly store: string | undefined;
  readonly format: OutputFormat;
  readonly color: boolean;
  readonly interactive: boolean;
  readonly quiet: boolean;
  readonly words: readonly string[];
  #style: Style | undefined;
  #root: Promise<string> | undefined;
  #invariants: Promise<InvariantService> | undefined;
  #plans: Promise<PlanService> | undefined;
  #scopes: Promise<ScopeService> | undefined;
  #review: Promise<ReviewService> | undefined;
  /** Notices said while a screen is open, printed once it has closed (see `onScreen`). */
  #held: string[] | undefined;

  constructor(options: ContextOptions) {
    this.io = options.io;
    this.store = options.store;
    this.format = options.format;
    this.color = options.color;
    this.interactive = options.interactive;
    this.quiet = options.quiet ?? false;
    this.words = options.words ?? [];
  }

  /** Colours (or none) for text output: `--no-color`, NO_COLOR, FORCE_COLOR and the terminal decide. */
  get style(): Style {
    this.#style ??= makeStyle(this.color);
    return this.#style;
  }

  /**
   * A note on stderr (`agents: …`), held while a screen is open (see `onScreen`). What it quotes may be a folder's, a
   * link's or an ignore rule's text, anyone's to choose, so it leaves escaped, as every output does.
   */
  notice(message: string): void {
    if (this.#held) this.#held.push(message);
    else this.io.stderr.write(safeText(`agents: ${message}\n`, false));
  }

  /** `agents`, with the `--store` this run was given: the start of a command a hint gives to paste as it is. */
  agentsCommand(): string {
    return agentsCommandOf(this.store);
  }

  /**
   * `agentsCommand` for answers read where the run's folder and environment are not (the MCP server's: its client
   * started it from its own config, in a folder of its choosing): a store given by --store or AGENTS_STORE is named by
   * `root`, its absolute path, which a relative `--store ../.agents` would not name from the client's folder.
   */
  agentsCommandAt(root: string): string {
    return this.store === undefined && !this.io.env.AGENTS_STORE ? 'agents' : `agents --store ${shellPath(root)}`;
  }

  /** The store's folder: `--store`, else AGENTS_STORE, else found from the current folder (docs/store-format.md). */
  root(): Promise<string> {
    this.#root ??= import('../store/discover.ts').then(({ discoverStore }) =>
      discoverStore({ store: this.store, env: this.io.env, cwd: this.io.cwd }),
    );
    return this.#root;
  }

  /**
   * Invariants, scopes and effective sets of the store; its notices go to
   * stderr, and to `notice` (the MCP server's answers). `keepParses: false`
   * (the first call decides): every file is read and parsed, none kept in the
   * git folder's parse cache. `agents` starts the commands its refusals name (agentsCommand's, unless given).
   */
  invariants(options: { keepParses?: boolean; notice?: (message: string) => void; agents?: string } = {}): Promise<InvariantService> {
    this.#invariants ??= Promise.all([
      this.root(),
      import('../service/invariant-service.ts'),
      import('../store/parse-cache.ts'),
      import('../store/tree-source.ts'),
      import('../present/version.ts'),
      import('../store/sparse-store.ts'),
      import('../service/option-words.ts'),
    ]).then(
      async ([root, { InvariantService }, { parseCacheOf }, { WorkingTreeSource }, { BUILD_ID }, { refuseSparseStore }, { cliFlags }]) => {
        // A store a sparse checkout leaves partly out would give sets without the invariants left out.
        await refuseSparseStore(root);
        // Parses of settled files are kept in the repository's git folder unless AGENTS_NO_CACHE is on (docs/performance.md).
        const flags = cliFlags(options.agents ?? this.agentsCommand());
        const parseCache =
          envSwitchOn(this.io.env, 'AGENTS_NO_CACHE') || options.keepParses === false ? undefined : parseCacheOf(root, BUILD_ID);
        return new InvariantService(
          root,
          {
            notice: (m) => {
              this.notice(m);
              options.notice?.(m);
            },
          },
          new WorkingTreeSource(root, parseCache ? { parseCache } : {}),
          {
            ...flags,
            commit: { ...flags.commit, staleExports: async (at) => (await import('../service/commit-exports.ts')).staleExports(at) },
          },
        );
      },
    );
    return this.#invariants;
  }

  /**
   * Runs an Ink screen: the store's notices said meanwhile (a policy source not fetched) are held and printed, once
   * each, after it has closed, since a line written to the terminal under the screen would land in its frame, garble
   * it and be lost with it.
   */
  async onScreen<T>(run: () => Promise<T>): Promise<T> {
    const outer = this.#held;
    const held: string[] = [];
    this.#held = held;
    try {
      return await run();
    } finally {
      this.#held = outer;
      for (const m of new Set(held)) {
        if (outer) outer.push(m);
        else this.io.stderr.write(safeText(`agents: ${m}\n`, false));
      }
    }
  }

  /** Plans, their records, waivers and violations. */
  plans(): Promise<PlanService> {
    this.#plans ??= Promise.all([this.invariants(), import('../service/plan-service.ts')]).then(
      ([invariants, { PlanService }]) => new PlanService(invariants),
    );
    return this.#plans;
  }

  /** Action templates and projects. */
  scopes(): Promise<ScopeService> {
    this.#scopes ??= Promise.all([this.invariants(), import('../service/scope-service.ts')]).then(
      ([invariants, { ScopeService }]) => new ScopeService(invariants),
    );
    return this.#scopes;
  }

  /**
   * `agents export` over the store: with `cache`, answered from what the last
   * export knew (kept in the repository's git folder) unless AGENTS_NO_CACHE
   * is set (docs/export.md). Made per call: its options are the command's.
   */
  async exporter(options: { cache: boolean }): Promise<ExportService> {
    const [invariants, { ExportService }] = await Promise.all([this.invariants(), import('../service/export-service.ts')]);
    if (!options.cache || envSwitchOn(this.io.env, 'AGENTS_NO_CACHE')) return new ExportService(invariants);
    const [{ ExportCache }, { defaultCacheDir }, { BUILD_ID }] = await Promise.all([
      import('../store/export-cache.ts'),
      import('../validate/cache.ts'),
      import('../present/version.ts'),
    ]);
    const dir = defaultCacheDir(invariants.root);
    return new ExportService(invariants, dir !== undefined ? { cache: ExportCache.in(dir), build: BUILD_ID } : undefined);
  }

  /** Diffs and history of the store through git. */
  review(): Promise<ReviewService> {
    // With no store in the working tree, a diff of two revisions still reads it where it was (docs/review.md).
    const place = this.root().then(
      (root) => ({ root, absent: undefined }),
      async (error: unknown) => {
        const { storePlaceAtRevisions } = await import('../store/discover.ts');
        let at: { root: string; top: string } | undefined;
        try {
          at = storePlaceAtRevisions({ store: this.store, env: this.io.env, cwd: this.io.cwd });
        } catch {
          throw error;
        }
        if (at === undefined || !(error instanceof Error)) throw error;
        return { root: at.root, absent: { top: at.top, error } };
      },
    );
    this.#review ??= Promise.all([place, import('../service/review-service.ts'), import('../service/option-words.ts')]).then(
      ([{ root, absent }, { ReviewService }, { cliFlags }]) =>
        new ReviewService(root, () => this.invariants(), absent, cliFlags(this.agentsCommand())),
    );
    return this.#review;
  }
}
