import { describe, expect, it } from 'vitest';
import { beginMarker, END_MARKER, scanBlock } from '../../src/core/export.ts';
import { removeLines } from '../../src/core/import-replace.ts';
import { splitInstructions } from '../../src/core/import-rules.ts';

/** What `import --replace` leaves of `text` when every rule the splitter finds is taken out. */
function replaced(text: string, block?: string): string {
  const split = splitInstructions(text);
  const labels = split.leftOut.filter((l) => l.reason === 'heading');
  return removeLines(text, split.candidates, block, labels);
}

describe('removeLines: a label over rules that are all taken out goes with them', () => {
  it('the label goes with its last rule; the block stands where the first rule stood', () => {
    expect(replaced('# Guide\n\n- Testing:\n  - Always write tests\n  - Use vitest\n- Keep PRs small.\n', '<block>\n')).toBe(
      '# Guide\n\n<block>\n',
    );
  });

  it('a label that still heads something stays: a command left out, or an item that is no rule', () => {
    const text = '- Testing:\n  - Always write tests\n  - `npm test`\n- Notes:\n  - the CI is slow\n  - Use the cache\n';
    expect(replaced(text)).toBe('- Testing:\n  - `npm test`\n- Notes:\n  - the CI is slow\n');
  });

  it('labels inside labels go from the innermost out; CRLF and tabs are kept as they are', () => {
    expect(replaced('- Frontend:\n  - Testing:\n    - Use Playwright\n- Backend\n\tsays nothing\n')).toBe('- Backend\n\tsays nothing\n');
    expect(replaced('Intro.\r\n\r\n- Style:\r\n\t- Use tabs\r\n')).toBe('Intro.\r\n\r\n');
  });

  it('a file whose lines end with a lone CR loses its rules as one with LF does; its block is one the export reads and fills', () => {
    // A lone CR is no line end to the export: a block whose lines ended with one would be damaged markers it refuses.
    const block = `${beginMarker('0'.repeat(64))}\n${END_MARKER}\n`;
    const cr = replaced('# T\r\r- Use tabs.\r- Never push.\r\rNotes.\r', block);
    expect(cr).toBe(`# T\r\r\n${block}\rNotes.\r`);
    const stray = replaced('# T\n\n- Use tabs.\r- Never push.\n\nNotes.\n', block);
    expect(stray).toBe(`# T\n\n${block}\nNotes.\n`);
    for (const text of [cr, stray]) expect(scanBlock(text).kind).toBe('block');
  });

  it('a caption over a list goes with the last rule of its list; one over a list that keeps a line stays', () => {
    expect(replaced("Intro.\n\n**Don't:**\n\n- use var\n- mutate props\n\nMore text.\n")).toBe('Intro.\n\nMore text.\n');
    expect(replaced("**Don't:**\n- use var\n- `npm test`\n")).toBe("**Don't:**\n- `npm test`\n");
  });

  it("a caption's list ends where a list of another marker starts: the caption goes with its own list's last rule", () => {
    const text = "**Don't:**\n- use var\n\n1) Use the logger.\n";
    const split = splitInstructions(text);
    expect(split.candidates.map((c) => c.text)).toEqual(["Don't: use var", 'Use the logger.']);
    // The logger's rule stays (dropped in the review, say): it is not left under "Don't:", which would turn it around.
    expect(removeLines(text, split.candidates.slice(0, 1), undefined, [{ line: 1, end_line: 1 }])).toBe('\n1) Use the logger.\n');
  });

  it('a caption or label in a quote goes with its last rule, as one outside a quote does', () => {
    expect(replaced("> **Don't:**\n> - use var\n> - use any\n\nMore.\n")).toBe('\nMore.\n');
    expect(replaced('> - Testing:\n>   - Use vitest\n>   - `npm test`\n')).toBe('> - Testing:\n>   - `npm test`\n');
    expect(replaced("> [!NOTE]\n> **Don't:**\n> - use var\n\nMore.\n")).toBe('\nMore.\n');
  });

  it('a caption that says when its rules apply goes with them', () => {
    const text =
      'Before creating a file:\n1. Check the folders `content/` and `drafts/` for a story on the same topic first.\n2. Skip a story that is older than two days, whatever its source or its topic.\n\nThat is all.\n';
    expect(replaced(text)).toBe('\nThat is all.\n');
  });

  it('a lead-in over rules of their own goes with the last of them', () => {
    expect(replaced('Intro.\n\n- The API layer has a few constraints:\n  - Validate every input.\n  - Never return stack traces.\n')).toBe(
      'Intro.\n\n',
    );
  });

  it('a caption written over two lines goes whole with its last rule; so does a setext heading', () => {
    expect(replaced('Intro.\n\nif the build fails on CI\nbut passes locally:\n- run the tests again\n- ask for help\n\nMore.\n')).toBe(
      'Intro.\n\nMore.\n',
    );
    expect(removeLines('Rules\n-----\n- Use tabs\n', [{ line: 3, end_line: 3 }], undefined, [{ line: 1, end_line: 2 }])).toBe('');
  });

  it('a label that is a sentence stays: it says something no invariant holds', () => {
    expect(replaced('- Our stack is Go.\n  - Use gofmt.\n- **Frontend is React!**\n  - Use hooks.\n')).toBe(
      '- Our stack is Go.\n- **Frontend is React!**\n',
    );
  });

  it("a GitHub alert's marker goes with the last rule of its quote; one over a line that stays, stays", () => {
    expect(replaced('Intro.\n\n> [!IMPORTANT]\n> Never push to main.\n\nMore text.\n', '<block>\n')).toBe(
      'Intro.\n\n<block>\n\nMore text.\n',
    );
    expect(replaced('> [!WARNING]\r\n> - Never push to main.\r\n>\r\n> - Use pnpm.\r\n')).toBe('>\r\n');
    expect(replaced('> [!NOTE]\n> Never push to main.\n> - `npm test`\n')).toBe('> [!NOTE]\n> - `npm test`\n');
    // A quote after a blank line is another block: the alert's own text stays, and so does its marker.
    expect(replaced('> [!TIP]\n> The cache is slow.\n\n> Never push to main.\n')).toBe('> [!TIP]\n> The cache is slow.\n\n');
  });

  it("an admonition's marker lines go with the last rule it holds; one that holds a line that stays, stays", () => {
    const docusaurus = ':::danger\nDo not disable TLS.\n:::\n\n::::note Title\nThe cache is slow.\n:::tip\nUse pnpm.\n:::\n::::\n';
    expect(replaced(docusaurus)).toBe('\n::::note Title\nThe cache is slow.\n:::tip\n:::\n::::\n');
    const mkdocs =
      '!!! warning "Secrets"\n    Never commit secrets.\n\n    Rotate keys after a leak.\n\nText.\n\n??? note\n    The cache is slow.\n';
    expect(replaced(mkdocs)).toBe('\nText.\n\n??? note\n    The cache is slow.\n');
  });

  it('an element of a rule file goes with the last of its rules, innermost first; one that holds a line that stays, stays', () => {
    expect(
      replaced(
        '# R\r\n\r\n<rules>\r\n  <style>\r\n\t<rule>Use tabs</rule>\r\n  </style>\r\n<rule>Never log secrets</rule>\r\n</rules>\r\n',
      ),
    ).toBe('# R\r\n\r\n');
    expect(replaced('<requirements>\n<requirement>Use tabs</requirement>\n\nThe CI is slow.\n</requirements>\n', '<block>\n')).toBe(
      '<requirements>\n<block>\n\nThe CI is slow.\n</requirements>\n',
    );
    // In a quote too; a caption over its element's items goes with them. An element in a code block is text.
    expect(replaced('> <rules>\n> <rule>Use tabs</rule>\n>\n> </rules>\n\nRules:\n<rules>\n<rule>Use pnpm</rule>\n</rules>\n')).toBe(
      '>\n\n',
    );
    expect(replaced('```\n<rules>\n<rule>x</rule>\n</rules>\n```\n- Use tabs\n')).toBe('```\n<rules>\n<rule>x</rule>\n</rules>\n```\n');
  });

  it("an element's tags stay when a rule's lines ran over one of them and the element keeps a line; deep nesting costs no more than the file", () => {
    const text = 'You must:\n<rules>\n<rule>use tabs</rule>\n<rule>never push</rule>\nThe CI is slow.\n</rules>\n';
    expect(replaced(text)).toBe('<rules>\nThe CI is slow.\n</rules>\n');
    // Thirty thousand elements one inside the other around one rule: each line is looked at once, not once an element.
    const deep = `${'<div>\n'.repeat(30_000)}- Use tabs\n${'</div>\n'.repeat(30_000)}Notes.\n`;
    expect(replaced(deep)).toBe('Notes.\n');
  });

  it('a heading whose section held only the rules goes with them, with the blank lines under it, innermost first', () => {
    const text = 'Intro.\n\n## Testing\n\n- Always run the tests.\n- Never skip the linter.\n\n## Notes\n\nThe CI is slow.\n';
    expect(replaced(text, '<block>\n')).toBe('Intro.\n\n<block>\n\n## Notes\n\nThe CI is slow.\n');
    expect(replaced('## Rules\r\n\r\n### Style\r\n- Use tabs.\r\n\r\nStyle\r\n=====\r\n- Use pnpm.\r\n')).toBe('\r\n');
    // Its section ends at the next heading of its level or above: a deeper one that keeps its text keeps it too.
    expect(replaced('## Rules\n### Style\n- Use tabs.\n### Why\nHistory.\n')).toBe('## Rules\n### Why\nHistory.\n');
  });

  it('the blank line that parted an emptied section from the next heading goes; a run of blank lines the user wrote stays', () => {
    const block = `${beginMarker('0'.repeat(64))}\n${END_MARKER}\n`;
    const text = `# T\n\n${block}\n## Code style\n- Use X.\n\n## Testing\n- Run tests always.\n\n## Overview\nText.\n`;
    expect(replaced(text)).toBe(`# T\n\n${block}\n## Overview\nText.\n`);
    expect(replaced('Intro.\r\n\r\n## Testing\r\n- Use vitest.\r\n\r\n## Notes\r\n\r\n\r\nMore.\r\n')).toBe(
      'Intro.\r\n\r\n## Notes\r\n\r\n\r\nMore.\r\n',
    );
    expect(replaced('Intro.\n\n\n- Use tabs.\n- `npm test`\n')).toBe('Intro.\n\n\n- `npm test`\n');
  });

  it('a section ends at the managed block below it: a heading over rules an earlier export put the block after goes', () => {
    const block = `${beginMarker('0'.repeat(64))}\n\n## Invariants\n\n- Use X.\n\n${END_MARKER}\n`;
    const text = `# T\n\n- Use X.\n\n## Style\nAlways run the linter.\n\n${block}`;
    const split = splitInstructions(text);
    const labels = split.leftOut.filter((l) => l.reason === 'heading');
    const rules = split.candidates.filter((c) => c.line < 8);
    expect(removeLines(text, rules, undefined, labels)).toBe(`# T\n\n${block}`);
    // A heading that still heads a line of its own above the block stays.
    expect(
      removeLines(`## Style\nAlways run the linter.\nSee the wiki.\n\n${block}`, [{ line: 2, end_line: 2 }], undefined, [
        { line: 1, end_line: 1 },
      ]),
    ).toBe(`## Style\nSee the wiki.\n\n${block}`);
  });

  it('a heading stays when anything is left below it, when nothing was (a placeholder), and when it is the title', () => {
    expect(replaced('## Rules\n\n- Never commit secrets.\n- `npm test`\n')).toBe('## Rules\n\n- `npm test`\n');
    expect(replaced('## TODO\n\n## Rules\n- Use tabs.\n')).toBe('## TODO\n\n');
    expect(replaced('# Guide\n\n## Rules\n\n- Use tabs.\n', '<block>\n')).toBe('# Guide\n\n<block>\n');
    expect(replaced('Guide\n=====\n- Use tabs.\n')).toBe('Guide\n=====\n');
    // A "# comment" in a code block is no heading: the section of "## Setup" holds the block, which stays.
    expect(replaced('## Setup\n\n```sh\n# install\nnpm ci\n```\n\n- Use pnpm.\n')).toBe('## Setup\n\n```sh\n# install\nnpm ci\n```\n\n');
  });
});
