import { describe, expect, it } from 'vitest';
import { splitInstructions } from '../../src/core/import-rules.ts';
import { splitSentences, tagOf } from '../../src/core/rule-wording.ts';
import { plain } from '../../src/core/markdown-plain.ts';

const texts = (md: string) => splitInstructions(md).candidates.map((c) => c.text);
const reasons = (md: string) => splitInstructions(md).leftOut.map((l) => [l.line, l.end_line, l.reason]);

describe('splitInstructions: what is a rule', () => {
  it.each([
    ['an imperative list item', '- Use single quotes.', ['Use single quotes.']],
    ['a normative list item', '* Commits must be signed.', ['Commits must be signed.']],
    ['a numbered item', '1. Never push to main.', ['Never push to main.']],
    ['a checkbox item', '- [ ] Run the linter before you commit.', ['Run the linter before you commit.']],
    ['an item wrapped over lines', '- Do not add dependencies\n  without asking first.', ['Do not add dependencies without asking first.']],
    ['inline code kept as text', '- Prefer `pnpm` over `npm`.', ['Prefer pnpm over npm.']],
    ['emphasis and links cleaned', '- **Never** edit [generated files](docs/gen.md).', ['Never edit generated files.']],
    ['an item starting with code that states a rule', '- `main` must always build.', ['main must always build.']],
    ['a short rule paragraph, whole', 'Always run the tests. Keep commits small.', ['Always run the tests. Keep commits small.']],
    [
      'a sentence that asks to ensure something, after a word of weight',
      'It is important to ensure the tests pass.',
      ['It is important to ensure the tests pass.'],
    ],
    ['a rule on the file itself', 'This file is generated: never edit it by hand.', ['This file is generated: never edit it by hand.']],
    ['a bare phrase under a rules heading', '## Code style\n- 2-space indentation', ['2-space indentation']],
    ['a quoted rule, without its marker', '> Never push to main.', ['Never push to main.']],
    ['a quoted list, nested quotes too', '> - Use pnpm.\n> > - Never commit secrets.', ['Use pnpm.', 'Never commit secrets.']],
    ['a GitHub alert: its marker line is markup', '> [!IMPORTANT]\n> Do not edit generated files.', ['Do not edit generated files.']],
    [
      'a line of only bold text over the rest of its paragraph or item: a label, joined with a colon',
      '**Important**\nNever push to main.\n\n> **Warning**\n> Never force-push.\n\n- __Note__\n  Always sign commits.',
      ['Important: Never push to main.', 'Warning: Never force-push.', 'Note: Always sign commits.'],
    ],
    [
      'an imperative of a setup step, or of telling someone',
      '- Copy `.env.example` to `.env`.\n- Configure the proxy first.\n- Tell the user what you changed.\n- Squash commits before merging.',
      ['Copy .env.example to .env.', 'Configure the proxy first.', 'Tell the user what you changed.', 'Squash commits before merging.'],
    ],
    [
      'an imperative of merging; an example under a heading of rules is none',
      '## Branch rules\n\n- Example: feature/123-user-auth\n- Merge back to develop.',
      ['Merge back to develop.'],
    ],
    [
      'an imperative of publishing or improving',
      '- Publish the package after the tag.\n- Improve the docs as you go.',
      ['Publish the package after the tag.', 'Improve the docs as you go.'],
    ],
    [
      'an imperative after a word that places it among steps',
      '- Also link to the other articles.\n- Then run the tests.\n- Instead keep the answer brief.',
      ['Also link to the other articles.', 'Then run the tests.', 'Instead keep the answer brief.'],
    ],
    [
      'an imperative after a word of courtesy, or of giving and discussing',
      '- Please respect the prettier settings.\n- Kindly, run the linter first.\n- Give the answer first.\n- Discuss safety only when it matters.',
      [
        'Please respect the prettier settings.',
        'Kindly, run the linter first.',
        'Give the answer first.',
        'Discuss safety only when it matters.',
      ],
    ],
    [
      'an imperative of a less common verb',
      'Assign messages to a variable before raising.',
      ['Assign messages to a variable before raising.'],
    ],
    [
      'an imperative after a leading place and a colon',
      'In `cmdline/`: delay imports to function level.',
      ['In cmdline/: delay imports to function level.'],
    ],
  ])('%s', (_name, md, want) => {
    expect(texts(md)).toEqual(want);
  });

  it.each([
    ['a description paragraph', 'This repository holds the billing service.', 'description'],
    [
      'a sentence that says where things are, under a heading of rules too',
      '## Testing\n\n- Test files are located in the tests folder.\n- CI plans are located in `.github/workflows/`.',
      'description',
    ],
    [
      'a sentence that says what something is for (to ensure)',
      'It covers setup, testing and linting to ensure consistency and high-quality contributions.',
      'description',
    ],
    [
      'a sentence that says what something is for (helps ensure)',
      'This helps ensure that project context and guidelines are available to the assistant.',
      'description',
    ],
    [
      'a sentence on what the file itself is, whatever words of a rule it quotes',
      '## Purpose\n\nThis document defines how coding agents should work in this repository.',
      'description',
    ],
    [
      'a sentence on what the rules themselves are',
      'These rules define the **Memory Bank** workflow, a mandatory process for the agent.',
      'description',
    ],
    ['a command listing', '- `npm test` runs the tests', 'command'],
    ['a link list item', '- [Contributing](CONTRIBUTING.md)', 'link'],
    ['a see-also link', '- See [the style guide](docs/style.md).', 'link'],
    ['a bare phrase under a descriptive heading', '## Layout\n- The web front end', 'description'],
    ['a label whose first word is also a verb', 'Type checking: `mypy`.', 'description'],
    ['a closing word that is also a verb', '# Guide\n\nEnd.', 'description'],
    ['a closing phrase whose first word is also a verb', 'End of file text.', 'description'],
    ['a one-word item whose word is also a verb', '- **Stop**', 'description'],
  ])('%s is left out', (_name, md, reason) => {
    const r = splitInstructions(md);
    expect(r.candidates).toEqual([]);
    expect(r.leftOut.map((l) => l.reason)).toContain(reason);
  });

  it('a quote keeps its line numbers, and a quoted description is left out', () => {
    const r = splitInstructions('# T\n\n> This service bills customers.\n>\n> - Never log card numbers.\n');
    expect(r.candidates.map((c) => [c.line, c.text])).toEqual([[5, 'Never log card numbers.']]);
    expect(r.leftOut.map((l) => [l.line, l.reason])).toEqual([
      [1, 'heading'],
      [3, 'description'],
    ]);
  });

  it('an item that opens with a listing or a description and goes on with a rule gives that rule, its line kept', () => {
    const md = '- `npm run validate` runs every check. Run the API tests against the real database.\n- `site/`: the built docs.\n';
    const r = splitInstructions(md);
    expect(r.candidates.map((c) => [c.line, c.text, c.whole])).toEqual([[1, 'Run the API tests against the real database.', false]]);
    expect(reasons(md)).toEqual([
      [1, 1, 'command'],
      [2, 2, 'command'],
    ]);
  });

  it('a one-word label is a term, not a verb; a rule ending in its command is a rule', () => {
    expect(texts('## Types\n\n- **feat**: New feature\n- **fix**: Bug fix\n')).toEqual([]);
    expect(texts('- **Lint**: run the linter before you push')).toEqual(['Lint: run the linter before you push']);
    expect(texts('- Ensure the submodule is current: `git submodule update`')).toEqual([
      'Ensure the submodule is current: git submodule update',
    ]);
    expect(texts('- **Build**: `npm run build`')).toEqual([]);
  });

  it('a verb alone is a rule after its clause, over its list, or under a heading of rules; "of" after it only in a short phrase is a noun', () => {
    expect(texts('When unsure, ask.\n\n- Build:\n  - run make\n  - ship it\n\n## Rules\n\n- Lint\n')).toEqual([
      'When unsure, ask.',
      'Build: run make; ship it.',
      'Lint',
    ]);
    expect(texts('Think of it as a cache.\n\nUse of globals is discouraged.\n')).toEqual([
      'Think of it as a cache.',
      'Use of globals is discouraged.',
    ]);
  });

  it('an adverb before the verb keeps the imperative', () => {
    expect(texts('- Fully read the style guide.\n- Carefully review migrations.')).toEqual([
      'Fully read the style guide.',
      'Carefully review migrations.',
    ]);
    expect(texts('- Early returns keep functions flat.')).toEqual([]);
  });

  it('a verb of a step starts a rule; one that is also a noun or an adjective only before its object, or after a step word', () => {
    const md =
      '## Workflow\n\n- Clear the cache before running the benchmarks.\n- Open an issue before starting a large change.\n' +
      '- Regenerate the snapshots after changing the parser.\n- Abort the rebase on conflicts.\n- Then open a PR.\n' +
      '- Focus on one change per PR.\n- Open source under the MIT licence.\n- Clear separation between the CLI and the core.\n' +
      '- Pull requests are reviewed weekly.\n- Focus areas: speed.\n- Cancel button closes the dialog.\n';
    expect(texts(md)).toEqual([
      'Clear the cache before running the benchmarks.',
      'Open an issue before starting a large change.',
      'Regenerate the snapshots after changing the parser.',
      'Abort the rebase on conflicts.',
      'Then open a PR.',
      'Focus on one change per PR.',
    ]);
  });

  it('a verb that is also a noun starts a rule before a file or folder it acts on, written as code', () => {
    const md =
      '## Troubleshooting\n\n- Clear `.next/` when the build acts up.\n- Open `src/index.ts` first.\n- Clear .env.local before a demo.\n' +
      '- Clear separation of `src/` and `test/`.\n- File names are kebab-case.\n- List e.g. the folders.\n';
    expect(texts(md)).toEqual(['Clear .next/ when the build acts up.', 'Open src/index.ts first.', 'Clear .env.local before a demo.']);
  });

  it('edit and change start a rule before their object, as a verb that is as often a noun does', () => {
    const md =
      '## Workflow\n\n- Edit the README when you add a command.\n- Change `config.ts` only through the wizard.\n' +
      '- Edit history is kept for a year.\n- Change log entries go under Unreleased.\n\n## Never Edit\n\n- generated files\n';
    expect(texts(md)).toEqual([
      'Edit the README when you add a command.',
      'Change config.ts only through the wizard.',
      'Never Edit: generated files',
    ]);
  });

  it("an admonition is read as the text it holds, its marker lines as markup, an MkDocs one's indented text as text", () => {
    const md =
      '## Security\n\n!!! warning "Secrets"\n    Never commit secrets.\n\n    - Rotate keys after a leak.\n\n:::danger\nDo not disable TLS.\n:::\n\n' +
      '::::note\n:::tip Title\nUse pnpm.\n:::\n::::\n\n```md\n:::danger\nA code line.\n:::\n```\n\n    !!! note\n        Code.\n';
    const r = splitInstructions(md);
    expect(r.candidates.map((c) => [c.line, c.text])).toEqual([
      [4, 'Never commit secrets.'],
      [6, 'Rotate keys after a leak.'],
      [9, 'Do not disable TLS.'],
      [14, 'Use pnpm.'],
    ]);
    expect(r.leftOut.filter((l) => l.reason === 'code-block').map((l) => l.line)).toEqual([18, 24]);
  });

  it("a step's number (1.1.) and a nested letter (a.) mark sub-steps as items, each a rule of its own; prose stays prose", () => {
    const md =
      '## Release\n\n1. Prepare\n   1.1. Bump the version in `package.json`.\n   1.2. Never tag from a fork.\n2. Publish\n   2.1 Run `npm publish`.\n\n' +
      '## Setup\n\n1. Install the tools:\n   a. Run `pnpm install`\n   b. Never use `npm install`\n\n' +
      'Version 2.0 is out; we dropped\n1.0.0 support and\na. k. a. names.\n';
    expect(texts(md)).toEqual([
      'Bump the version in package.json.',
      'Never tag from a fork.',
      'Run npm publish.',
      'Install the tools: Run pnpm install; Never use npm install.',
    ]);
    expect(reasons(md).at(-1)).toEqual([15, 17, 'description']);
  });

  it('a number with no dot after it at the margin (a version, a size) is the start of its line, no sub-step', () => {
    expect(
      texts('## Rules\n\n2.0 APIs must not be used in new code.\n\nUploads are limited:\n1.5 MB per file must never be exceeded.\n'),
    ).toEqual(['2.0 APIs must not be used in new code.', 'Uploads are limited: 1.5 MB per file must never be exceeded.']);
  });

  it('struck-out text is taken back: an item struck out whole is no rule, and a line with some keeps it on --replace', () => {
    const r = splitInstructions('## Rules\n\n- [ ] ~~Use jQuery~~\n- Use ~~jQuery~~ vanilla JS.\n- Keep `a~~b~~c` as is.\n');
    expect(r.candidates.map((c) => [c.text, c.whole])).toEqual([
      ['Use vanilla JS.', false],
      ['Keep a~~b~~c as is.', true],
    ]);
    expect(r.leftOut.filter((l) => l.reason !== 'heading')).toEqual([expect.objectContaining({ line: 3, reason: 'description' })]);
  });

  it('a label that names a form over code is the form to keep to, under any heading; one of a task lists a command', () => {
    const md =
      '## Rules\n\n- Title format: `feat(scope): …`\n\n## Git\n\n- Branch naming: `feature/<ticket>-<slug>`\n' +
      '- Naming convention: `kebab-case.ts`\n- Check format: `npm run format:check`\n- Format: `npm run format`\n' +
      '- Run tests: `npm test`\n';
    expect(texts(md)).toEqual([
      'Title format: feat(scope): …',
      'Branch naming: feature/<ticket>-<slug>',
      'Naming convention: kebab-case.ts',
    ]);
    expect(reasons(md).filter((r) => r[2] === 'command')).toEqual([
      [9, 9, 'command'],
      [10, 10, 'command'],
      [11, 11, 'command'],
    ]);
  });

  it('the items of a caption, label or heading of what an agent may do are taken with it, as permissions, never as orders', () => {
    const md =
      '## Permissions\n\nAllowed without prompt:\n- Run the linter\n\nAllowed values:\n- strict\n\n' +
      '- You may:\n  - Run one test file\n\n### Allowed without asking\n\n- Read files\n\n#### Tools\n\n- Run tsc on one file\n\n' +
      '## Rules\n\n- Keep PRs small.\n';
    expect(texts(md)).toEqual([
      'Allowed without prompt: Run the linter',
      'You may: Run one test file',
      'Allowed without asking: Read files',
      'Allowed without asking: Run tsc on one file',
      'Keep PRs small.',
    ]);
    // "You can" heads a permission alone or with "without asking", not as the start of any sentence.
    expect(texts('## You can find docs here\n\n- Never commit secrets.\n')).toEqual(['Never commit secrets.']);
    expect(texts('## You can do these without asking\n\n- Read files\n')).toEqual(['You can do these without asking: Read files']);
    expect(texts('- You may use these tools:\n  - Read files\n')).toEqual(['You may use these tools: Read files']);
  });

  it('a sentence that only leads into a list of rules is no rule itself; one that the items finish is', () => {
    const first = '- Run the linter and the type checker on every package you touched before you push a branch.';
    const md = `We insist on high standards at all times:\n\n${first}\n- Keep functions short.\n`;
    expect(texts(md)).toEqual([first.slice(2), 'Keep functions short.']);
    expect(reasons(md)).toEqual([[1, 1, 'description']]);
    expect(texts(`Never merge a red build. Always check:\n\n${first}\n`)).toEqual(['Never merge a red build.', first.slice(2)]);
    expect(texts('Run it when you change:\n- `src/` or shared utilities, and the build or test configuration of the packages.\n')).toEqual([
      'Run it when you change:',
    ]);
  });

  it('a one-line caption that says when the rules below it apply is taken with each of them', () => {
    const items =
      '1. Check the folders `content/` and `drafts/` for a story on the same topic first.\n2. Skip a story that is older than two days, whatever its source or its topic.\n';
    const r = splitInstructions(`## Scouting\n\nBefore creating a file:\n${items}\nWrite the summary.\n- Keep it short.\n`);
    expect(r.candidates.map((c) => [c.line, c.text, c.tags])).toEqual([
      [4, 'Before creating a file: Check the folders content/ and drafts/ for a story on the same topic first.', ['scouting']],
      [5, 'Before creating a file: Skip a story that is older than two days, whatever its source or its topic.', ['scouting']],
      [7, 'Write the summary.', ['scouting']],
      [8, 'Keep it short.', ['scouting']],
    ]);
    expect(reasons(`Before creating a file:\n${items}`)[0]).toEqual([1, 1, 'heading']);
    // Over items that are no rules it is read as before.
    expect(
      texts('When you change these files:\n- the `src/` folder and every shared utility of the packages in this repository\n'),
    ).toEqual([]);
    // One that states a rule itself only leads into them.
    expect(texts(`When you write code, always hold to these:\n${items}`)[0]).toBe(
      'Check the folders content/ and drafts/ for a story on the same topic first.',
    );
  });

  it('a label of keeping to what its code shows is a rule; one of running it, or a noun, lists a command', () => {
    const md =
      '## Git rules\n\n- Use conventional commit format: `<type>(<scope>): <description>`\n- Name: `api`\n\n## Testing\n\n- Run tests: `npm test`\n';
    expect(texts(md)).toEqual(['Use conventional commit format: <type>(<scope>): <description>']);
    expect(reasons(md)).toEqual([
      [1, 1, 'heading'],
      [4, 4, 'command'],
      [6, 6, 'heading'],
      [8, 8, 'command'],
    ]);
  });

  it('an unpunctuated line right over its list is a heading written as a line: its tag and way go on the rules below', () => {
    const md =
      'What Copilot must avoid\n- Generated secrets in commits.\n\nCommit & PR guidance for the assistant\n- Suggest a short summary line.\n\nAlways run the linter before pushing\n- `npm run lint`\n';
    expect(splitInstructions(md).candidates.map((c) => [c.line, c.text, c.tags])).toEqual([
      [2, 'Avoid: Generated secrets in commits.', ['what-copilot-must-avoid']],
      [5, 'Suggest a short summary line.', ['commit-pr-guidance-for-the-assistant']],
      // A rule over a list of what is no rule of its own stays a rule.
      [7, 'Always run the linter before pushing', []],
    ]);
    expect(reasons(md)).toEqual([
      [1, 1, 'heading'],
      [4, 4, 'heading'],
      [8, 8, 'command'],
    ]);
  });

  it('a heading right below the last item of a list a sentence leads into is a heading, not the end of that item', () => {
    const md = 'For pull requests, include:\n\n- A short summary\n- Links to issues\n## Agent rules\n\n- Keep it short.\n';
    expect(splitInstructions(md).candidates.map((c) => [c.line, c.end_line, c.text, c.tags])).toEqual([
      [1, 4, 'For pull requests, include: A short summary; Links to issues.', []],
      [7, 7, 'Keep it short.', ['agent-rules']],
    ]);
    expect(reasons(md)).toEqual([[5, 5, 'heading']]);
  });

  it('a paragraph whose last sentence is a rule over a list of commands gives that rule with them, its lines kept', () => {
    const md = 'One commit per phase. **Run `just fmt` before every commit**:\n\n- `just fmt`\n- `just lint`\n';
    const r = splitInstructions(md);
    expect(r.candidates.map((c) => [c.line, c.end_line, c.whole, c.text])).toEqual([
      [1, 4, false, 'Run just fmt before every commit: just fmt, just lint.'],
    ]);
    expect(reasons(md)).toEqual([[1, 4, 'command']]);
    // One whose sentences state none is a listing, as before.
    expect(texts('The project has a few tools. These are:\n\n- `just fmt`\n- `just lint`\n')).toEqual([]);
  });

  it('a short label that says when the steps nested below it apply is taken with each, not made their tag', () => {
    const md = '## Release\n\n3. After merge to main:\n   - Tag the release.\n   - Run the smoke tests.\n4. For example:\n   - Use tabs.\n';
    const r = splitInstructions(md);
    expect(r.candidates.map((c) => [c.line, c.text, c.tags])).toEqual([
      [4, 'After merge to main: Tag the release.', ['release']],
      [5, 'After merge to main: Run the smoke tests.', ['release']],
      // "For example" opens with a word of a condition and says when nothing applies: a label as before.
      [7, 'Use tabs.', ['release', 'for-example']],
    ]);
    expect(reasons(md)).toContainEqual([3, 3, 'heading']);
  });

  it('takes each step nested under a condition as a rule with it, in lower case as in upper', () => {
    const md =
      '## Tasks\n\n- When a task is completed and committed:\n  - mark it done in `TODO.md`\n  - add the commit hash\n- Avoid nesting by:\n  - using early returns\n';
    const r = splitInstructions(md);
    expect(r.candidates.map((c) => [c.line, c.text])).toEqual([
      [4, 'When a task is completed and committed: mark it done in TODO.md'],
      [5, 'When a task is completed and committed: add the commit hash'],
      // No condition: the nested words finish the item's sentence, one rule as before.
      [6, 'Avoid nesting by: using early returns.'],
    ]);
  });

  it('reads bullets pasted from a word processor as list items, indented right below a line of text or after a blank line', () => {
    const md =
      'Expectations of the team\n\t\u2022\tClaude must preserve the architecture.\n\t\u2022\tAsk before a rewrite.\n\nRules:\n\n\t\u2022\tUse tabs.\n\nThe end.\n\n\t- code\n';
    const r = splitInstructions(md);
    expect(r.candidates.map((c) => [c.line, c.text])).toEqual([
      [2, 'Claude must preserve the architecture.'],
      [3, 'Ask before a rewrite.'],
      [7, 'Use tabs.'],
    ]);
    // After a blank line, an indented line of another marker is code, as CommonMark reads it.
    expect(r.leftOut.map((l) => [l.line, l.reason])).toContainEqual([11, 'code-block']);
  });

  it('reads a rule file written as elements line for line: one element around text as an item, a lone tag as a blank line', () => {
    const md =
      '# Globs\n\n<version>1.0.0</version>\n\n<requirements>\n  <requirement>Use specific glob patterns</requirement>\n  <requirement priority="high">Never match every file</requirement>\n</requirements>\n';
    const r = splitInstructions(md);
    expect(r.candidates.map((c) => [c.line, c.text])).toEqual([
      [6, 'Use specific glob patterns'],
      [7, 'Never match every file'],
    ]);
    // No words, no rule.
    expect(r.leftOut.map((l) => [l.line, l.reason])).toContainEqual([3, 'description']);
    // Code holds elements as text: in a fence, and indented where no element is open above it.
    const code = 'Markup:\n\n```html\n<p>Never use inline styles</p>\n```\n\n    <p>Always inline them</p>\n';
    expect(texts(code)).toEqual([]);
    expect(reasons(code).map(([line, , reason]) => [line, reason])).toEqual([
      [1, 'command'],
      [3, 'code-block'],
      [7, 'code-block'],
    ]);
  });

  it("reads an element's line as its item when its text holds other markup or a `<`", () => {
    const md = '<rules>\n<rule>Prefer <code>const</code> over let</rule>\n<rule>Use `a < b` comparisons</rule>\n</rules>\n';
    expect(splitInstructions(md).candidates.map((c) => [c.line, c.end_line, c.text])).toEqual([
      [2, 2, 'Prefer const over let'],
      [3, 3, 'Use a < b comparisons'],
    ]);
  });

  it("reads an HTML heading's line as a heading, and a collapsible section's summary as its text, not as an item", () => {
    const md =
      '## Conventions\n\n<details>\n<summary>Frontend</summary>\n\n- Use tabs\n</details>\n\n- 2-space YAML\n\n<h2 id="o">Overview</h2>\n\n- a web app\n';
    expect(splitInstructions(md).candidates.map((c) => [c.line, c.text, c.tags])).toEqual([
      [6, 'Use tabs', ['conventions']],
      [9, '2-space YAML', ['conventions']],
    ]);
    expect(reasons(md)).toEqual([
      [1, 1, 'heading'],
      [4, 4, 'description'],
      [11, 11, 'heading'],
      [13, 13, 'description'],
    ]);
  });

  it('reads a line that is one element of HTML formatting (<code>, <b>) as the text it formats, not as an item', () => {
    const md = '## Conventions\n\n<code>npm test</code>\n\n<b>Important</b>\n\n<li>Use tabs</li>\n';
    expect(texts(md)).toEqual(['Use tabs']);
    expect(reasons(md)).toEqual([
      [1, 1, 'heading'],
      [3, 3, 'description'],
      [5, 5, 'description'],
    ]);
  });

  it('leaves an element of examples out whole, as an example: what it shows is no rule, nor the opposite of one', () => {
    const md =
      '## Rules\n\n- Use const\n\n<example type="invalid">\n  Always use any types\n  <example>- Use var</example>\n</example>\n- Keep it short\n<bad-example>Use var</bad-example>\n';
    expect(texts(md)).toEqual(['Use const', 'Keep it short']);
    expect(reasons(md)).toEqual([
      [1, 1, 'heading'],
      [5, 8, 'description'],
      [10, 10, 'description'],
    ]);
  });

  it('takes no line of an element of examples into a caption or sentence above it', () => {
    const md = 'Avoid:\n<example>\n- use var\n</example>\n\nUse this pattern:\n<example>Run `make` twice</example>\n';
    expect(texts(md)).toEqual([]);
    expect(splitInstructions(md).leftOut.map((l) => [l.line, l.end_line, l.reason, l.excerpt])).toEqual([
      [1, 1, 'description', 'Avoid:'],
      [2, 4, 'description', '- use var'],
      [6, 6, 'description', 'Use this pattern:'],
      [7, 7, 'description', 'Run `make` twice'],
    ]);
  });

  it("reads the text on the line below an element's line as a block of its own, not as the element's rule going on", () => {
    const md = '<rules>\n<rule>Use tabs</rule>\nNotes about the repo follow here.\n<rule>Use pnpm</rule>\n</rules>\n';
    expect(splitInstructions(md).candidates.map((c) => [c.line, c.end_line, c.text])).toEqual([
      [2, 2, 'Use tabs'],
      [4, 4, 'Use pnpm'],
    ]);
    expect(reasons(md)).toEqual([[3, 3, 'description']]);
    // Under a sentence that leads into them too.
    const lead = 'You must:\n<rule>use tabs</rule>\n<rule>never push</rule>\nThe CI is slow.\n';
    expect(splitInstructions(lead).candidates.map((c) => [c.line, c.end_line, c.text])).toEqual([
      [1, 3, 'You must: use tabs; never push.'],
    ]);
    expect(reasons(lead)).toEqual([[4, 4, 'description']]);
  });

  it('reads a line that closes an element after its text as that text, the end of its block, whose line --replace keeps', () => {
    const md =
      '<important>Never push to main\nwithout a review.</important>\n\n<rules>\n- Run the tests.\n- Keep PRs small.</rules>\n' +
      'The CI is slow.\n\n<example>\nUse var</example>\n';
    expect(splitInstructions(md).candidates.map((c) => [c.line, c.end_line, c.text, c.whole])).toEqual([
      [1, 2, 'Never push to main without a review.', false],
      [5, 5, 'Run the tests.', true],
      [6, 6, 'Keep PRs small.', false],
    ]);
    expect(reasons(md)).toEqual([
      [7, 7, 'description'],
      [9, 10, 'description'],
    ]);
  });

  it('excerpts a left-out line of an element as the file has it, not as it was read', () => {
    const md = '<h2 id="c">Context</h2>\n<context>The repository is a monorepo</context>\n</rules> The CI is slow.\n';
    expect(splitInstructions(md).leftOut.map((l) => [l.line, l.reason, l.excerpt])).toEqual([
      [1, 'heading', '<h2 id="c">Context</h2>'],
      [2, 'description', '<context>The repository is a monorepo</context>'],
      [3, 'description', '</rules> The CI is slow.'],
    ]);
    // An example shows what it holds, the text after its opening tag first.
    expect(splitInstructions('<example>Use var\nin old code\n</example>\n').leftOut.map((l) => l.excerpt)).toEqual(['Use var in old code']);
    // A heading of HTML the only element of its file.
    expect(splitInstructions('<h2 id="c">Context</h2>\n').leftOut.map((l) => l.excerpt)).toEqual(['<h2 id="c">Context</h2>']);
  });

  it('reads the text after a closing tag on its line as a block of its own, whose line --replace keeps for its tag', () => {
    const md =
      '<rules>\n- Never commit secrets\n</rules> Then run the tests.\n\n<rules>\n<rule>Use tabs</rule>\n</rules> Always lint.\n\n' +
      '<rules>\nNever push to main.\n</rules> Then run the linter.\n\n<example>\nUse var\n</example> Use const.\n\n' +
      // A component or a type parameter in the text, and a tag that closes nothing, are the text's.
      'Use semantic HTML.\n<Button> must have a label.\n</rules> Keep it short.\n';
    expect(splitInstructions(md).candidates.map((c) => [c.line, c.end_line, c.text, c.whole])).toEqual([
      [2, 2, 'Never commit secrets', true],
      [3, 3, 'Then run the tests.', false],
      [6, 6, 'Use tabs', true],
      [7, 7, 'Always lint.', false],
      [10, 10, 'Never push to main.', true],
      [11, 11, 'Then run the linter.', false],
      [15, 15, 'Use const.', false],
      [17, 19, 'Use semantic HTML. <Button> must have a label. </rules> Keep it short.', true],
    ]);
    expect(reasons(md)).toEqual([[13, 14, 'description']]);
  });

  it('takes a command under a heading of checks a change must pass as a check, with the heading when it says when', () => {
    const md =
      '## Definition of Done\n\n- **Tests pass:** `npm test`\n\n## Commands\n\n- **Build:** `npm run build`\n\n## Before committing\n\n- `npm run lint`\n';
    const r = splitInstructions(md);
    expect(r.candidates.map((c) => [c.line, c.text, c.tags])).toEqual([
      [3, 'Tests pass: npm test', ['definition-of-done']],
      [11, 'Before committing: npm run lint', ['before-committing']],
    ]);
    // Elsewhere a command is a listing, as before.
    expect(r.leftOut.map((l) => [l.line, l.reason])).toContainEqual([7, 'command']);
  });

  it('takes each step below a condition written over two lines with the condition, as below one of a line', () => {
    const md = 'if the build fails on CI\nbut passes locally:\n- run the tests again\n- ask for help\n';
    expect(splitInstructions(md).candidates.map((c) => [c.line, c.text])).toEqual([
      [3, 'if the build fails on CI but passes locally: run the tests again'],
      [4, 'if the build fails on CI but passes locally: ask for help'],
    ]);
    expect(reasons(md)).toEqual([[1, 2, 'heading']]);
  });

  it('takes a command as a check only under a heading of checks a change must pass, not under a setup step', () => {
    const md =
      '## After cloning\n\n- `npm install`\n\n## Before you start\n\n- `make setup`\n\n## After making changes\n\n- `npm test`\n\n## Before opening a PR\n\n- `npm run lint`\n';
    const r = splitInstructions(md);
    expect(r.candidates.map((c) => [c.line, c.text])).toEqual([
      [11, 'After making changes: npm test'],
      [15, 'Before opening a PR: npm run lint'],
    ]);
    expect(r.leftOut.filter((l) => l.reason === 'command').map((l) => l.line)).toEqual([3, 7]);
  });

  it('takes a command below a caption of checks that says when (Before committing:) as a check with it', () => {
    const md = '**Before committing:**\n- `npm test`\n\nAfter cloning:\n- `npm install`\n';
    expect(splitInstructions(md).candidates.map((c) => [c.line, c.text])).toEqual([[2, 'Before committing: npm test']]);
    expect(reasons(md)).toEqual([
      [1, 1, 'heading'],
      [4, 4, 'heading'],
      [5, 5, 'command'],
    ]);
  });

  it('takes a rule about templates that names a placeholder in its sentence; a placeholder alone or after a label is a blank', () => {
    const md =
      '- Always escape {{user_input}} in templates\n- **Template:** {{tpl}}\n- {{placeholder}} templates must be escaped\n- Use {{package_manager}} to install\n\nNever render {{ user }} unescaped in a template.\n';
    expect(texts(md)).toEqual(['Always escape {{user_input}} in templates', 'Never render {{ user }} unescaped in a template.']);
    expect(reasons(md)).toEqual([
      [2, 2, 'description'],
      [3, 3, 'description'],
      [4, 4, 'description'],
    ]);
  });

  it("leaves a line with a bracket of what to write inside its sentence out as a blank; a bracket of examples in a rule is the rule's", () => {
    const md =
      '- Always run [your test command] before pushing\n- Name ids plainly [e.g. userId]\n- Read [your notes][n]\n- Use `[todo]` markers\n';
    expect(texts(md)).toEqual(['Name ids plainly [e.g. userId]', 'Read your notes', 'Use [todo] markers']);
    expect(reasons(md)).toEqual([[1, 1, 'description']]);
  });

  it("leaves a template's lines still to fill in out, and joins a rule's steps without their trailing commas and conjunctions", () => {
    const tpl =
      '- Tone: {{tone}}\n- Always propose tests with code changes: {{ tests_required }}\n- Use `{{ }}` for interpolation.\n\nProject {{name}} must build.\n';
    expect(texts(tpl)).toEqual(['Use {{ }} for interpolation.']);
    expect(reasons(tpl)).toEqual([
      [1, 1, 'description'],
      [2, 2, 'description'],
      [5, 5, 'description'],
    ]);
    // A label over a bracket of what to write is a blank too; a rule with its examples in brackets is a rule.
    const blanks =
      '## Preferences\n\n- **Code Style:** [e.g., PEP 8, Google Style]\n- [Your stack here]\n- Name ids plainly [e.g. userId]\n';
    expect(texts(blanks)).toEqual(['Name ids plainly [e.g. userId]']);
    expect(texts('## Core Mandates\n\n- **Style:** Mimic the patterns of existing code.\n')).toEqual([
      'Style: Mimic the patterns of existing code.',
    ]);
    const steps =
      'When changing the source, ensure that you:\n\n- Have both async and sync versions,\n- Propose tests, and,\n- Give a summary.\n';
    expect(texts(steps)).toEqual([
      'When changing the source, ensure that you: Have both async and sync versions; Propose tests; Give a summary.',
    ]);
  });

  it('gives the sentences of a long mixed paragraph that state rules, and leaves the rest out', () => {
    const md = 'The CI runs on every push and takes about ten minutes. Never merge a red build. The team reviews daily.';
    const r = splitInstructions(md);
    expect(r.candidates).toEqual([{ text: 'Never merge a red build.', line: 1, end_line: 1, whole: false, tags: [] }]);
    expect(r.leftOut.map((l) => l.reason)).toEqual(['description']);
  });
});

