/**
 * Edits of a JSON text (comments and trailing commas allowed) that keep every
 * byte they do not change: a value replaced where it stands, an item or a
 * property added after the last one, an item taken out. jsonc-parser's
 * `modify` lays out again every line an insertion touches, the previous entry
 * of the user's included (a one-line file whole), so it is left only the
 * empty containers that hold a comment. Pure.
 */
import { applyEdits, type FormattingOptions, findNodeAtLocation, type JSONPath, modify, type Node, parseTree } from 'jsonc-parser';

const tree = (text: string): Node | undefined => parseTree(text, [], { allowTrailingComma: true, disallowComments: false });

/** The leading blanks of the line holding `offset`, and whether only blanks stand before it on that line. */
function lineAt(text: string, offset: number): { own: boolean; indent: string } {
  const before = text.slice(text.lastIndexOf('\n', offset - 1) + 1, offset);
  return { own: /^[ \t]*$/.test(before), indent: /^[ \t]*/.exec(before)![0] };
}

/** The offset of the first character from `i` that is neither a blank nor inside a comment. */
function skipTrivia(text: string, i: number): number {
  for (;;) {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
    if (text.startsWith('//', i)) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else return i;
  }
}

/**
 * A value as text: laid out over lines in the file's indentation unit and line
 * ends, continuing at `indent`, when it stands on a line of its own; on one
 * line where the file writes its neighbours so.
 */
function valueText(value: unknown, at: { own: boolean; indent: string }, fmt: FormattingOptions): string {
  // JSON strings hold no raw line break, so every one is between tokens.
  if (!at.own) return JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ');
  const unit = fmt.insertSpaces ? ' '.repeat(fmt.tabSize ?? 2) : '\t';
  return JSON.stringify(value, null, unit)
    .split('\n')
    .join((fmt.eol ?? '\n') + at.indent);
}

/** `item` (a value, or `"key": value`) added after `last`, the last member of its list or object. */
function insertAfter(text: string, last: Node, item: (at: { own: boolean; indent: string }) => string, fmt: FormattingOptions): string {
  let at = last.offset + last.length;
  let comma = ',';
  const next = skipTrivia(text, at);
  // A trailing comma already there is used, not doubled.
  if (text[next] === ',') {
    at = next + 1;
    comma = '';
  }
  const line = lineAt(text, last.offset);
  if (!line.own) return `${text.slice(0, at)}${comma} ${item(line)}${text.slice(at)}`;
  // A comment that ends the last member's line stays on that line, after its comma.
  const eol = text.indexOf('\n', at);
  const lineEnd = eol < 0 ? text.length : text[eol - 1] === '\r' ? eol - 1 : eol;
  const where = /^[ \t]*(?:\/\/.*|\/\*.*\*\/[ \t]*)?$/.test(text.slice(at, lineEnd)) ? lineEnd : at;
  return `${text.slice(0, at)}${comma}${text.slice(at, where)}${fmt.eol ?? '\n'}${line.indent}${item(line)}${text.slice(where)}`;
}

/**
 * `container`, an empty object or list, given `value` in its place: laid out as {@link valueText} lays out a value, by
 * the line of the member that holds it (`"hooks": {}` on a line of its own: over lines at its indentation; beside other
 * keys: on that line). Undefined when a comment stands inside it, which jsonc-parser's `modify` keeps.
 */
function fillEmpty(text: string, container: Node, value: unknown, fmt: FormattingOptions): string | undefined {
  const end = container.offset + container.length;
  if (!/^\s*$/.test(text.slice(container.offset + 1, end - 1))) return undefined;
  const owner = container.parent?.type === 'property' ? container.parent : container;
  return text.slice(0, container.offset) + valueText(value, lineAt(text, owner.offset), fmt) + text.slice(end);
}

