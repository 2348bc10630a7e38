import { describeScope, type ScopedInvariant } from '../core/model.ts';
import type { CliContext } from './context.ts';
import { jsonPieces, jsonSlices, STREAM } from '../core/json-stream.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import { safeJson, safeText } from './safe-output.ts';
import { writePieces } from './write-pieces.ts';

let yamlOutput: typeof import('./yaml-output.ts') | undefined;

/**
 * Loads what `format` needs before a command runs: `yaml`'s writer for
 * `--format yaml`, and nothing otherwise (commands that print text or JSON
 * never load it). main() calls it once the options are parsed.
 */
export async function prepareFormat(format: CliContext['format']): Promise<void> {
  if (format === 'yaml' && !yamlOutput) yamlOutput = await import('./yaml-output.ts');
}

function loadedYaml(): typeof import('./yaml-output.ts') {
  if (!yamlOutput) throw new Error('YAML output is not loaded: await prepareFormat(ctx.format) before the command runs');
  return yamlOutput;
}

/** Prints `data` as JSON or YAML, or `text()` for people. */
export function emit(ctx: CliContext, data: unknown, text: () => string): void {
  switch (ctx.format) {
    case 'json':
      // Two writes: the document joined to its newline would be copied whole once more (megabytes for an import).
      ctx.io.stdout.write(safeJson(data));
      ctx.io.stdout.write('\n');
      return;
    case 'yaml':
      ctx.io.stdout.write(loadedYaml().toYaml(data));
      return;
    case 'text': {
      const out = safeText(text(), ctx.color);
      if (out !== '') ctx.io.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
    }
  }
}

/**
 * As `emit`, for a list that may be long (docs/json-output.md, "Large
 * outputs are streamed"): JSON is the same text as `emit` gives for the array
 * of `items`, and text the concatenation of `text`'s pieces, but each is
 * built and written piece by piece, so neither the objects nor the text of
 * 100,000 entries are ever in memory at once; YAML likewise, 256 entries at a
 * time.
 */
export async function emitList(ctx: CliContext, items: () => Iterable<unknown>, text: () => Iterable<string>): Promise<void> {
  const plainPiece = (piece: string) => escapeUnsafe(piece, { newlines: true });
  switch (ctx.format) {
    case 'json':
      await writePieces(ctx.io.stdout, jsonPiecesOf(items()), plainPiece);
      return;
    case 'yaml':
      // toYaml escapes what it writes.
      await writePieces(ctx.io.stdout, loadedYaml().yamlListPieces(items()), (piece) => piece);
      return;
    case 'text':
      await writePieces(ctx.io.stdout, text(), (piece) => safeText(piece, ctx.color));
  }
}

/**
 * As `emit`, for one document whose top-level arrays may be long (an
 * import's files and candidates): JSON and YAML are the same text, written a
 * slice of each array at a time (docs/json-output.md, "Large outputs are
 * streamed").
 */
export async function emitDocument(
  ctx: CliContext,
  data: Readonly<Record<string, unknown>>,
  text: () => string,
  /** Entries of each top-level list per piece (default: jsonSlices' and yamlDocumentPieces'). */
  slice?: number,
): Promise<void> {
  if (ctx.format === 'yaml') await writePieces(ctx.io.stdout, loadedYaml().yamlDocumentPieces(data, slice), (piece) => piece);
  else if (ctx.format === 'json')
    await writePieces(ctx.io.stdout, jsonLines(data, slice), (piece) => escapeUnsafe(piece, { newlines: true }));
  else emit(ctx, data, text);
}

function* jsonLines(data: Readonly<Record<string, unknown>>, slice?: number): Generator<string> {
  yield* jsonSlices(data, slice);
  yield '\n';
}

function* jsonPiecesOf(items: Iterable<unknown>): Generator<string> {
  yield* jsonPieces(STREAM, items);
  yield '\n';
}

/** Pieces of about this many characters. */
const PIECE = 1 << 16;

/** Lines joined into pieces of about PIECE characters, each line ended by a newline. */
export function* piecesOf(lines: Iterable<string>): Generator<string> {
  let piece = '';
  for (const line of lines) {
    piece += `${line}\n`;
    if (piece.length >= PIECE) {
      yield piece;
      piece = '';
    }
  }
  if (piece !== '') yield piece;
}

export function scopeLabel(inv: ScopedInvariant): string {
  return describeScope(inv.scope);
}