describe('splitInstructions: a file in another language than English', () => {
  it('takes each list item that is no code, link or label as it stands, and says the file is not English', () => {
    const de =
      '# Regeln für Agenten\n\n- Verwende immer TypeScript im strikten Modus.\n- Keine `any`-Typen verwenden.\n- Tests:\n  - Schreibe Tests für jede neue Funktion.\n- `npm test`\n\nDie Datei ist für alle Agenten.\n';
    const r = splitInstructions(de);
    expect(r.notEnglish).toBe(true);
    expect(r.candidates.map((c) => [c.line, c.text])).toEqual([
      [3, 'Verwende immer TypeScript im strikten Modus.'],
      [4, 'Keine any-Typen verwenden.'],
      [6, 'Schreibe Tests für jede neue Funktion.'],
    ]);
    expect(reasons(de)).toEqual([
      [1, 1, 'heading'],
      [5, 5, 'heading'],
      [7, 7, 'command'],
      [9, 9, 'description'],
    ]);
    expect(splitInstructions('# コーディング規約\n\n- 関数は50行以内に収める\n- 新しい機能には必ずテストを書く\n').candidates).toHaveLength(
      2,
    );
  });

  it('reads English of terse phrases, or too short to tell, as English', () => {
    const terse =
      '# Tech Stack\n\n- TypeScript strict mode\n- Prettier formatting\n- ESLint airbnb config\n- Named exports\n- Zod schemas\n';
    expect(splitInstructions(terse).notEnglish).toBeUndefined();
    expect(splitInstructions(terse).candidates).toEqual([]);
    expect(splitInstructions('- Ja\n').notEnglish).toBeUndefined();
  });
});