/** Sets the value at `path`: replaced where it stands, or added as the last property of the nearest object that exists. */
export function setJson(text: string, path: JSONPath, value: unknown, fmt: FormattingOptions): string {
  const root = tree(text);
  const node = root && findNodeAtLocation(root, path);
  if (node !== undefined) {
    return text.slice(0, node.offset) + valueText(value, lineAt(text, node.offset), fmt) + text.slice(node.offset + node.length);
  }
  let parentPath = path.slice(0, -1);
  let key = path.at(-1);
  let wrapped = value;
  let parent = root && findNodeAtLocation(root, parentPath);
  while (parent === undefined && parentPath.length > 0) {
    wrapped = typeof key === 'string' ? { [key]: wrapped } : [wrapped];
    key = parentPath.at(-1);
    parentPath = parentPath.slice(0, -1);
    parent = root && findNodeAtLocation(root, parentPath);
  }
  const last = parent?.children?.at(-1);
  if (parent?.type !== 'object' || last === undefined || typeof key !== 'string') {
    const filled =
      parent?.type === 'object' && last === undefined && typeof key === 'string'
        ? fillEmpty(text, parent, Object.fromEntries([[key, wrapped]]), fmt)
        : undefined;
    return filled ?? applyEdits(text, modify(text, [...parentPath, key!], wrapped, { formattingOptions: fmt }));
  }
  return insertAfter(text, last, (at) => `${JSON.stringify(key)}: ${valueText(wrapped, at, fmt)}`, fmt);
}

/** Adds `value` at the end of the list at `path` (which exists). */
export function appendJson(text: string, path: JSONPath, value: unknown, fmt: FormattingOptions): string {
  const list = findNodeAtLocation(tree(text)!, path)!;
  const last = list.children?.at(-1);
  if (last === undefined)
    return (
      fillEmpty(text, list, [value], fmt) ??
      applyEdits(text, modify(text, [...path, 0], value, { formattingOptions: fmt, isArrayInsertion: true }))
    );
  return insertAfter(text, last, (at) => valueText(value, at, fmt), fmt);
}

/**
 * Takes out the item at `path` (in a list) and one comma that separates it from a neighbour: its own after it, else the
 * previous item's. A comment beside it is the user's (a note on the item before or after it), and stays; the line the
 * item stood on alone goes with it.
 */
export function removeJson(text: string, path: JSONPath): string {
  const item = findNodeAtLocation(tree(text)!, path)!;
  const siblings = item.parent!.children!;
  const i = siblings.indexOf(item);
  if (siblings.length === 1) return applyEdits(text, modify(text, path, undefined, {}));
  const end = item.offset + item.length;
  const after = skipTrivia(text, end);
  // Its own comma when it has one (a trailing comma of the last item too), else the one after the previous item.
  const comma = text[after] === ',' ? after : skipTrivia(text, siblings[i - 1]!.offset + siblings[i - 1]!.length);
  const cut = (s: string, from: number, to: number) => s.slice(0, from) + s.slice(to);
  if (comma > item.offset) {
    // The item, its comma and the blanks after it on the line, when nothing but blanks stands between them.
    if (/^[ \t]*$/.test(text.slice(end, comma))) {
      const to = comma + 1 + /^[ \t]*/.exec(text.slice(comma + 1))![0].length;
      return dropBlankLine(cut(text, item.offset, to), item.offset);
    }
    return dropBlankLine(cut(cut(text, comma, comma + 1), item.offset, end), item.offset);
  }
  // The previous item's comma, and the blanks from it to the item when no comment stands between.
  if (/^\s*$/.test(text.slice(comma + 1, item.offset))) return cut(text, comma, end);
  return dropBlankLine(cut(cut(text, item.offset, end), comma, comma + 1), item.offset - 1);
}

/** The line holding `offset` taken out with its line end, when only blanks are left on it. */
function dropBlankLine(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const eol = text.indexOf('\n', offset);
  if (start === 0 || eol < 0 || !/^[ \t\r]*$/.test(text.slice(start, eol))) return text;
  return text.slice(0, start) + text.slice(eol + 1);
}
