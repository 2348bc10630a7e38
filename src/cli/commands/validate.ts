import { appendFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { EXIT_CODES } from '../../core/errors.ts';
import { escapeUnsafe } from '../../core/plain-text.ts';
import { discoverStore } from '../../store/discover.ts';
import { formatGithub } from '../../validate/format-github.ts';
import { formatJson, validateJson } from '../../validate/format-json.ts';
import { formatSarif } from '../../validate/format-sarif.ts';
import { formatText } from '../../validate/format-text.ts';
import { defaultCacheDir } from '../../validate/cache.ts';
import { runValidate } from '../../validate/run.ts';
import { defineCommand } from '../command.ts';
import { safeText } from '../safe-output.ts';
import { makeStyle } from '../style.ts';
import { BUILD_ID, VERSION } from '../version.ts';

interface ValidateArgs {
  paths?: string[];
  strict?: boolean;
  staged?: boolean;
  fix?: boolean;
  format?: string;
  cache?: boolean;
}

/** The cache of this store (inside its repository's .git folder), unless turned off or outside git. */
function cacheFor(store: string, wanted: boolean): { dir: string; build: string } | undefined {
  if (!wanted) return undefined;
  const dir = defaultCacheDir(store);
  return dir === undefined ? undefined : { dir, build: BUILD_ID };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export default defineCommand<ValidateArgs>({
  command: 'validate [paths..]',
  describe: 'Check the store: YAML, schemas, ids, layout, duplicates, shadows, references',
  builder: (y) =>
    y
      .positional('paths', { type: 'string', array: true, describe: 'files or folders to report on (siblings are still read for duplicate checks)' })
      .option('format', { choices: ['github', 'sarif'], describe: 'output format: text, json, yaml, github (workflow-command annotations) or sarif (SARIF 2.1.0)' })
      .option('strict', { type: 'boolean', describe: 'warnings fail too (exit 1)' })
      .option('staged', { type: 'boolean', describe: 'check the content in the git index, not the working tree' })
      .option('cache', { type: 'boolean', default: true, describe: 'reuse the checks of unchanged files from earlier runs (kept in the repository\'s .git folder); --no-cache checks every file afresh' })
      .option('fix', { type: 'boolean', describe: 'fix what is safe to fix: missing modelines, file names differing from a valid unused id, leftover temporary files' })
      .example('$0 validate', 'check the whole store')
      .example('$0 validate --staged', 'check what is about to be committed (pre-commit hook)')
      .example('$0 validate --format github', 'annotations for GitHub Actions'),
  async run(argv, ctx) {
    const store = discoverStore({ store: ctx.store, env: ctx.io.env, cwd: ctx.io.cwd });
    const result = await runValidate(
      { store, cwd: ctx.io.cwd, paths: argv.paths ?? [], staged: argv.staged ?? false, strict: argv.strict ?? false, fix: argv.fix ?? false, cache: cacheFor(store, argv.cache !== false && !ctx.io.env.AGENTS_NO_CACHE) },
      { processAlive, hostname: hostname() },
    );
    const out = ctx.io.stdout;
    switch (argv.format ?? 'text') {
      // Every format leaves with no raw control or bidirectional character (docs/store-format.md, "Plain text only").
      case 'json':
        out.write(escapeUnsafe(formatJson(result), { newlines: true }));
        break;
      case 'yaml': {
        const { toYaml } = await import('../yaml-output.ts');
        out.write(toYaml(validateJson(result)));
        break;
      }
      case 'sarif':
        out.write(escapeUnsafe(formatSarif(result, VERSION), { newlines: true }));
        break;
      case 'github': {
        const { log, stepSummary } = formatGithub(result);
        out.write(safeText(log, false));
        const summaryFile = ctx.io.env.GITHUB_STEP_SUMMARY;
        if (summaryFile) {
          try {
            appendFileSync(summaryFile, stepSummary);
          } catch {
            // The log already holds everything; a missing summary file is not the user's problem.
          }
        }
        break;
      }
      default:
        out.write(safeText(formatText(result, makeStyle(ctx.color)), ctx.color));
    }
    return result.ok ? EXIT_CODES.ok : EXIT_CODES.checkFailed;
  },
});
