// The history of files through `git log --raw` (every git process through runner.ts).
import { runGit } from './runner.ts';

/** One file change of a commit, from `git log --raw`. */
export interface RawChange {
  status: string;
  /** File modes (`100644`, `120000` for a symbolic link…); `000000` on the side where the file does not exist. */
  oldMode: string;
  newMode: string;
  /** Blob ids; all zeros on the side where the file does not exist. */
  oldSha: string;
  newSha: string;
  /** Repository-relative path. */
  path: string;
  /** A merge's: each parent's mode and blob, the first's included (`oldMode`, `oldSha`); absent for other commits. */
  parents?: { mode: string; sha: string }[];
}

export interface LogCommit {
  commit: string;
  /** The parents' commit ids, in git's order (a merge has two or more). */
  parents: string[];
  author: string;
  email: string;
  /** Author date, ISO 8601 with the author's offset. */
  date: string;
  subject: string;
  changes: RawChange[];
}

export const NULL_SHA = '0000000000000000000000000000000000000000';

/** `text` matched as itself inside a `:(glob)` pathspec: a folder may be named with `*`, `?`, `[` or a backslash. */
export function globLiteral(text: string): string {
  return text.replace(/[\\*?[\]]/g, '\\$&');
}

/**
 * Commits (newest first) that touched paths matching `pathspecs`, each with its
 * raw file changes (no rename detection: callers pair deletions and additions
 * themselves). One `git log` process. A merge lists only the files it made
 * differ from every parent (a conflict resolved by hand, markers committed,
 * or two sides' edits merged), each as a change from its first parent, with
 * every parent's version (`parents`): what it took unchanged from one side
 * is the change of the commits it merges.
 */
export async function logRaw(cwd: string, pathspecs: readonly string[]): Promise<LogCommit[]> {
  const out = (
    await runGit(
      cwd,
      [
        'log',
        '-z',
        '--raw',
        '--no-renames',
        '--no-abbrev',
        '-c',
        '--no-color',
        '--format=%x1e%H%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%s',
        // Names and subjects in UTF-8, as they are read, whatever i18n.logOutputEncoding says.
        '--encoding=UTF-8',
        '--',
        ...pathspecs,
      ],
      undefined,
      undefined,
      undefined,
      // log.follow=true (a user's setting) follows one file's renames, for which git refuses a glob pathspec: it
      // stops after the first commit, and the history read would be cut short.
      [['log.follow', 'false']],
    )
  ).toString('utf8');
  const commits: LogCommit[] = [];
  for (const chunk of out.split('\x1e')) {
    if (chunk === '') continue;
    const end = chunk.indexOf('\0');
    const header = end < 0 ? chunk : chunk.slice(0, end);
    const [commit = '', parentList = '', author = '', email = '', date = '', subject = ''] = header.split('\x1f');
    const fields =
      end < 0
        ? []
        : chunk
            .slice(end + 1)
            .replace(/^\n/, '')
            .split('\0');
    const changes: RawChange[] = [];
    // A field that is not a change's line (the empty one git writes after a merge's header) is skipped alone, keeping the pairs aligned.
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const meta = fields[i]!.replace(/^\n/, '');
      if (!meta.startsWith(':')) {
        i--;
        continue;
      }
      // A merge's combined line starts with one colon per parent: its parents' modes and blobs, then the result's.
      const parents = /^:+/.exec(meta)![0].length;
      const parts = meta.slice(parents).split(' ');
      const mode = (k: number) => parts[k] ?? '000000';
      // git writes "no file" as an id of zeros as long as the repository's (64 under SHA-256): one constant for both.
      const sha = (k: number) => {
        const id = parts[parents + 1 + k];
        return id === undefined || /^0+$/.test(id) ? NULL_SHA : id;
      };
      const status = (parts[2 * parents + 2] ?? 'M').slice(0, 1);
      const change: RawChange = {
        status,
        oldMode: mode(0),
        newMode: mode(parents),
        oldSha: sha(0),
        newSha: sha(parents),
        path: fields[i + 1]!,
      };
      if (parents > 1) change.parents = Array.from({ length: parents }, (_, k) => ({ mode: mode(k), sha: sha(k) }));
      changes.push(change);
    }
    commits.push({ commit, parents: parentList.split(' ').filter((p) => p !== ''), author, email, date, subject, changes });
  }
  return commits;
}
