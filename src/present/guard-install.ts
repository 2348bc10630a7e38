// The shape `agents guard install` prints (docs/json-output.md, docs/guard.md): one row per settings file, the
// clients' top settings first (written, unchanged; with --check installed or missing), then with --check the folders'
// and the user's settings that leave a session unguarded.
import type { GuardClient } from '../core/guard-clients.ts';
import type { FolderSettings } from '../service/guard-install-folders.ts';

/** One settings file of the report; `program` the one a --check must be given to find the hook another program starts. */
export interface GuardInstallRow {
  client: GuardClient;
  file: string;
  status: string;
  line?: number;
  col?: number;
  program?: string;
}

/** What the install found or did in one client's top settings file. */
export interface ClientInstall {
  client: GuardClient;
  /** The file, relative to the top of the repository. */
  rel: string;
  installed: boolean;
  changed: boolean;
  /** The program another install's hook entry starts, when it is not this one's. */
  other: string | undefined;
}

/** The rows of `guard install` (`check`: of --check, with the folders' and the user's settings after the clients'). */
export function guardInstallRows(
  clients: readonly ClientInstall[],
  check: boolean,
  folders: readonly FolderSettings[] = [],
  home: readonly FolderSettings[] = [],
): GuardInstallRow[] {
  const rows: GuardInstallRow[] = clients.map((p) => ({
    client: p.client,
    file: p.rel,
    status: check ? (p.installed ? 'installed' : 'missing') : p.changed ? 'written' : 'unchanged',
    ...(check && p.other !== undefined ? { program: p.other } : {}),
  }));
  if (check) rows.push(...folders, ...home);
  return rows;
}

/** The JSON of `guard install`: the rows as they are. */
export function guardInstallJson(rows: readonly GuardInstallRow[]): readonly GuardInstallRow[] {
  return rows;
}

export function guardInstallText(rows: readonly GuardInstallRow[]): string {
  return rows.map((r) => `${r.client}  ${r.file}${r.line === undefined ? '' : `:${r.line}:${r.col}`}  ${r.status}`).join('\n');
}
