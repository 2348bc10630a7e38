/**
 * A unified diff of two texts (as `diff -u` / `git diff` print it), for
 * `agents export --dry-run`. Line-based, three lines of context; `before`
 * undefined is a new file, `after` undefined a deleted one.
 */
export function unifiedDiff(path: string, before: string | undefined, after: string | undefined, context = 3): string {
  const a = splitLines(before ?? '');
  const b = splitLines(after ?? '');
  const ops = diffLines(a, b);
  const header = [`--- ${before === undefined ? '/dev/null' : `a/${path}`}`, `+++ ${after === undefined ? '/dev/null' : `b/${path}`}`];
  const out: string[] = [];
  // Group the operations into hunks: changes with up to `context` equal lines around them.
  let i = 0;
  while (i < ops.length) {
    while (i < ops.length && ops[i]!.op === ' ') i++;
    if (i >= ops.length) break;
    let start = Math.max(0, i - context);
    let end = i;
    for (;;) {
      while (end < ops.length && ops[end]!.op !== ' ') end++;
      let next = end;
      while (next < ops.length && ops[next]!.op === ' ') next++;
      if (next < ops.length && next - end <= context * 2) {
        end = next;
        continue;
      }
      end = Math.min(ops.length, end + context);
      break;
    }
    const hunk = ops.slice(start, end);
    const aStart = hunk[0]!.ai;
    const bStart = hunk[0]!.bi;
    const aLen = hunk.filter((o) => o.op !== '+').length;
    const bLen = hunk.filter((o) => o.op !== '-').length;
    out.push(`@@ -${aLen === 0 ? aStart : aStart + 1},${aLen} +${bLen === 0 ? bStart : bStart + 1},${bLen} @@`);
    for (const o of hunk) out.push(`${o.op}${o.line.text}${o.line.newline ? '' : '\n\\ No newline at end of file'}`);
    i = end;
    start = end;
  }
  if (out.length === 0) return '';
  return `${[...header, ...out].join('\n')}\n`;
}

interface Line {
  text: string;
  newline: boolean;
}

function splitLines(text: string): Line[] {
  if (text === '') return [];
  const parts = text.split('\n');
  const last = parts.pop()!;
  const lines = parts.map((t) => ({ text: t, newline: true }));
  if (last !== '') lines.push({ text: last, newline: false });
  return lines;
}

interface Op {
  op: ' ' | '-' | '+';
  line: Line;
  /** Lines of a and b before this one. */
  ai: number;
  bi: number;
}

/** Longest common subsequence by dynamic programming: the files an export writes are small. */
function diffLines(a: readonly Line[], b: readonly Line[]): Op[] {
  const same = (x: Line, y: Line) => x.text === y.text && x.newline === y.newline;
  // Common head and tail first: most of a file is unchanged.
  let head = 0;
  while (head < a.length && head < b.length && same(a[head]!, b[head]!)) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && same(a[a.length - 1 - tail]!, b[b.length - 1 - tail]!)) tail++;
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  const lcs: Uint32Array[] = [];
  for (let x = 0; x <= n; x++) lcs.push(new Uint32Array(m + 1));
  for (let x = n - 1; x >= 0; x--) {
    for (let y = m - 1; y >= 0; y--) {
      lcs[x]![y] = same(a[head + x]!, b[head + y]!) ? lcs[x + 1]![y + 1]! + 1 : Math.max(lcs[x + 1]![y]!, lcs[x]![y + 1]!);
    }
  }
  const ops: Op[] = [];
  for (let k = 0; k < head; k++) ops.push({ op: ' ', line: a[k]!, ai: k, bi: k });
  let x = 0;
  let y = 0;
  while (x < n || y < m) {
    if (x < n && y < m && same(a[head + x]!, b[head + y]!)) {
      ops.push({ op: ' ', line: a[head + x]!, ai: head + x, bi: head + y });
      x++;
      y++;
    } else if (x < n && (y === m || lcs[x + 1]![y]! >= lcs[x]![y + 1]!)) {
      ops.push({ op: '-', line: a[head + x]!, ai: head + x, bi: head + y });
      x++;
    } else {
      ops.push({ op: '+', line: b[head + y]!, ai: head + x, bi: head + y });
      y++;
    }
  }
  for (let k = 0; k < tail; k++) ops.push({ op: ' ', line: a[head + n + k]!, ai: head + n + k, bi: head + m + k });
  return ops;
}