describe('splitInstructions: nested list items', () => {
  const spans = (md: string) => splitInstructions(md).candidates.map((c) => [c.line, c.end_line, c.text]);

  it('a nested item that states no rule of its own finishes the rule above it, whose lines it joins', () => {
    expect(
      spans('## Code style\n- IMPORTANT: Never commit `.env` files.\n  - This includes `.env.local`.\n- Prefer named exports.'),
    ).toEqual([
      [2, 3, 'IMPORTANT: Never commit .env files. This includes .env.local.'],
      [4, 4, 'Prefer named exports.'],
    ]);
    // Without closing punctuation: a lower-case fragment follows a comma, a sentence a full stop; deeper items too.
    expect(texts('- Use tabs\n  - except in YAML\n- Keep classes small\n  - Under 200 lines\n    - Under 10 methods')).toEqual([
      'Use tabs, except in YAML',
      'Keep classes small. Under 200 lines. Under 10 methods',
    ]);
    expect(texts('- Name things in full, not API, URL, etc.\n  - unless the team agreed otherwise')).toEqual([
      'Name things in full, not API, URL, etc. unless the team agreed otherwise',
    ]);
  });

  it('a nested item that goes on with the sentence above it finishes it, even with words of a rule of its own', () => {
    expect(
      spans(
        '- Every migration must be reversible\n  - except data migrations, which must say so in their docstring.\n- Never use eval.\n  - Use Function only in tests.',
      ),
    ).toEqual([
      [1, 2, 'Every migration must be reversible, except data migrations, which must say so in their docstring.'],
      [3, 3, 'Never use eval.'],
      [4, 4, 'Use Function only in tests.'],
    ]);
  });

  it('a nested label with guidance of its own stands alone', () => {
    const md =
      '1. **Compliance**: All code must pass the checks.\n   * **S1192 (Duplication)**: Extract repeated literals into constants\n';
    expect(spans(md)).toEqual([
      [1, 1, 'Compliance: All code must pass the checks.'],
      [2, 2, 'S1192 (Duplication): Extract repeated literals into constants'],
    ]);
  });

  it('a nested item that is a rule stands alone, and so does every item after it', () => {
    expect(spans('- Use strict TypeScript.\n  - which means no implicit any\n  - Never use `any`.\n  - unknown is fine')).toEqual([
      [1, 2, 'Use strict TypeScript, which means no implicit any'],
      [3, 3, 'Never use any.'],
    ]);
  });

  it('below an item that is no rule, a command, a link or a label, the nested items are read as before', () => {
    expect(texts('- The app uses Next.js\n  - Never import from `pages/`.')).toEqual(['Never import from pages/.']);
    expect(spans('- Always run the checks before pushing.\n  - `npm test`\n  - [Guide](docs/guide.md)')).toEqual([
      [1, 1, 'Always run the checks before pushing.'],
    ]);
    expect(reasons('- Always run the checks before pushing.\n  - `npm test`\n  - [Guide](docs/guide.md)')).toEqual([
      [2, 2, 'command'],
      [3, 3, 'link'],
    ]);
  });
});

