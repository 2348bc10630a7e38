/**
 * The one reader of a store's `config.yaml` (docs/store-format.md,
 * "config.yaml"). Its shape and defaults are `parseConfig` in the parse core
 * (schemas/config.schema.json); this module reads the file from a tree:
 * defaults when it is absent, its problems as diagnostics with
 * file:line:col, and for commands that need it valid, one error (exit 3).
 * The CLI, the services, the MCP server and `validate` all read it here.
 */
import type { Diagnostic } from '../core/diagnostics.ts';
import { InvalidStoreError } from '../core/errors.ts';
import { DEFAULT_CONFIG, type StoreConfig } from '../core/model.ts';
import type { ActorKind } from '../core/record-types.ts';
import { readEntries } from './read.ts';
import type { TreeSource } from './tree-source.ts';

export const CONFIG_FILE = 'config.yaml';

/**
 * The store's config.yaml (the defaults when it is absent) and its problems; never throws for a bad file.
 * A configured actor that lacks a key it needs (`actor-incomplete`) is apart, in `actor`: only the run of
 * that actor stops on it, and `validate` reports it (ADR 0702).
 */
export async function readConfig(source: TreeSource): Promise<{ config: StoreConfig; diagnostics: Diagnostic[]; actor?: Diagnostic }> {
  const top = await source.list('', { recursive: false });
  const entry = top.find((e) => e.path === CONFIG_FILE);
  if (!entry) return { config: structuredClone(DEFAULT_CONFIG), diagnostics: [] };
  const snap = await readEntries(source, [entry]);
  return { config: snap.config ?? structuredClone(DEFAULT_CONFIG), ...actorApart(snap.diagnostics) };
}

/** config.yaml's problems with its actor's (`actor-incomplete`) held apart, for every reader of the file that runs no actor. */
export function actorApart(diagnostics: Diagnostic[]): { diagnostics: Diagnostic[]; actor?: Diagnostic } {
  const actor = diagnostics.find((d) => d.code === 'actor-incomplete');
  return actor === undefined ? { diagnostics } : { diagnostics: diagnostics.filter((d) => d !== actor), actor };
}

/**
 * The store's config.yaml for a command that acts on it: the defaults when
 * absent; unreadable (a FIFO, a folder, a link…) or invalid is an
 * InvalidStoreError naming config.yaml:line:col, never the defaults. With
 * `actor`, the command runs that actor (`configured`: the one config.yaml
 * names), and config.yaml's actor lacking a key it needs is invalid too.
 */
export async function loadConfig(source: TreeSource, options: { actor?: ActorKind | 'configured' } = {}): Promise<StoreConfig> {
  const { config, diagnostics, actor } = await readConfig(source);
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const runs = options.actor === 'configured' ? config.reconciliation.actor : options.actor;
  if (actor !== undefined && runs === config.reconciliation.actor) errors.push(actor);
  const first = errors[0];
  if (!first) return config;
  // A file that could not be read has no position: its own message says why.
  const what = first.line > 0 ? `${first.file}:${first.line}:${first.col} is invalid` : first.message;
  throw new InvalidStoreError(
    errors.length === 1 ? `cannot read ${CONFIG_FILE}: ${what}` : `cannot read ${CONFIG_FILE}: ${errors.length} problems, first ${what}`,
    errors,
    (agents) => `Fix ${CONFIG_FILE} (\`${agents} validate\` lists every problem), or delete it to use the defaults.`,
  );
}
