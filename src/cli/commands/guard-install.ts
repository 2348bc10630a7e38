import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT_CODES, UsageError } from '../../core/errors.ts';
import { GUARD_CLIENTS, type GuardClient } from '../../core/guard-clients.ts';
import { hasHook, mergeSettings, SETTINGS_FILE } from '../../core/guard-install.ts';
import { repositoryTop } from '../../store/projects.ts';
import { writeFileAtomic } from '../../store/atomic-write.ts';
import { defineCommand } from '../command.ts';
import { emit } from '../render.ts';
import { jsonErrorPlace } from '../../core/json-place.ts';

interface InstallArgs {
  client?: string[];
  check?: boolean;
  program?: string;
}

/** A client's settings as they are: {} when absent; a file that is not a JSON object is a usage error naming it (nothing is written). */
function readSettings(top: string, rel: string): { settings: Record<string, unknown>; exists: boolean } {
  let text: string;
  try {
    text = readFileSync(join(top, rel), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { settings: {}, exists: false };
    throw new UsageError(`cannot read ${rel}: ${(error as Error).message}`, 'Fix its permissions, or move it away.');
  }
  let data: unknown;
  try {
    data = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    const { line, col, reason } = jsonErrorPlace(text, (error as Error).message);
    throw new UsageError(
      `${rel}:${line}:${col}: not valid JSON (${reason})`,
      'Fix the file, then run the install again. Nothing was written.',
    );
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new UsageError(`${rel} is not a JSON object`, 'Fix the file, then run the install again. Nothing was written.');
  return { settings: data as Record<string, unknown>, exists: true };
}

export default defineCommand<InstallArgs>({
  builder: (y) =>
    y
      .option('client', {
        type: 'string',
        array: true,
        requiresArg: true,
        demandOption: true,
        describe: `clients, comma-separated or repeated: ${GUARD_CLIENTS.join(', ')}`,
      })
      .option('check', { type: 'boolean', describe: "write nothing; exit 1 when a client's settings lack the hook" })
      .option('program', {
        type: 'string',
        requiresArg: true,
        default: 'agents',
        describe: 'how the hook starts this tool (e.g. "npx --no-install agents" or "node /path/bin/agents.js")',
      }),
  async run(argv, ctx) {
    const clients: GuardClient[] = [];
    for (const c of (argv.client ?? [])
      .flatMap((v) => String(v).split(','))
      .map((v) => v.trim())
      .filter(Boolean)) {
      if (!GUARD_CLIENTS.includes(c as GuardClient))
        throw new UsageError(`--client ${c} is not one of ${GUARD_CLIENTS.join(', ')}`, 'e.g. --client claude,codex');
      if (!clients.includes(c as GuardClient)) clients.push(c as GuardClient);
    }
    const top = repositoryTop(await ctx.root());
    const program = String(argv.program ?? 'agents');
    // Read every file first: one that cannot be merged stops the install before anything is written.
    const plans = clients.map((client) => {
      const rel = SETTINGS_FILE[client];
      const { settings, exists } = readSettings(top, rel);
      const merged = mergeSettings(client, settings, program);
      const text = `${JSON.stringify(merged, null, 2)}\n`;
      return {
        client,
        rel,
        exists,
        installed: hasHook(client, settings),
        changed: !exists || JSON.stringify(settings) !== JSON.stringify(merged),
        text,
      };
    });
    if (!argv.check) for (const p of plans) if (p.changed) writeFileAtomic(top, p.rel, p.text, p.exists ? 'replace' : 'create');
    const rows = plans.map((p) => ({
      client: p.client,
      file: p.rel,
      status: argv.check ? (p.installed ? 'installed' : 'missing') : p.changed ? 'written' : 'unchanged',
    }));
    emit(ctx, rows, () => rows.map((r) => `${r.client}  ${r.file}  ${r.status}`).join('\n'));
    return argv.check && plans.some((p) => !p.installed) ? EXIT_CODES.checkFailed : EXIT_CODES.ok;
  },
});