describe('splitInstructions: an item that labels the items nested below it', () => {
  const taken = (md: string) => splitInstructions(md).candidates.map((c) => [c.line, c.text, c.tags]);

  it('heads them as a heading does: left out as a heading, its tag on each rule below it, for its nesting only', () => {
    const md = '# Guide\n\n- Testing:\n  - Always write tests\n  - Use vitest\n- **Style**\n  - 2-space indentation\n- Keep PRs small.';
    expect(taken(md)).toEqual([
      [4, 'Always write tests', ['testing']],
      [5, 'Use vitest', ['testing']],
      // A label that names rules makes a bare phrase below it a convention, as a heading of rules does.
      [7, '2-space indentation', ['style']],
      [8, 'Keep PRs small.', []],
    ]);
    expect(reasons(md)).toEqual([
      [1, 1, 'heading'],
      [3, 3, 'heading'],
      [6, 6, 'heading'],
    ]);
  });

  it('a short sentence ending in a full stop over nested items is a rule of its own, not their label', () => {
    const md = '# Rules\n\n- Strict mode on.\n  - No any.\n  - No implicit returns.\n- Testing:\n  - Always write tests\n  - Use vitest\n';
    expect(taken(md)).toEqual([
      [3, 'Strict mode on.', []],
      [4, 'No any.', []],
      [5, 'No implicit returns.', []],
      [7, 'Always write tests', ['testing']],
      [8, 'Use vitest', ['testing']],
    ]);
    expect(reasons(md)).toEqual([
      [1, 1, 'heading'],
      [6, 6, 'heading'],
    ]);
  });

  it('the nearest label decides whether bare phrases are conventions; a heading or a paragraph ends it', () => {
    const md = '## Code style\n\n- Examples:\n  - foo_bar\n\nSome words.\n\n- single quotes';
    expect(taken(md)).toEqual([[8, 'single quotes', ['code-style']]]);
    expect(reasons(md)).toContainEqual([4, 4, 'description']);
    // Two labels deep: the nearest two tags.
    expect(taken('- Frontend\n  - Testing\n    - Use Playwright for end-to-end tests')).toEqual([
      [3, 'Use Playwright for end-to-end tests', ['frontend', 'testing']],
    ]);
  });

  it("a label that names a topic passes the heading's judgement on: under a heading of rules, its bare phrases are conventions", () => {
    const md =
      '## Coding standards\n\n- **React**\n  * Function components only\n  * Hooks:\n    1. Custom hooks start with `use`.\n' +
      '- Commands:\n  - the usual scripts\n- Except for well-known abbreviations:\n  - err for errors\n\n## Stack\n\n- **React**\n  - Next.js 15\n';
    expect(texts(md)).toEqual(['Function components only', 'Custom hooks start with use.']);
  });

  it('the nearest heading that names rules or what the project has decides: a tech stack under a title of conventions describes', () => {
    const md = '## Project Conventions\n\n### Tech Stack\n\n- **Backend**: Go 1.25, Gin\n\n### Naming\n\n- camelCase for variables\n';
    expect(texts(md)).toEqual(['camelCase for variables']);
    expect(reasons(md)).toContainEqual([5, 5, 'description']);
    expect(texts('# Copilot Instructions\n\n## Core Concepts\n\n- **CQRS**: Command/Query separation via MediatR\n')).toEqual([]);
    // A title that calls the file instructions says what every agent's file is: it speaks for the phrases right below
    // it, not for a section of its own; a title of rules speaks for its sections too.
    expect(texts('# Copilot Instructions\n\n## Gotchas\n\n- Debug adapter is a separate process\n')).toEqual([]);
    expect(texts('# Copilot Instructions\n\n- 2-space indentation\n')).toEqual(['2-space indentation']);
    expect(texts('# Go Rules\n\n## Concurrency\n\n- WaitGroup for goroutine groups\n')).toEqual(['WaitGroup for goroutine groups']);
    // What the project's people do, or what it offers, is described under its heading, whatever heads it.
    expect(texts('# Coding Standards\n\n## Common Tasks\n\n- Updating Copilot configurations\n- Run the tests first\n')).toEqual([
      'Run the tests first',
    ]);
    expect(texts('# Coding Standards\n\n## Features\n\n- Offline sync of notes\n')).toEqual([]);
  });

  it('is no label when it states a rule, carries its own text after a colon, or is code or a link', () => {
    expect(texts('- Avoid nesting blocks by:\n  - returning early\n  - extracting functions')).toEqual([
      'Avoid nesting blocks by: returning early; extracting functions.',
    ]);
    expect(texts('- Error handling: Use Result types\n  - Never throw strings')).toEqual([
      'Error handling: Use Result types',
      'Never throw strings',
    ]);
    expect(reasons('- `npm test`\n  - runs the unit tests')[0]).toEqual([1, 1, 'command']);
  });

  it('a caption that states a rule over a fence of one command is a rule that ends with its command', () => {
    const md =
      '1. Always run the linter before committing:\n   ```sh\n   npm run lint\n   ```\n\nMake sure the tests pass:\n\n```\ngo test -race ./...\n```\n';
    expect(splitInstructions(md).candidates.map((c) => [c.line, c.end_line, c.whole, c.text])).toEqual([
      [1, 1, false, 'Always run the linter before committing: npm run lint'],
      [6, 6, false, 'Make sure the tests pass: go test -race ./...'],
    ]);
    // A caption that states none, one over more than one line of code, or over an empty fence: left out, as before.
    expect(texts('Run the linter:\n```\nnpm run lint\n```\n')).toEqual([]);
    // An imperative that says when it is run is a rule too.
    expect(texts('- Run the type checks after moving files:\n  ```sh\n  pnpm lint\n  ```\n')).toEqual([
      'Run the type checks after moving files: pnpm lint',
    ]);
    expect(texts('Always set these:\n```\nA=1\nB=2\n```\n')).toEqual([]);
    expect(texts('Always run this:\n```\n```\n```\n')).toEqual([]);
  });

  it('a caption of keeping to what a longer block shows is a rule of its own, its line and the block kept', () => {
    const md = '- Maintain the established directory structure:\n\n```\nsrc/\n  core/\n  cli/\n```\n';
    expect(splitInstructions(md).candidates.map((c) => [c.line, c.end_line, c.whole, c.text])).toEqual([
      [1, 1, false, 'Maintain the established directory structure.'],
    ]);
    expect(reasons(md)).toEqual([[3, 7, 'code-block']]);
    // One that points at the block says nothing without it, and one of running what it holds is a caption.
    expect(texts('Use this layout:\n\n```\na/\nb/\n```\n\nBuild the project:\n\n```\nnpm ci\nnpm run build\n```\n')).toEqual([]);
  });

  it('a lead-in that states no rule over short rules of their own is left out, and each rule is taken', () => {
    const item = '- The API layer has a few constraints:\n  - Validate every input.\n  - Never return stack traces.\n';
    expect(texts(item)).toEqual(['Validate every input.', 'Never return stack traces.']);
    expect(reasons(item)).toEqual([[1, 1, 'heading']]);
    const paragraph = 'The API layer has a few constraints:\n\n- Validate every input.\n- Never return stack traces.\n';
    expect(texts(paragraph)).toEqual(['Validate every input.', 'Never return stack traces.']);
    // Under don'ts, the lead-in passes the heading's way on, as a label does.
    expect(texts("## Don'ts\n\n- What the API layer has learnt the hard way:\n  - Return stack traces.\n")).toEqual([
      "Don't: Return stack traces.",
    ]);
    // One that says when they apply is taken with each; one whose items are fragments is no rule with them either.
    expect(texts('- When you add a new endpoint to the API:\n  - Write a test.\n  - Update the docs.')).toEqual([
      'When you add a new endpoint to the API: Write a test.',
      'When you add a new endpoint to the API: Update the docs.',
    ]);
    expect(texts('- The API layer validates with:\n  - zod schemas\n  - custom guards')).toEqual([]);
    // Items of which only some are rules: those are taken, each, and the others left out as what they are.
    const mixed = '- When raw SQL is unavoidable, mind the dialects:\n  - PostgreSQL quotes with ".\n  - Use `trueVal` for booleans.\n';
    expect(texts(mixed)).toEqual(['When raw SQL is unavoidable, mind the dialects: Use trueVal for booleans.']);
    expect(reasons(mixed)).toEqual([
      [1, 1, 'heading'],
      [2, 2, 'description'],
    ]);
  });
});

