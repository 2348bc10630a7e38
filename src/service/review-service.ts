/**
 * Git-native review (docs/review.md): effective-set diffs between two trees
 * of the store, and the history of one invariant. The work is split by job
 * under `review/`: ranges (what each side is), revision trees (reading the
 * store at a revision, in the index or the working tree), diff and log.
 */
import { UsageError } from '../core/errors.ts';
import { typeName } from '../core/input-shape.ts';
import { normalisePrefix } from '../core/id-prefix.ts';
import type { InvariantService } from './invariant-service.ts';
import { refuseOtherKind } from './invariants/lookup.ts';
import { diffRevisions, type DiffResult } from './review/diff.ts';
import { invariantLog, type LogResult } from './review/log.ts';
import type { DiffRequest } from './review/ranges.ts';
import { type OptionWords, optionWords } from './option-words.ts';

export type { DiffResult } from './review/diff.ts';
export type { LogEvent, LogResult } from './review/log.ts';
export type { DiffRequest, SideInfo } from './review/ranges.ts';

export class ReviewService {
  /** The command line's: how it finds the store's invariants, a store found only at revisions, its option words. @internal */
  constructor(
    root: string,
    invariants: (() => Promise<InvariantService>) | undefined,
    absent: { top: string; error: Error } | undefined,
    words: OptionWords | undefined,
  );
  constructor(root: string);
  constructor(
    readonly root: string,
    /** The store's invariants, asked only when `log` finds no history of an id: to say where an inherited one's is. */
    private readonly invariants?: () => Promise<InvariantService>,
    /**
     * The working tree holds no store at `root` (`top`: its repository): only a diff of two revisions holding it reads
     * it; anything else throws `error`, why none was found.
     */
    private readonly absent?: { top: string; error: Error },
    /** What a refusal calls the request's fields: the command line's flags (CLI_FLAGS); the library's when left out. */
    private readonly words?: OptionWords,
  ) {
    // The other services take an InvariantService; this one the store's path, which a caller may mix up.
    const given: unknown = root;
    if (typeof given !== 'string')
      throw new UsageError(
        `ReviewService takes the store's path, not ${given instanceof Object && 'source' in given ? 'an InvariantService' : typeName(given)}`,
        "Give the store folder: new ReviewService(service.root) for an InvariantService's store.",
        { field: 'root' },
      );
  }

  /** The effective-set diff between two trees of the store. */
  diff(request: DiffRequest = {}): Promise<DiffResult> {
    return diffRevisions(this.root, request, this.absent, this.words);
  }

  /** The history of one invariant (an id or a unique prefix), newest first, following moves between scopes. */
  async log(idOrPrefix: string): Promise<LogResult> {
    if (this.absent !== undefined) throw this.absent.error;
    try {
      return await invariantLog(this.root, idOrPrefix);
    } catch (error) {
      // Only an id history does not know is looked for in the store (not a missing repository, say).
      if (!(error instanceof UsageError) || !['usage', 'unknown-id'].includes(error.code) || this.invariants === undefined) throw error;
      // An inherited invariant has no history in this repository: its file lives in the policy source's.
      // So has one of a source's action templates (`SOURCE:NS/NAME`).
      const held = await (await this.invariants()).resolveId(idOrPrefix, { inherited: true }).catch(() => undefined);
      const source = held?.scope.kind === 'inherited' || held?.scope.kind === 'action' ? held.scope.source : undefined;
      if (held === undefined) {
        // A plan's or a record's id given for an invariant's is said so, as `invariant show` says it.
        const wanted = normalisePrefix(idOrPrefix);
        const { calls } = optionWords(this.words);
        const hint = `Give an invariant's id (\`${calls.listAll}\` shows them); \`${calls.diffPlan}\` shows a plan's changes.`;
        if (wanted !== undefined) await refuseOtherKind(await this.invariants(), wanted, 'invariant', hint);
        throw error;
      }
      if (source === undefined) {
        // The store holds it, but no commit does yet (added, not committed): said so, not "no invariant with id".
        // A prefix that history finds ambiguous stays that error: only an id no commit names at all is new.
        const committed = await invariantLog(this.root, held.id).then(
          () => true,
          (again: unknown) => {
            // A history git could not read (git log failed) is said as git said it, not as one no commit holds.
            if (again instanceof UsageError && again.code === 'unknown-id') return false;
            throw again;
          },
        );
        if (committed) throw error;
        throw new UsageError(
          `${held.id} has no history yet: no commit holds ${held.path}`,
          `Commit it (\`git add\` and \`git commit\`); \`${optionWords(this.words).calls.log(held.id)}\` then shows its history.`,
          { id: held.id, path: held.path },
        );
      }
      // Inherited paths are read as `extends/<source>/…`; in the source's own store the file is the rest.
      const path = held.path.slice(`extends/${source}/`.length);
      throw new UsageError(
        `${held.id} is inherited from the policy source ${source}: its history is in that source's repository, not this one`,
        `Run \`git log\` on ${path} of the source's store, in a clone of the source (\`${optionWords(this.words).calls.show(held.id)}\` says where it comes from).`,
        { id: held.id, source, path },
      );
    }
  }
}
