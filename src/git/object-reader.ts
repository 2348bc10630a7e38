// The revisions' object reader of `invariant diff` (docs/review.md): one `git cat-file --batch` for a whole walk.
import { GitError } from './repo.ts';
import { GitProcessError, promisorUnreachable, spawnGit, startFailure } from './runner.ts';

/** An object read by an ObjectReader. */
export interface GitObject {
  type: string;
  /** Its size in bytes. */
  size: number;
  /** Its bytes; empty when `size` is over the limit of the round that read it (never held). */
  data: Buffer;
}

/** A round of names asked at once, answered in order. */
interface Round {
  names: string[];
  next: number;
  out: Map<string, GitObject | null>;
  done: () => void;
  each?: (name: string, o: GitObject | null) => void;
  maxBytes: number;
}

/**
 * One long-lived `git cat-file --batch` process, asked for objects in rounds
 * (`read`), each answered before the next is asked: a reader that walks trees
 * needs the answer to one round to know the next, and one process for all of
 * them costs one start instead of one per round. Object names are ids or
 * `<commit>^{tree}` (never paths: a name may not hold a newline).
 */
export class ObjectReader {
  private readonly child;
  /** Rounds asked and not yet answered, oldest first; `next` is the first name of a round still to answer. */
  private rounds: Round[] = [];
  /** The header line read so far. */
  private header: Buffer[] = [];
  /** The object whose bytes are coming: what is left of them (with git's LF after them), and those kept. */
  private body: { type: string; size: number; left: number; chunks: Buffer[] | undefined } | undefined;
  private failed: Error | undefined;

  constructor(cwd: string) {
    this.child = spawnGit(cwd, ['cat-file', '--batch']);
    const stderr: Buffer[] = [];
    this.child.stderr.on('data', (c: Buffer) => stderr.push(c));
    this.child.stdout.on('data', (c: Buffer) => this.take(c));
    const fail = (failure: string | Error) => {
      this.failed ??= typeof failure === 'string' ? new GitError(failure, 'failed') : failure;
      for (const r of this.rounds.splice(0)) r.done();
    };
    this.child.on('error', (e) => {
      const why = startFailure(e, cwd);
      fail(why instanceof GitProcessError ? why.message : why);
    });
    this.child.on('close', (code) => {
      if (this.rounds.length === 0 && code === 0) return;
      const said = Buffer.concat(stderr).toString('utf8').trim();
      fail(promisorUnreachable(said) ?? `git cat-file --batch stopped: ${said || `exit code ${code}`}`);
    });
    this.child.stdin.on('error', () => undefined);
  }

  /**
   * Reads git's output as it comes, each chunk once: an object's bytes are kept as their chunks and joined
   * when the last arrives (joining at every chunk would copy a large blob once per chunk), and those of an
   * object over the round's limit are passed over.
   */
  private take(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length && this.rounds.length > 0) {
      const body = this.body;
      if (body !== undefined) {
        const n = Math.min(body.left, chunk.length - pos);
        body.chunks?.push(chunk.subarray(pos, pos + n));
        pos += n;
        body.left -= n;
        if (body.left > 0) continue;
        this.body = undefined;
        const data = body.chunks ? Buffer.concat(body.chunks).subarray(0, body.size) : Buffer.alloc(0);
        this.answer({ type: body.type, size: body.size, data });
        continue;
      }
      const nl = chunk.indexOf(0x0a, pos);
      if (nl < 0) {
        this.header.push(chunk.subarray(pos));
        break;
      }
      this.header.push(chunk.subarray(pos, nl));
      pos = nl + 1;
      const header = Buffer.concat(this.header).toString('latin1');
      this.header = [];
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.answer(null);
        continue;
      }
      // "<id> SP <type> SP <size>"
      const last = header.lastIndexOf(' ');
      const size = Number(header.slice(last + 1));
      const type = header.slice(header.indexOf(' ') + 1, last);
      this.body = { type, size, left: size + 1, chunks: size <= this.rounds[0]!.maxBytes ? [] : undefined };
    }
  }

  /** The answer to the next name asked. */
  private answer(o: GitObject | null): void {
    const round = this.rounds[0]!;
    const name = round.names[round.next++]!;
    round.out.set(name, o);
    round.each?.(name, o);
    if (round.next === round.names.length) {
      this.rounds.shift();
      round.done();
    }
  }

  /**
   * The objects `names` name (null: missing), in one round. `each` sees each
   * object as it arrives, while git still reads the next ones; it must not throw.
   * An object over `maxBytes` is answered by its size, its bytes never held.
   */
  async read(
    names: readonly string[],
    each?: (name: string, o: GitObject | null) => void,
    maxBytes = Number.POSITIVE_INFINITY,
  ): Promise<Map<string, GitObject | null>> {
    const unique = [...new Set(names)];
    const out = new Map<string, GitObject | null>();
    if (unique.length === 0) return out;
    if (this.failed) throw this.failed;
    await new Promise<void>((done) => {
      this.rounds.push({ names: unique, next: 0, out, done, ...(each ? { each } : {}), maxBytes });
      this.child.stdin.write(`${unique.join('\n')}\n`);
    });
    if (this.failed) throw this.failed;
    return out;
  }

  /** Ends the process (stdin closed: git exits). */
  close(): void {
    this.child.stdin.end();
  }
}

/**
 * The contents of many blobs from ONE `git cat-file --batch` process (docs/review.md),
 * never a process per file. Keys are the requested object names. With
 * `maxBytes`, a blob over it is answered by its size and never held: git's
 * output is read as it comes, so a huge staged file costs no memory.
 */
export async function catFileBatch(cwd: string, objects: readonly string[]): Promise<Map<string, Buffer | null>>;
export async function catFileBatch(cwd: string, objects: readonly string[], maxBytes: number): Promise<Map<string, Buffer | null | number>>;
export async function catFileBatch(
  cwd: string,
  objects: readonly string[],
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<Map<string, Buffer | null | number>> {
  const result = new Map<string, Buffer | null | number>();
  if (objects.length === 0) return result;
  const reader = new ObjectReader(cwd);
  try {
    for (const [name, o] of await reader.read(objects, undefined, maxBytes))
      result.set(name, o === null ? null : o.size > maxBytes ? o.size : o.data);
  } finally {
    reader.close();
  }
  return result;
}
