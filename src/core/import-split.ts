/**
 * What splitting one instruction file gives (./import-rules.ts): the rules
 * found, each with its lines and tags, and the pieces left out, with why.
 */

/** One rule found in a file: its plain text, the line it starts on (1-based), and the tags its headings give. */
export interface RuleCandidate {
  text: string;
  line: number;
  /** The last line of its list item or paragraph. */
  end_line: number;
  /** Whether the rule is all its lines say (false: one sentence of a longer paragraph). */
  whole: boolean;
  /** Its lines read a file in with `@path`, which its text names too: `--replace` moves it only where `@` reads the same file. */
  reads?: true;
  tags: string[];
}

export type LeftOutReason =
  | 'code-block'
  | 'heading'
  | 'table'
  | 'command'
  | 'link'
  | 'reference'
  | 'description'
  | 'export-block'
  | 'comment'
  | 'too-long'
  | 'front-matter'
  | 'front-matter-key';

/** A piece of the file that is not a rule, with its lines (1-based, inclusive). */
export interface LeftOut {
  line: number;
  end_line: number;
  reason: LeftOutReason;
  excerpt: string;
}

/*
 * The candidates and left-out pieces the splitter makes are built by constructors, not object literals: V8 decides for
 * each literal whether its objects are made where long-lived ones go, by how many outlive a collection, and throws the
 * optimised code that builds them away each time it changes its mind. These all live to the output, and the splitter
 * was compiled again for each such change.
 */

/** A RuleCandidate as the splitter makes one; `reads` only when true, as the literal had it. */
export class SplitCandidate implements RuleCandidate {
  declare text: string;
  declare line: number;
  declare end_line: number;
  declare whole: boolean;
  declare reads?: true;
  declare tags: string[];
  constructor(text: string, line: number, endLine: number, whole: boolean, reads: boolean, tags: string[]) {
    this.text = text;
    this.line = line;
    this.end_line = endLine;
    this.whole = whole;
    if (reads) this.reads = true;
    this.tags = tags;
  }
}

/** A LeftOut as the splitter makes one. */
export class SplitLeftOut implements LeftOut {
  declare line: number;
  declare end_line: number;
  declare reason: LeftOutReason;
  declare excerpt: string;
  constructor(line: number, endLine: number, reason: LeftOutReason, excerpt: string) {
    this.line = line;
    this.end_line = endLine;
    this.reason = reason;
    this.excerpt = excerpt;
  }
}

export interface SplitFile {
  /** The front matter's text (between the `---` lines), if the file starts with one. */
  frontMatter?: string;
  /** The file opens with `---` and no line closes it: front matter cut short, or a rule opening Markdown. */
  unclosedFrontMatter?: true;
  /** The line after the front matter (1-based): where the Markdown starts. */
  bodyLine: number;
  /**
   * The file is written in another language than English, in which the words that make a rule are not known: each of
   * its list items that is no code, link or label is taken as it stands, for a person to judge in the review.
   */
  notEnglish?: true;
  candidates: RuleCandidate[];
  leftOut: LeftOut[];
}
