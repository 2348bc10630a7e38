import { AgentsError, EXIT_CODES, fileDescriptorShortage, tooManyOpenFiles } from '../core/errors.ts';
import { diagnosticsJson, errorLines } from '../present/diagnostics.ts';
import { agentsCommandOf } from './context.ts';
import { type CliIo, formatOf, noColorOf, type OutputFormat, storeOf, useColor } from './io.ts';
import { safeJson, safeText } from './safe-output.ts';
import { makeStyle } from '../core/style.ts';
import { VERSION } from '../present/version.ts';

/**
 * Reports an error that ended a command and returns its exit code: user
 * errors as what, where and what to do (and the error document under
 * `--format json|yaml`); no file descriptor left, as the system's limit it is (exit 2); anything else as a bug
 * (exit 70). The one catch of
 * `main` (and the direct start of three forms, cli/direct-main.ts) calls it. `agents`: the run's, with its --store.
 */
export async function report(io: CliIo, thrown: unknown, color: boolean, format: OutputFormat, agents = 'agents'): Promise<number> {
  const s = makeStyle(color);
  const error = asSystemLimit(thrown);
  if (error instanceof AgentsError) {
    const lines = errorLines(error, s, agents);
    io.stderr.write(safeText(`${lines.join('\n')}\n`, color));
    await writeErrorDocument(io, format, error.code, error.exitCode, error.message, error.hintFor(agents), detailOf(error, agents));
    return error.exitCode;
  }
  const e = error as Error;
  io.stderr.write(
    `${s.red('internal error:')} this is a bug in agents ${VERSION}, not something you did.\n` +
      `Please report it with the command you ran and this trace:\n${safeText(e?.stack ?? String(error), false)}\n`,
  );
  await writeErrorDocument(
    io,
    format,
    'internal',
    EXIT_CODES.internal,
    `internal error: this is a bug in agents ${VERSION}, not something you did`,
    'Please report it with the command you ran and the trace printed on stderr.',
    {
      error: e instanceof Error ? e.message : String(error),
    },
  );
  return EXIT_CODES.internal;
}

/**
 * A file the run could not open for want of a file descriptor (EMFILE under a low `ulimit -n`, met wherever the run
 * opens its first files: yargs' own, the store's), said as the system's limit it is, not as a bug.
 */
function asSystemLimit(error: unknown): unknown {
  const errno = error instanceof AgentsError ? undefined : fileDescriptorShortage(error);
  if (errno === undefined) return error;
  const path = (error as NodeJS.ErrnoException).path;
  return tooManyOpenFiles(path === undefined ? 'agents could not go on' : `cannot open ${path}`, errno);
}

/**
 * Reports an error met before the parse (the current folder gone): its format, colour and the run's --store read from
 * the words as `main` reads them before its parse, so that a command the hint names carries that --store.
 */
export function reportBeforeParse(io: CliIo, error: unknown, args: readonly string[]): Promise<number> {
  return report(io, error, useColor(io, noColorOf(args), io.stderr), formatOf(args), agentsCommandOf(storeOf(args)));
}

function detailOf(error: AgentsError, agents: string): Record<string, unknown> | null {
  const detail: Record<string, unknown> = { ...error.detail };
  if (error.diagnostics.length > 0) detail.diagnostics = diagnosticsJson(error.diagnostics, agents);
  return Object.keys(detail).length > 0 ? detail : null;
}

/**
 * The one shape of a failure under `--format json` (and `yaml`)
 * (docs/json-output.md, "Errors"): on stdout, so a program reading the
 * format always gets a document, while the human line goes to stderr as in
 * every format. Text output prints nothing more.
 */
async function writeErrorDocument(
  io: CliIo,
  format: OutputFormat,
  code: string,
  exitCode: number,
  message: string,
  hint: string | undefined,
  detail: Record<string, unknown> | null,
): Promise<void> {
  // Only the document formats: text, and a command's own formats (github, sarif, markdown), print nothing more on stdout.
  if (format !== 'json' && format !== 'yaml') return;
  const body = { ok: false, exit_code: exitCode, error: { code, message, hint: hint ?? null, detail } };
  if (format === 'json') {
    io.stdout.write(`${safeJson(body)}\n`);
    return;
  }
  try {
    const { toYaml } = await import('./yaml-output.ts');
    io.stdout.write(toYaml(body));
  } catch {
    // The human line on stderr already says it all.
  }
}