describe("splitInstructions: the items of a heading, label or caption of don'ts", () => {
  it('takes every item under a "Do Not" heading, bare phrases too, as what not to do', () => {
    expect(
      texts('## Do Not\n\n- Modify CI/CD pipelines without explicit approval\n- Skip tests\n- Database schemas without migrations\n'),
    ).toEqual([
      'Do not: Modify CI/CD pipelines without explicit approval',
      'Do not: Skip tests',
      'Do not: Database schemas without migrations',
    ]);
  });
  it('takes the items under a heading or caption of don\'ts that names its verb with the verb ("Do Not Modify: vendor/")', () => {
    expect(
      texts(
        "## Do Not Modify\n\n- vendor/\n- Never delete tests\n\n**Never edit:**\n- generated files\n\n## Don'ts for agents\n\n- use var\n" +
          '\n## Never Open\n\n- .env files\n',
      ),
    ).toEqual(['Do Not Modify: vendor/', 'Never delete tests', 'Never edit: generated files', "Don't: use var", 'Never Open: .env files']);
  });
  it('takes an item of code under a heading of don\'ts that names its verb as what not to do with it; under a bare "Don\'ts" it is a listing', () => {
    const md = "## Never Run\n\n- `git push --force`\n\n## Do Not Touch\n\n- `dist/`\n\n## Don'ts\n\n- `npm test`\n";
    expect(texts(md)).toEqual(['Never Run: git push --force', 'Do Not Touch: dist/']);
    expect(reasons(md).filter(([, , reason]) => reason === 'command')).toEqual([[11, 11, 'command']]);
  });
  it('an item whose later sentence names the alternative is still a prohibition: the first sentence is what not to do', () => {
    expect(texts("### Don't\n\n- Use print for logging. Use the `logging` module instead.\n- Use `logging` instead.\n")).toEqual([
      "Don't: Use print for logging. Use the logging module instead.",
      'Use logging instead.',
    ]);
  });

  it("a caption heads its own list only: a list of another marker after it is not the caption's", () => {
    // A bullet and a numbered list, or two bullets or delimiters, are two lists, as CommonMark reads them.
    expect(texts("**Don't:**\n- use var\n\n1) Use the logger.\n")).toEqual(["Don't: use var", 'Use the logger.']);
    expect(texts("**Don't:**\n- use var\n* use eval\n\n- use with\n")).toEqual(["Don't: use var", 'use eval', 'use with']);
    expect(texts('Avoid:\n- var\n\n1. Use the logger.\n')).toEqual(['Avoid: var.', 'Use the logger.']);
    // A paragraph after a blank line is no item's continuation.
    expect(texts('Avoid:\n- var\n\nUse the logger.\n')).toEqual(['Avoid: var.', 'Use the logger.']);
    // The same list goes on past a blank line and nested items of any marker.
    expect(texts("**Don't:**\n- use var\n  1. nor let\n\n- use eval\n")).toEqual(["Don't: use var, nor let", "Don't: use eval"]);
    expect(texts('Avoid:\n- var\n  1. let\n\n- eval\n  continued\n')).toEqual(['Avoid: var; let; eval continued.']);
  });

  it('a code block, table, comment or break at the margin ends the list, and the reach of its caption or label', () => {
    for (const block of ['```sh\nnpm test\n```', '| a | b |\n|---|---|\n| 1 | 2 |', '<!-- note -->', '---'])
      expect(texts(`**Don't:**\n- use var\n\n${block}\n\n- Use the logger.\n`), block).toEqual(["Don't: use var", 'Use the logger.']);
    const md = "## Notes\n\n- Don'ts:\n  - use var\n\n```sh\nnpm test\n```\n\n  - Use the logger.\n";
    expect(splitInstructions(md).candidates.map((c) => [c.text, c.tags])).toEqual([
      ["Don't: use var", ['notes']],
      ['Use the logger.', ['notes']],
    ]);
    // A fence inside an item is the item's.
    expect(texts("**Don't:**\n- use var\n\n  ```sh\n  npm test\n  ```\n\n- use eval\n")).toEqual(["Don't: use var", "Don't: use eval"]);
  });

  it('a short caption that is no rule heads its list, colon or not: its rules are taken, never turned around', () => {
    expect(texts("Don'ts:\n- use var\n- use any\n\n**Don'ts**\n- use eval\n\nDo's\n- use const\n")).toEqual([
      "Don't: use var",
      "Don't: use any",
      "Don't: use eval",
      'use const',
    ]);
    expect(texts('Style:\n- use tabs\n- never push to main\n')).toEqual(['use tabs', 'never push to main']);
    // One that is a rule is finished by its items, as before.
    expect(texts('Avoid:\n- var\n- eval\n')).toEqual(['Avoid: var; eval.']);
  });

  it("a sentence of a way's word over a list is a rule of its own, and its items are read as they are", () => {
    expect(texts('## Security\n\nNever commit secrets.\n\n- Rotate keys after a leak.\n')).toEqual([
      'Never commit secrets.',
      'Rotate keys after a leak.',
    ]);
    // Without its full stop it heads the list, as "Never" over don'ts does.
    expect(texts('Never commit\n- secrets\n')).toEqual(['Never commit: secrets']);
  });

  it('under a heading of what gets a change rejected, each is not allowed', () => {
    expect(texts('## Things that will get your PR rejected\n\n- Committing generated files\n- Never disable tests.\n')).toEqual([
      'Not allowed: Committing generated files',
      'Never disable tests.',
    ]);
  });

  it('are taken as prohibitions, never as the opposite of what the file says', () => {
    const md = [
      '## Conventions',
      '**Do:**',
      '- use early returns',
      '',
      "**Don't:**",
      '- use default exports',
      '',
      "### Don'ts",
      '- mutate props',
      '- Never use var',
      '## Anti-patterns',
      '- Catching errors silently',
      "## Do's and Don'ts",
      "- Don't use var",
      '- Do use const',
      '- Avoid:',
      '  - global state',
      '  - singletons that hold requests',
    ].join('\n');
    expect(texts(md)).toEqual([
      'use early returns',
      "Don't: use default exports",
      "Don't: mutate props",
      // A rule that prohibits already is taken as it is.
      'Never use var',
      'Avoid: Catching errors silently',
      // A heading of both leaves each item its own polarity.
      "Don't use var",
      'Do use const',
      'Avoid: global state',
      'Avoid: singletons that hold requests',
    ]);
    // A heading or label that only says which way its rules go gives no tag.
    const tagsOf = (text: string) => splitInstructions(md).candidates.find((c) => c.text === text)?.tags;
    expect([tagsOf("Don't: use default exports"), tagsOf("Don't: mutate props"), tagsOf('use early returns')]).toEqual([
      ['conventions'],
      ['conventions'],
      ['conventions'],
    ]);
    // However long the list below "Never:" is.
    const long = `- Never:\n${Array.from({ length: 12 }, (_, n) => `  - call service ${n} directly`).join('\n')}`;
    expect(texts(long)).toHaveLength(12);
    expect(texts(long).every((t) => t.startsWith('Never: call service'))).toBe(true);
  });

  it('a heading that says it in a phrase, or after its number, heads prohibitions too', () => {
    const md = [
      '### What Agents Should NOT Do',
      '- Run `dolly` application commands',
      '## 9. What not to do',
      '- put business logic in routers',
      '## Things to avoid',
      '- global state',
      "## 3. Don'ts",
      '- mutate props',
      '## MUST NOT',
      '- commit secrets',
      '## What to do',
      '- Use const',
    ].join('\n');
    expect(texts(md)).toEqual([
      "Don't: Run dolly application commands",
      "Don't: put business logic in routers",
      'Avoid: global state',
      "Don't: mutate props",
      'Must not: commit secrets',
      'Use const',
    ]);
  });

  it("answers to the item it is nested in, not to the heading; a label between them passes the heading's way on", () => {
    const md = [
      "### Don'ts",
      "1. **Don't create huge tickets**",
      '   - Break large work into smaller pieces',
      '2. Use Markdown in tickets',
      '- **Custom colors**: Stick to the palette',
      '- Use const instead',
      '- Frontend:',
      '  - use jQuery',
      '- Do:',
      '  - use const',
      '## Never',
      '### Backend',
      '- call the database from handlers',
    ].join('\n');
    expect(texts(md)).toEqual([
      "Don't create huge tickets",
      // The remedy below a prohibition is no prohibition.
      'Break large work into smaller pieces',
      "Don't: Use Markdown in tickets",
      // A label and the guidance after it say which way themselves.
      'Custom colors: Stick to the palette',
      // The alternative a list of don'ts names is no prohibition either.
      'Use const instead',
      "Don't: use jQuery",
      'Do: use const.',
      'Never: call the database from handlers',
    ]);
  });

  it("a rule that opens with the way it goes (Always, Must, Make sure) is taken as it is under don'ts; a ❌ still negates it", () => {
    const md = [
      "## Don'ts",
      '- use default exports',
      '- Always ask before deleting files.',
      '- Make sure the build is green before merging.',
      '- ❌ Always use any',
      '- Always-on debug logging',
      '',
      'Always write tests for new features. Keep functions small.',
    ].join('\n');
    expect(texts(md)).toEqual([
      "Don't: use default exports",
      'Always ask before deleting files.',
      'Make sure the build is green before merging.',
      "Don't: Always use any",
      "Don't: Always-on debug logging",
      'Always write tests for new features. Keep functions small.',
    ]);
  });

  it('lines that each start with ✅ or ❌ (hard line breaks, no list) are rules one by one', () => {
    const md =
      "### Don'ts\n\n❌ Mix shadow styles  \n✗ **No bold or italic.** Weight is always 400.\\\n✅ Use tokens\n\nA paragraph ✅ with a mark inside.";
    expect(splitInstructions(md).candidates.map((c) => [c.line, c.text])).toEqual([
      [3, "Don't: Mix shadow styles"],
      [4, 'No bold or italic. Weight is always 400.'],
      [5, 'Use tokens'],
    ]);
    expect(reasons(md)).toContainEqual([7, 7, 'description']);
  });

  it('a ✅ or ❌ before an item says which way it goes, under any heading; whether it is a rule, its words say', () => {
    // "Advantages" names no rules: a marked item there is a rule only by its words.
    const advantages = '## Advantages\n\n- ✅ **Simplicity**: Just JSON files\n- ❌ var\n- ✅ Keep it simple';
    expect(texts(advantages)).toEqual(['Keep it simple']);
    expect(reasons(advantages)).toEqual([
      [1, 1, 'heading'],
      [3, 3, 'description'],
      [4, 4, 'description'],
    ]);
    const md =
      "## Notes\n\n- ✅ Use const\n- ❌ Use var\n- ❌ Don't mutate props\n- 🚫 Default exports\n- ✅\n\n### Don'ts\n\n- ✔️ Named exports";
    expect(texts(md)).toEqual(['Use const', "Don't: Use var", "Don't mutate props", "Don't: Default exports", 'Named exports']);
    expect(reasons(md)).toContainEqual([7, 7, 'description']);
  });
});

