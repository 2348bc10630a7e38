import { byPosition } from '../core/diagnostics.ts';
import { AgentsError } from '../core/errors.ts';
import { classifyPath } from '../core/layout.ts';
import { isUlid } from '../core/names.ts';
import { parseYaml } from '../core/parse.ts';
import { modeline } from '../core/serialize.ts';
import { clearStaleLock, isFolder, removeFile, removeFolder, removeLockBlocker, writeFileAtomic } from '../store/write.ts';
import type { WorkingTreeSource } from '../store/tree-source.ts';
import { modelineSchema } from './check-file.ts';
import type { ValidateReport } from './checks.ts';

/** One change `--fix` made (or declined to make, with the reason). */
export interface Fix {
  file: string;
  action: 'add-modeline' | 'rename' | 'remove-temporary' | 'remove-stale-lock' | 'remove-bad-lock';
  /** For a rename: the new store-relative path. */
  to?: string;
  done: boolean;
  message: string;
}

export interface FixOptions {
  /** Whether a process of this host is still running (it may still own its temporary file). */
  processAlive: (pid: number) => boolean;
}

const BOM = '\uFEFF';

/**
 * Applies the fixes that are safe to make mechanically, and nothing else:
 * a missing modeline, a file name that differs from a valid unused id, and
 * temporary files and lock files of writers that are gone, and whatever
 * stands at a lock's name that is not a file (a link, a FIFO, an empty
 * folder). Every write is atomic.
 */
export function applyFixes(tree: WorkingTreeSource, report: ValidateReport, options: FixOptions): Fix[] {
  const fixes: Fix[] = [];
  const claimed = new Set(report.usedIds);
  const renamed = new Set<string>();
  const diagnostics = byPosition(report.diagnostics);
  for (const d of diagnostics) {
    switch (d.code) {
      case 'id-mismatch':
      case 'id-invalid': {
        if (renamed.has(d.file)) break;
        const fix = renameToId(tree, d.file, claimed);
        if (fix) {
          fixes.push(fix);
          renamed.add(d.file);
        }
        break;
      }
      case 'temporary-file':
        fixes.push(removeTemporary(tree, d.file, options));
        break;
      case 'stale-lock': {
        const why = clearStaleLock(tree.root, d.file);
        fixes.push(
          why === null
            ? {
                file: d.file,
                action: 'remove-stale-lock',
                done: false,
                message: `kept ${d.file}: it is not stale now (its process is running, or another writer took it)`,
              }
            : { file: d.file, action: 'remove-stale-lock', done: true, message: `removed stale lock ${d.file} (${why})` },
        );
        break;
      }
      case 'bad-lock':
        fixes.push(
          attempt({ file: d.file, action: 'remove-bad-lock', message: `removed ${d.file}, which was not a writer's lock file` }, () =>
            removeLockBlocker(tree.root, d.file),
          ),
        );
        break;
      default:
        break;
    }
  }
  for (const d of diagnostics) {
    if (d.code !== 'modeline-missing' || renamed.has(d.file)) continue;
    const bytes = report.bytes.get(d.file);
    if (bytes) fixes.push(addModeline(tree, d.file, bytes));
  }
  return fixes;
}

function attempt(fix: Omit<Fix, 'done'>, act: () => void): Fix {
  try {
    act();
    return { ...fix, done: true };
  } catch (error) {
    if (!(error instanceof AgentsError)) throw error;
    return { ...fix, done: false, message: `${fix.message}: not done, ${error.message}` };
  }
}

/** An invariant file named other than its id, when the id is a valid ULID no other file uses. */
function renameToId(tree: WorkingTreeSource, file: string, claimed: Set<string>): Fix | undefined {
  const kind = classifyPath(file);
  const inScope = kind.kind === 'invariant' || (kind.kind === 'bad-id' && kind.scope !== undefined);
  if (!inScope) return undefined;
  const r = tree.readOne(file);
  if (!r.ok) return undefined;
  const parsed = parseYaml(file, r.bytes);
  const data = parsed.value?.data as { id?: unknown } | undefined;
  const id = data && typeof data === 'object' ? data.id : undefined;
  if (typeof id !== 'string' || !isUlid(id) || claimed.has(id)) return undefined;
  const to = `${file.slice(0, file.lastIndexOf('/') + 1)}${id}.yaml`;
  claimed.add(id);
  return attempt({ file, action: 'rename', to, message: `renamed ${file} to ${to} (the name now equals its id)` }, () => {
    writeFileAtomic(tree.root, to, new TextDecoder().decode(r.bytes), 'create');
    removeFile(tree.root, file);
  });
}

/** `.<name>.<pid>.<random>.tmp`, left by a writer that died before renaming it into place. */
function removeTemporary(tree: WorkingTreeSource, file: string, options: FixOptions): Fix {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const pid = Number(/\.(\d+)\.[0-9a-f]+\.tmp$/.exec(base)?.[1] ?? NaN);
  if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && options.processAlive(pid)) {
    return {
      file,
      action: 'remove-temporary',
      done: false,
      message: `kept ${file}: process ${pid} that may be writing it is still running`,
    };
  }
  if (isFolder(tree.root, file)) {
    return attempt({ file, action: 'remove-temporary', message: `removed unfinished plan folder ${file}/` }, () =>
      removeFolder(tree.root, file),
    );
  }
  return attempt({ file, action: 'remove-temporary', message: `removed temporary file ${file}` }, () => removeFile(tree.root, file));
}

/** Prepends the modeline, keeping a BOM first and the file's line endings. */
function addModeline(tree: WorkingTreeSource, file: string, bytes: Uint8Array): Fix {
  const schema = modelineSchema(classifyPath(file))!;
  let text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  const bom = text.startsWith(BOM) ? BOM : '';
  if (bom) text = text.slice(1);
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  const line = modeline(file, schema);
  return attempt({ file, action: 'add-modeline', message: `added the schema modeline to ${file}` }, () =>
    writeFileAtomic(tree.root, file, `${bom}${line}${eol}${text}`, 'replace'),
  );
}
