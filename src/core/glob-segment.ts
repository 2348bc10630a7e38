/**
 * One segment of a path glob (docs/export.md, "Projects and their paths"):
 * its text read as tokens and made into a matcher of one name: how `*`, `?`,
 * `[…]` and `{…}` match within a name, for globs.ts to match whole paths. Pure.
 */

/**
 * The regular expression of one segment (not `**`). A `[` or `{` without its
 * closing character (a glob `globProblem` of globs.ts refuses, handed in by a
 * library caller) stands for itself.
 */
function segmentRegExp(seg: string): RegExp {
  let src = '';
  for (const t of segmentTokens(seg)) src += tokenSource(t);
  return new RegExp(`^${src}$`);
}

/** One piece of a segment: a character of its own, `?`, a `[…]` class, `*`, or a `{…}` of alternatives. */
type Token = { char: string } | { any: true } | { cls: string } | { star: true } | { alternatives: Token[][] };

function segmentTokens(seg: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < seg.length; i++) {
    const ch = seg[i]!;
    if (ch === '*') out.push({ star: true });
    else if (ch === '?') out.push({ any: true });
    else if ((ch === '[' && !seg.includes(']', i + 1)) || (ch === '{' && !seg.includes('}', i))) out.push({ char: ch });
    else if (ch === '[') {
      const end = seg.indexOf(']', i + 1);
      out.push({ cls: classSource(seg.slice(i + 1, end)) });
      i = end;
    } else if (ch === '{') {
      const end = seg.indexOf('}', i);
      out.push({
        alternatives: seg
          .slice(i + 1, end)
          .split(',')
          .map(segmentTokens),
      });
      i = end;
    } else out.push({ char: ch });
  }
  return out;
}

/** The regular expression of a `[…]` class's body: a leading `!` negates it, as `^` does. */
export function classSource(body: string): string {
  return `[${(body.startsWith('!') ? `^${body.slice(1)}` : body).replace(/\\/g, '\\\\')}]`;
}

function tokenSource(t: Token): string {
  if ('star' in t) return '[^/]*';
  if ('any' in t) return '[^/]';
  if ('cls' in t) return t.cls;
  if ('char' in t) return t.char.replace(/[.+^$()|\\/[\]{}*?]/g, '\\$&');
  return `(?:${t.alternatives.map((alt) => alt.map(tokenSource).join('')).join('|')})`;
}

/** Whether a name (one path segment) matches: what a segment's pattern answers. */
export interface SegmentMatcher {
  test(name: string): boolean;
}

/**
 * The matcher of one segment (not `**`). A segment of one `*` and no `{…}` is a regular expression, which
 * backtracks at most once per character. Two `*` or an alternation backtrack without bound in one (a
 * cloned repository's project.yaml and file names choose both): those run on the states of the pattern
 * at once, in time linear in the name.
 */
export function segmentMatcher(seg: string): SegmentMatcher {
  const tokens = segmentTokens(seg);
  const stars = tokens.filter((t) => 'star' in t).length;
  if (stars <= 1 && !tokens.some((t) => 'alternatives' in t)) return segmentRegExp(seg);
  return new StateMatcher(tokens);
}

/** A segment's pattern as states: each steps on one character (UTF-16 unit, as the regular expression) to others. */
class StateMatcher implements SegmentMatcher {
  /** For each state: the states it reaches on a character, and the test of that character. */
  private readonly steps: { to: number; takes: (c: string) => boolean }[][] = [];
  /** For each state: the states it reaches without a character. */
  private readonly free: number[][] = [];
  private readonly end: number;

  constructor(tokens: readonly Token[]) {
    this.end = this.chain(tokens, this.state());
  }

  private state(): number {
    this.steps.push([]);
    this.free.push([]);
    return this.steps.length - 1;
  }

  /** Adds the states of `tokens` after `from`; returns the last. */
  private chain(tokens: readonly Token[], from: number): number {
    let at = from;
    for (const t of tokens) {
      const next = this.state();
      if ('star' in t) {
        this.steps[at]!.push({ to: at, takes: (c) => c !== '/' });
        this.free[at]!.push(next);
      } else if ('alternatives' in t) {
        for (const alt of t.alternatives) {
          const start = this.state();
          this.free[at]!.push(start);
          this.free[this.chain(alt, start)]!.push(next);
        }
      } else {
        const takes: (c: string) => boolean =
          'char' in t ? (c) => c === t.char : 'any' in t ? (c) => c !== '/' : RegExp.prototype.test.bind(new RegExp(`^${t.cls}$`));
        this.steps[at]!.push({ to: next, takes });
      }
      at = next;
    }
    return at;
  }

  /** `states` with every state they reach without a character. */
  private closed(states: Set<number>): Set<number> {
    const todo = [...states];
    while (todo.length > 0)
      for (const to of this.free[todo.pop()!]!)
        if (!states.has(to)) {
          states.add(to);
          todo.push(to);
        }
    return states;
  }

  test(name: string): boolean {
    let now = this.closed(new Set([0]));
    for (let i = 0; i < name.length && now.size > 0; i++) {
      const c = name[i]!;
      const next = new Set<number>();
      for (const s of now) for (const step of this.steps[s]!) if (step.takes(c)) next.add(step.to);
      now = this.closed(next);
    }
    return now.has(this.end);
  }
}