describe('splitInstructions: blocks that are never rules, with their lines', () => {
  it('fenced and indented code, tables, headings, comments', () => {
    const md = [
      '# Title', // 1
      '', // 2
      '```bash', // 3
      '- Never run this', // 4
      '```', // 5
      '', // 6
      '| a | b |', // 7
      '|---|---|', // 8
      '| x | y |', // 9
      '', // 10
      '    indented code', // 11
      '', // 12
      '<!-- a note -->', // 13
      '- Use tabs.', // 14
    ].join('\n');
    expect(reasons(md)).toEqual([
      [1, 1, 'heading'],
      [3, 5, 'code-block'],
      [7, 9, 'table'],
      [11, 11, 'code-block'],
      [13, 13, 'comment'],
    ]);
    expect(splitInstructions(md).candidates).toEqual([{ text: 'Use tabs.', line: 14, end_line: 14, whole: true, tags: [] }]);
  });

  it('a comment closed on its line with text after it leaves that text to read', () => {
    expect(texts('<!-- note --> Never use eval.\n')).toEqual(['Never use eval.']);
    expect(reasons('<!-- one --> <!-- two -->\n- Use tabs.\n')).toEqual([[1, 1, 'comment']]);
  });

  it('skips the block agents export wrote, whatever it holds', () => {
    const md = `- Keep this.\n<!-- agents:begin sha256:${'a'.repeat(64)} -->\n- Never delete data.\n<!-- agents:end -->\n`;
    expect(texts(md)).toEqual(['Keep this.']);
    expect(reasons(md)).toEqual([[2, 4, 'export-block']]);
  });

  it('a rule that links somewhere its text does not say, or holds a comment, is not all its lines say: --replace leaves them', () => {
    const whole = (md: string) => splitInstructions(md).candidates.map((c) => [c.text, c.whole]);
    expect(whole('- Follow [the style guide](docs/style.md).\n- Use [tabs](#tabs) ![x](i.png).\n- Use tabs.\n')).toEqual([
      ['Follow the style guide.', false],
      ['Use tabs x.', false],
      ['Use tabs.', true],
    ]);
    // A reference link says where in its definition, which stays: so does its line.
    expect(whole('- Follow [the style guide][style].\n- Use [tabs][].\n\n[style]: docs/style.md\n[tabs]: #tabs\n')).toEqual([
      ['Follow the style guide.', false],
      ['Use tabs.', false],
    ]);
    // A footnote's mark goes from the text, and its line stays with the note it cites; the note is no rule.
    const notes =
      '- Do not import from `internal/`.[^1]\n- Use tabs[^tabs] always.\n\n[^1]: Never unless you own it.\n[^tabs]: Not in YAML.\n';
    expect(whole(notes)).toEqual([
      ['Do not import from internal/.', false],
      ['Use tabs always.', false],
    ]);
    expect(reasons(notes)).toEqual([[4, 5, 'description']]);
    // A comment goes from the text, and its line stays: it is a note to the file's editors.
    expect(whole('- Use tabs. <!-- keep in step with .editorconfig -->\n- Write comments as `<!-- x -->`.\n')).toEqual([
      ['Use tabs.', false],
      ['Write comments as <!-- x -->.', true],
    ]);
    // A link shown as code, or one whose words are its address, loses nothing.
    expect(whole('- Write links as `[text](url)` or `[text][ref]`.\n- Read [https://x.dev](https://x.dev) first.\n')).toEqual([
      ['Write links as [text](url) or [text][ref].', true],
      ['Read https://x.dev first.', true],
    ]);
  });

  it('a link that labels its item keeps its target in the rule: it is what to read, and --replace takes the line', () => {
    const whole = (md: string) => splitInstructions(md).candidates.map((c) => [c.text, c.whole]);
    expect(
      whole(
        '- [Docs](https://example.com/docs): read before starting\n- **[Contributing](CONTRIBUTING.md)**: follow it for every PR\n' +
          '- **[Guide](docs/guide.md):** read it first\n- [Docs](https://a.dev/x_y_z): read before starting\n' +
          '- [Docs](<https://a.dev> "The docs"): read before starting\n',
      ),
    ).toEqual([
      ['Docs (https://example.com/docs): read before starting', true],
      ['Contributing (CONTRIBUTING.md): follow it for every PR', true],
      ['Guide (docs/guide.md): read it first', true],
      ['Docs (https://a.dev/x_y_z): read before starting', true],
      // Its title, which the rule does not say, keeps the line.
      ['Docs (https://a.dev): read before starting', false],
    ]);
    // A label whose words are its address reads as the others do: its scheme's colon does not end the label.
    expect(whole('- [https://x.dev](https://x.dev): read it first\n- **[http://x.dev/a](http://x.dev/a)**: read it first\n')).toEqual([
      ['https://x.dev: read it first', true],
      ['http://x.dev/a: read it first', true],
    ]);
    // A link within the sentence keeps its words, its line staying with where it leads; a link alone is no rule.
    expect(whole('- Read [the guide](docs/guide.md): every section.\n')).toEqual([['Read the guide: every section.', false]]);
    expect(reasons('- [Docs](https://example.com/docs)\n')).toEqual([[1, 1, 'link']]);
  });

  it('a begin marker whose end line is gone is one line left out: the rules below it are read', () => {
    const md = `- Keep this.\n<!-- agents:begin sha256:${'a'.repeat(64)} -->\n- Never delete data.\n\n## Mine\n\n- Use tabs.\n`;
    expect(texts(md)).toEqual(['Keep this.', 'Never delete data.', 'Use tabs.']);
    expect(reasons(md)).toEqual([
      [2, 2, 'export-block'],
      [5, 5, 'heading'],
    ]);
    expect(reasons(`<!-- agents:begin sha256:${'a'.repeat(64)} -->`)).toEqual([[1, 1, 'export-block']]);
  });

  it('excerpts a left-out block as its lines folded and joined, cut at 77 characters, however long its lines', () => {
    // The excerpt folds no more of a line than it shows: the result must be that of folding every line whole.
    const whole = (lines: string[]) => {
      const t = lines
        .map((l) => l.replace(/\s+/g, ' ').trim())
        .filter((l) => l !== '')
        .join(' ');
      return t.length > 80 ? `${t.slice(0, 77)}…` : t;
    };
    const cases = [
      ['```', `x${' \t'.repeat(300)}y ${'word '.repeat(200)}`, '```'],
      ['```', `${' '.repeat(500)}a`, `b${'\u00a0'.repeat(100)}c ${'z'.repeat(120)}`, '```'],
      ['```', 'short', `${'  wide'.repeat(40)}`, '```'],
      ['```', `${'a'.repeat(40)}${' '.repeat(90)}${'b'.repeat(10)}`, 'c', '```'],
      ['```', `${'é😀 '.repeat(60)}`, '```'],
      // Its start folds to just under what the excerpt shows: the rest of the line must still come before the next line.
      ['```', `${'a'.repeat(40)}${' '.repeat(43)}${'b'.repeat(138)}`, 'next', '```'],
      [`    ${'a'.repeat(40)}${' '.repeat(40)}${'b'.repeat(140)}`],
    ];
    for (const lines of cases) {
      const [left] = splitInstructions(`${lines.join('\n')}\n`).leftOut;
      expect(left?.reason).toBe('code-block');
      expect(left?.excerpt).toBe(whole(lines));
    }
  });

  it('reads front matter apart and counts lines in the whole file', () => {
    const r = splitInstructions('---\nglobs: src/**\n---\n- Use zod.\r\n');
    expect(r.frontMatter).toBe('globs: src/**');
    expect(r.bodyLine).toBe(4);
    expect(r.candidates).toEqual([{ text: 'Use zod.', line: 4, end_line: 4, whole: true, tags: [] }]);
  });
});

