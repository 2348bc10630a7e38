/**
 * Whether a Codex CLI `config.toml` switches its hooks off (`[features] hooks = false`, or `codex_hooks`, the name
 * its earlier versions read): the guard hook would be installed and never run. Reads only the keys and the
 * booleans it needs, in every form TOML gives them (a table, dotted keys, an inline table, quoted keys); a text it
 * cannot follow is no switch, as Codex refuses such a file itself. Pure.
 */

/** A boolean at a key path of the document, and where its value starts. */
interface Flag {
  path: string[];
  value: boolean;
  offset: number;
}

class Scanner {
  i = 0;
  constructor(readonly text: string) {}

  /** Skips blanks, and line ends and comments too when `lines`. */
  skip(lines: boolean): void {
    const t = this.text;
    for (;;) {
      while (this.i < t.length && (t[this.i] === ' ' || t[this.i] === '\t' || (lines && (t[this.i] === '\n' || t[this.i] === '\r'))))
        this.i++;
      if (lines && t[this.i] === '#') while (this.i < t.length && t[this.i] !== '\n') this.i++;
      else return;
    }
  }

  /** A key of one part: bare, or quoted (a basic string's escapes are kept as written: no key we look for has one). */
  keyPart(): string {
    const t = this.text;
    const q = t[this.i];
    if (q === '"' || q === "'") {
      const end = this.stringEnd(q, this.i + 1);
      const part = t.slice(this.i + 1, end);
      this.i = end + 1;
      return part;
    }
    const bare = /^[A-Za-z0-9_-]+/.exec(t.slice(this.i, this.i + 256))?.[0];
    if (bare === undefined) throw new Error('key expected');
    this.i += bare.length;
    return bare;
  }

  /** A dotted key: its parts. */
  key(): string[] {
    const parts = [this.keyPart()];
    for (;;) {
      this.skip(false);
      if (this.text[this.i] !== '.') return parts;
      this.i++;
      this.skip(false);
      parts.push(this.keyPart());
    }
  }

  /** The offset of the quote that closes a one-line string opened before `from`. */
  stringEnd(q: string, from: number): number {
    const t = this.text;
    for (let j = from; j < t.length && t[j] !== '\n'; j++) {
      if (q === '"' && t[j] === '\\') j++;
      else if (t[j] === q) return j;
    }
    throw new Error('unterminated string');
  }

  /** A value, each boolean in it (an inline table's) recorded under `path`. */
  /** `key = value` at the cursor, its key taken below `prefix`. */
  pair(prefix: readonly string[], out: Flag[]): void {
    const key = this.key();
    this.skip(false);
    if (this.text[this.i++] !== '=') throw new Error('"=" expected');
    this.skip(false);
    this.value([...prefix, ...key], out);
  }

  value(path: string[], out: Flag[]): void {
    const t = this.text;
    const c = t[this.i];
    if (t.startsWith('"""', this.i) || t.startsWith("'''", this.i)) {
      const q = t.slice(this.i, this.i + 3);
      let j = this.i + 3;
      for (; j < t.length; j++) {
        if (q === '"""' && t[j] === '\\') j++;
        else if (t.startsWith(q, j)) break;
      }
      if (j >= t.length) throw new Error('unterminated string');
      // Up to two quotes of its kind may close the string's content before the delimiter.
      this.i = j + 3;
      while (t[this.i] === q[0]) this.i++;
    } else if (c === '"' || c === "'") this.i = this.stringEnd(c, this.i + 1) + 1;
    else if (c === '[') {
      this.i++;
      for (;;) {
        this.skip(true);
        if (t[this.i] === ']') break;
        this.value([], []);
        this.skip(true);
        if (t[this.i] === ',') this.i++;
        else if (t[this.i] !== ']') throw new Error('"," or "]" expected');
      }
      this.i++;
    } else if (c === '{') {
      this.i++;
      this.skip(false);
      while (t[this.i] !== '}') {
        this.pair(path, out);
        this.skip(false);
        if (t[this.i] === ',') {
          this.i++;
          this.skip(false);
        } else if (t[this.i] !== '}') throw new Error('"," or "}" expected');
      }
      this.i++;
    } else {
      // A boolean, a number or a date (whose time may follow a space): up to what ends a value.
      const start = this.i;
      while (this.i < t.length && !',]}#\r\n'.includes(t[this.i]!)) this.i++;
      const word = t.slice(start, this.i).trim();
      if (word === '') throw new Error('value expected');
      this.i = start + t.slice(start, this.i).trimEnd().length;
      if (word === 'true' || word === 'false') out.push({ path, value: word === 'true', offset: start });
    }
  }

  /** Every boolean of the document, by its whole key path. */
  document(): Flag[] {
    const t = this.text;
    const out: Flag[] = [];
    let table: string[] = [];
    for (;;) {
      this.skip(true);
      if (this.i >= t.length) return out;
      if (t[this.i] === '[') {
        const array = t[this.i + 1] === '[';
        this.i += array ? 2 : 1;
        this.skip(false);
        table = this.key();
        this.skip(false);
        if (!t.startsWith(array ? ']]' : ']', this.i)) throw new Error('"]" expected');
        this.i += array ? 2 : 1;
      } else {
        this.pair(table, out);
      }
      this.skip(false);
      if (t[this.i] === '#') continue;
      if (this.i < t.length && t[this.i] !== '\n' && !t.startsWith('\r\n', this.i)) throw new Error('line end expected');
    }
  }
}

/**
 * The `features` switch of a Codex `config.toml` that turns its hooks off: `hooks` when given (the name Codex reads
 * first), else `codex_hooks`; undefined when the hooks are on, or the text is not TOML this reader follows.
 */
export function codexHooksOff(text: string): { key: string; offset: number } | undefined {
  const off = codexLayersHooksOff([text]);
  return off && { key: off.key, offset: off.offset };
}

/**
 * The same switch over Codex's config layers, the farthest first (the user's `$CODEX_HOME/config.toml`, then the
 * project's): Codex merges them key by key, a nearer layer's value over a farther one's, then reads `hooks` before
 * `codex_hooks`. Which layer holds the value that turns the hooks off, and where; a layer this reader cannot follow
 * gives no key.
 */
export function codexLayersHooksOff(layers: readonly string[]): { layer: number; key: string; offset: number } | undefined {
  const flags = layers.map((text): Flag[] => {
    try {
      return new Scanner(text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text).document();
    } catch {
      return [];
    }
  });
  for (const key of ['hooks', 'codex_hooks']) {
    for (let layer = layers.length - 1; layer >= 0; layer--) {
      const flag = flags[layer]!.find((f) => f.path.length === 2 && f.path[0] === 'features' && f.path[1] === key);
      if (flag !== undefined) return flag.value ? undefined : { layer, key, offset: flag.offset };
    }
  }
  return undefined;
}