describe('a rule quoted with who said it', () => {
  const md = [
    '# Rules',
    '',
    '- "Always write tests," says the lead.',
    '- \u201cNever push to main,\u201d the CTO said.',
    '- As the lead says: "Keep PRs small."',
    '- "Run `pnpm lint` before you push." \u2014 Ana',
    '- "npm test" must pass, as lead says.',
    '- "Hello," says the lead.',
  ].join('\n');

  it('is the quoted rule without the attribution, its line kept by --replace; a quote of no rule is left out', () => {
    const r = splitInstructions(md);
    expect(r.candidates.map((c) => [c.text, c.whole])).toEqual([
      ['Always write tests.', false],
      ['Never push to main.', false],
      ['Keep PRs small.', false],
      ['Run pnpm lint before you push.', false],
      ['"npm test" must pass, as lead says.', true],
    ]);
    expect(reasons(md)).toContainEqual([8, 8, 'description']);
  });
});

describe('headings become tags', () => {
  it('below the title, nearest two, setext headings too', () => {
    const md = '# Project\n## Backend\n### Error handling\n- Never swallow errors.\n\nTesting\n-------\n- Mock nothing.';
    const r = splitInstructions(md).candidates;
    expect(r.map((c) => c.tags)).toEqual([['backend', 'error-handling'], ['testing']]);
  });

  it('a heading said twice gives its tag once', () => {
    expect(splitInstructions('## Testing\n### Testing\n- Mock nothing.').candidates[0]!.tags).toEqual(['testing']);
  });

  it.each([
    ['Code Style & Conventions', 'code-style-conventions'],
    ['Déploiement', 'deploiement'],
    ['  ', ''],
  ])('%s → %s', (heading, tag) => expect(tagOf(heading)).toBe(tag));
});

describe('splitInstructions on lines made to be slow', () => {
  // Each cost the square of its length (or more) when an inline expression ran past the next opening of its kind (or
  // split white space two ways per command): the events are let in between, so the test's timeout ends such a run.
  it('reads a line of a hundred thousand unclosed openings or labels, or of forty commands, in one pass', async () => {
    const lines = [
      '[x]('.repeat(100_000),
      `${'['.repeat(100_000)}](`,
      ' *a'.repeat(100_000),
      '__a '.repeat(100_000),
      '<http:'.repeat(100_000),
      `- Supported languages: ${'`go`, '.repeat(40)}and a few more.`,
      `- Tools: ${'`x`          '.repeat(40)}!`,
      // A label before a label, a hundred thousand deep: read in a loop, not a call per label (the stack overflowed).
      `- ${'ab: '.repeat(150_000)}use it`,
      // A heading with a long run of blanks (or marks) inside its text.
      `# x${' '.repeat(300_000)}y`,
      `## x${'#'.repeat(300_000)}y`,
    ];
    for (const md of lines) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(texts(md)).toEqual([]);
    }
    // Its closing marks are still no part of a heading's text.
    expect(splitInstructions('## Code style ##\n- 2-space indentation\n').candidates[0]?.tags).toEqual(['code-style']);
  });

  it('strong emphasis that holds one of its marks is still emphasis', () => {
    expect(plain('Use **a*b** and __snake_case__ here')).toBe('Use a*b and snake_case here');
  });
});

describe('plain and splitSentences', () => {
  it.each([
    ['`a` and ``b``', 'a and b'],
    ['![img](x.png) [link](y) <b>bold</b>', 'img link bold'],
    ['__strong__ *em* _em_ ~~gone~~ kept', 'strong em em kept'],
    // Struck-out text is taken back: it goes with its marks, as an element of it does.
    ['Use ~~jQuery~~ vanilla JS, <del>not</del> <s>ever</s> <strike>x</strike>fast', 'Use vanilla JS, fast'],
    ['snake_case_names stay', 'snake_case_names stay'],
    // What a code span holds is text: placeholders, dunders, emphasis and links characters inside it stay.
    ['run `pnpm test --filter <project_name>`', 'run pnpm test --filter <project_name>'],
    ['update `__all__` and `a*b*c`, not `[x](y)`', 'update __all__ and a*b*c, not [x](y)'],
    ['**Never use `any`**', 'Never use any'],
    ['`` `code` `` and ``a`b``', '`code` and a`b'],
    ['Use ` ```ts title ` fences', 'Use ```ts title fences'],
    // Only HTML's own tags are markup; any other <…> is what the agent reads.
    [
      'Title: [<project_name>] <Title>, pass --author="AI <ai@example.com>"',
      'Title: [<project_name>] <Title>, pass --author="AI <ai@example.com>"',
    ],
    ['Press <kbd>Ctrl</kbd>+<kbd>C</kbd>.<br/> <details><summary>More</summary></details>', 'Press Ctrl+C. More'],
    ['keep a < b and b > a', 'keep a < b and b > a'],
    // A comment within a line is a note to the file's editors, not to the agent.
    ['Always use tabs <!-- TODO: say why --> in Go files.', 'Always use tabs in Go files.'],
    ['Say `<!-- x -->` for a comment.', 'Say <!-- x --> for a comment.'],
  ])('plain(%j)', (md, want) => expect(plain(md)).toBe(want));

  it('keeps abbreviations whole', () => {
    expect(splitSentences('Use tools, e.g. Biome. Then run it! Done?')).toEqual(['Use tools, e.g. Biome.', 'Then run it!', 'Done?']);
  });
});

describe("splitInstructions: a CLAUDE.md's or GEMINI.md's @path, which its agent reads as that file's text", () => {
  const md = [
    '# Project', // 1
    '', // 2
    'See @README.md for the overview.', // 3
    '', // 4
    '@docs/style.md', // 5
    '', // 6
    '## Rules', // 7
    '', // 8
    '- Read @docs/style.md before editing.', // 9
    '- Never push to main.', // 10
    '- Git workflow @docs/git.md', // 11
    '- @./shared/base.md @./shared/api.md', // 12
    '- Run the tests before pushing, see @docs/testing.md.', // 13
    '- Never edit @src/generated.ts by hand.', // 14
    '- Use @tanstack/query for fetching.', // 15
    '', // 16
    'Read @docs/security.md first. Never log tokens.', // 17
    '', // 18
    'Read these too:', // 19
    '', // 20
    '- @docs/a.md', // 21
    '- @docs/b.md', // 22
    '', // 23
  ].join('\n');

  it('a line that is only @paths, or a sentence that only points at a file to read, is left out as a reference', () => {
    const split = splitInstructions(md, { references: true });
    expect(split.candidates.map((c) => [c.line, c.text, c.whole])).toEqual([
      [10, 'Never push to main.', true],
      // A rule beside a file the agent reads, or about one, whose text names the file: its line goes on --replace, as
      // the block says the rule once, and reads the file in from there.
      [13, 'Run the tests before pushing, see @docs/testing.md.', true],
      [14, 'Never edit @src/generated.ts by hand.', true],
      // A package is no file: the line goes as any rule's.
      [15, 'Use @tanstack/query for fetching.', true],
      [17, 'Never log tokens.', false],
    ]);
    expect(split.leftOut.filter((l) => l.reason !== 'heading').map((l) => [l.line, l.end_line, l.reason])).toEqual([
      [3, 3, 'reference'],
      [5, 5, 'reference'],
      [9, 9, 'reference'],
      [11, 11, 'reference'],
      [12, 12, 'reference'],
      [17, 17, 'reference'],
      [19, 22, 'reference'],
    ]);
  });

  it("a pointer beside an item's rule stays on its line, out of the rule's text; an item of pointers alone is left out", () => {
    const split = splitInstructions('- Never force-push. See @docs/git.md for why.\n- Read @a.md first. See @b.md too.\n', {
      references: true,
    });
    expect(split.candidates.map((c) => [c.line, c.text, c.whole])).toEqual([[1, 'Never force-push.', false]]);
    expect(split.leftOut.map((l) => [l.line, l.reason])).toEqual([[2, 'reference']]);
  });

  it("in another agent's file a sentence naming @path is judged as any other; a line of only @paths is never a rule", () => {
    const split = splitInstructions(md);
    expect(split.candidates.map((c) => c.line)).toEqual([9, 10, 11, 13, 14, 15, 17]);
    expect(split.leftOut.filter((l) => l.reason === 'reference').map((l) => l.line)).toEqual([5, 12, 19]);
  });
});

describe('splitInstructions: links and images that say no rule', () => {
  it('link reference definitions are left out as links, also under a heading of rules and beside a footnote', () => {
    const md =
      '## Rules\n\n- Use [tabs][t].\n\n[t]: docs/style.md#tabs "Tabs"\n[ci]: https://ci.example.com\n\n[home]: https://example.com\n[^1]: A note.\n';
    expect(texts(md)).toEqual(['Use tabs.']);
    expect(reasons(md)).toEqual([
      [1, 1, 'heading'],
      [5, 6, 'link'],
      [8, 9, 'link'],
    ]);
    // Footnotes alone stay what they were: notes of the lines that cite them.
    expect(reasons('- Use tabs.[^1]\n\n[^1]: Not in YAML.\n')).toEqual([[3, 3, 'description']]);
  });

  it('an emoji before a link marks the item, as a bullet does: a link list under any heading', () => {
    const md =
      '## Rules\n\n- 📖 [Architecture](docs/arch.md)\n- ✅ [Checklist](docs/check.md)\n- 🔗 See [the guide](docs/guide.md)\n- :rocket: [Deploy](docs/deploy.md)\n';
    expect(texts(md)).toEqual([]);
    expect(reasons(md).filter((r) => r[2] !== 'heading')).toEqual([
      [3, 3, 'link'],
      [4, 4, 'link'],
      [5, 5, 'link'],
      [6, 6, 'link'],
    ]);
  });

  it("badges on the lines over a paragraph are left out as links, not run into its rule's text", () => {
    const md =
      '[![CI](https://ci/badge.svg)](https://ci) ![cov](https://cov/badge.svg)\n<a href="https://npm"><img src="v.svg"></a>\nNever push to main.\n';
    const split = splitInstructions(md);
    // The rule is all its own line says: --replace takes that line, and leaves the badges.
    expect(split.candidates.map((c) => [c.line, c.end_line, c.text, c.whole])).toEqual([[3, 3, 'Never push to main.', true]]);
    expect(reasons(md)).toEqual([[1, 2, 'link']]);
    // Badges alone, or an image inside a sentence, are as before.
    expect(reasons('![cov](https://cov/badge.svg)\n')).toEqual([[1, 1, 'link']]);
    expect(texts('Use the ![logo](logo.png) logo only on dark backgrounds.\n')).toEqual(['Use the logo logo only on dark backgrounds.']);
  });
});

describe('splitInstructions: a comment opened at the end of an item or a paragraph', () => {
  it('holds what it comments out to its closing line: no rule of its own, and the lines stay on --replace', () => {
    const md = '- Use pnpm. <!--\n  - Use yarn.\n-->\n- Run the tests.\n\nUse tabs. <!-- because\n\nNever use spaces.\n-->\n';
    const split = splitInstructions(md);
    expect(split.candidates.map((c) => [c.line, c.end_line, c.text, c.whole])).toEqual([
      [1, 3, 'Use pnpm.', false],
      [4, 4, 'Run the tests.', true],
      [6, 9, 'Use tabs.', false],
    ]);
    // One no line closes, or one in code, leaves the lines below it as they are.
    expect(texts('- Use pnpm. <!--\n- Run the tests.\n')).toEqual(['Use pnpm. <!--', 'Run the tests.']);
    expect(texts('- Write a comment as `<!--`.\n- Run the tests.\n\n-->\n')).toEqual(['Write a comment as <!--.', 'Run the tests.']);
  });
});

describe('@path lines and comments made to be slow', () => {
  it('reads a line of a hundred thousand references, or fifty thousand items opening a comment none closes, in one pass', async () => {
    await new Promise((resolve) => setImmediate(resolve));
    expect(splitInstructions('@a.md '.repeat(100_000), { references: true }).leftOut.map((l) => l.reason)).toEqual(['reference']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(splitInstructions(`- Read ${'@a.md and '.repeat(50_000)}@b.md first.`, { references: true }).candidates).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(splitInstructions('- Use it. <!--\n'.repeat(50_000)).candidates).toHaveLength(50_000);
  });
});
