// Lines the TUI cuts to its width keep their "…" and their columns when the text holds wide characters (CJK, emoji):
// Ink's own cut keeps a wide character that crosses the last column but one, and the "…" was clipped off.
import { Box } from 'ink';
import { render } from 'ink-testing-library';
import stringWidth from 'string-width';
import { describe, expect, test } from 'vitest';
import type { ScopedInvariant } from '../../src/core/model.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { AddFeedback } from '../../src/tui/AddFeedback.tsx';
import { Browser } from '../../src/tui/Browser.tsx';
import { Detail, RowLine } from '../../src/tui/browser-parts.tsx';
import { SelectList } from '../../src/tui/SelectList.tsx';
import { fitColumns, plain } from '../../src/tui/plain.ts';
import { extraColumns, terminalWidth } from '../../src/present/terminal-width.ts';
import { G1, exampleStore, frameHas, frameMatches } from './helpers.ts';

// Wide characters at every parity of the cut: after one narrow character, after two, emoji with a modifier.
const TEXTS = [
  'a漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字',
  'ab漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字',
  'x👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽',
  'テキストの中に全角文字と半角文字 mixed テキストの中に全角文字と半角文字',
];
const WIDTHS = [20, 21, 22, 23, 30, 31];

const invariant = (text: string): ScopedInvariant => ({
  id: G1,
  text,
  severity: 'error',
  active: true,
  tags: [],
  scope: { kind: 'global' },
  path: `global/${G1}.yaml`,
  rationale: text,
  created_by: text,
});

function frameLines(element: Parameters<typeof render>[0]): string[] {
  const r = render(element);
  const lines = (r.lastFrame() ?? '').split('\n');
  r.unmount();
  return lines;
}

describe('wide text in the TUI', () => {
  test('fitColumns cuts to the columns and ends a cut with "…"', () => {
    for (const text of TEXTS)
      for (const width of WIDTHS) {
        const cut = fitColumns(text, width);
        expect(terminalWidth(cut)).toBeLessThanOrEqual(width);
        expect(cut.endsWith('…')).toBe(true);
        expect(text.startsWith(cut.slice(0, -1))).toBe(true);
        // Short of the width by less than the character that did not fit: 2 columns, 4 for an emoji with a skin tone.
        expect(width - terminalWidth(cut)).toBeLessThanOrEqual(text.includes('🏽') ? 3 : 1);
      }
    expect(fitColumns('short', 10)).toBe('short');
  });

  test('a list row keeps its "…" and its id column', () => {
    for (const text of TEXTS)
      for (const width of WIDTHS) {
        const [line = ''] = frameLines(
          <RowLine
            row={{ kind: 'item', invariant: invariant(text) }}
            selected={false}
            width={width}
            short={(id) => id.slice(0, 4)}
            idWidth={4}
          />,
        );
        expect(line.endsWith(` ${G1.slice(0, 4)}`), line).toBe(true);
        expect(stringWidth(line), line).toBe(width);
        expect(line.trimEnd().slice(0, -5).trimEnd().endsWith('…'), line).toBe(true);
      }
  });

  test('the detail pane and a select list keep their "…"', () => {
    for (const text of TEXTS)
      for (const width of WIDTHS) {
        const detail = frameLines(<Detail row={{ kind: 'item', invariant: invariant(text) }} height={12} width={width} />);
        for (const prefix of ['rationale: ', 'created ']) {
          const line = detail.find((l) => l.startsWith(prefix)) ?? '';
          expect(line.trimEnd().endsWith('…'), `${prefix}: ${line}`).toBe(true);
          expect(stringWidth(line)).toBeLessThanOrEqual(width);
        }
        const [row = ''] = frameLines(
          <SelectList items={[{ label: 'plan 01M8', value: 1, hint: text }]} onSelect={() => {}} width={width} />,
        );
        expect(row.trimEnd().endsWith('…'), row).toBe(true);
        expect(stringWidth(row)).toBeLessThanOrEqual(width);
      }
  });

  test('the browser\'s filter line keeps its "…"', async () => {
    // Both parities of the cut: the wide characters start after two narrow ones.
    for (const width of [30, 31]) {
      const r = render(
        <Browser service={new InvariantService(exampleStore())} size={{ columns: width, rows: 20 }} onQuit={() => {}} onError={() => {}} />,
      );
      await frameHas(r.lastFrame, '6 shown');
      r.stdin.write('/');
      await frameHas(r.lastFrame, '/');
      r.stdin.write(TEXTS[0]!);
      await frameHas(r.lastFrame, '0 shown');
      r.stdin.write('\r');
      const frame = await frameHas(r.lastFrame, '/a漢字');
      const line = frame.split('\n').find((l) => l.startsWith('/a漢字')) ?? '';
      expect(line.trimEnd().endsWith('…'), `${width}: ${line}`).toBe(true);
      expect(stringWidth(line)).toBeLessThanOrEqual(width);
      r.unmount();
    }
  });

  test('the add form\'s "nearly repeats" line keeps its "…"', () => {
    // Wide enough that the cut falls in the quoted text, past the id.
    for (const text of TEXTS)
      for (const width of [60, 61, 62, 63]) {
        const near = [{ invariant: invariant(text), kind: 'punctuation' as const }];
        // In a box of the form's width, as AddForm draws it.
        const lines = frameLines(
          <Box width={width}>
            <AddFeedback check={{ shadows: [], shadowedBy: [] }} text="x" near={near} width={width} />
          </Box>,
        );
        const line = lines.find((l) => l.startsWith('≈')) ?? '';
        expect(line.trimEnd().endsWith('…'), `${width}: ${line}`).toBe(true);
        expect(stringWidth(line)).toBeLessThanOrEqual(width);
      }
  });
});

describe('terminalWidth: the columns a terminal draws', () => {
  // As tmux draws them (its cursor after each): each character of a grapheme in its own columns.
  test.each([
    ['👍', 2],
    ['👍🏽', 4],
    ['x👍🏽y', 6],
    ['👍🏽👍🏽', 8],
    ['🏽', 2],
    ['✍🏽', 3],
    ['中文', 4],
    ['e\u0301', 1],
    ['🇫🇷', 2],
    ['שלום', 4],
    ['ไทย', 3],
    ['กำ', 2],
    ['ทำงาน', 5],
    ['ก่', 1],
    ['क्षि', 3],
    ['நி', 2],
    ['\u3164', 2],
    // Styled, as Ink measures a row: the escape sequences take no column.
    ['\u001b[7m👍🏽\u001b[27m', 4],
  ])('%j takes %i columns', (text, columns) => {
    expect(terminalWidth(text)).toBe(columns);
  });

  test('a ZWJ sequence reaches the terminal with its joiners escaped, each emoji counted apart, a skin tone too', () => {
    expect(terminalWidth(plain('👨\u200d👩\u200d👧'))).toBe(2 + 6 + 2 + 6 + 2);
    expect(terminalWidth(plain('🧑🏽\u200d💻'))).toBe(4 + 6 + 2);
  });

  test('adds nothing to text string-width counts as terminals draw it', () => {
    expect(extraColumns('plain ASCII, Latin é, 漢字, 👍, 🇫🇷 and ❤️')).toBe(0);
  });

  test('fitColumns cuts a text with skin tones to what the terminal draws', () => {
    expect(fitColumns('ok 👍🏽 done', 8)).toBe('ok 👍🏽…');
    expect(terminalWidth(fitColumns('ok 👍🏽 done', 7))).toBeLessThanOrEqual(7);
  });
});

describe('a field of wide characters', () => {
  test("fills the add form's text rows exactly: no row outgrows the form, the cursor's cell counted with the text", async () => {
    const { AddForm } = await import('../../src/tui/AddForm.tsx');
    const service = new InvariantService(exampleStore());
    for (const width of [39, 40]) {
      const r = render(
        <AddForm service={service} scope={{ kind: 'global' }} width={width} rows={12} onDone={() => {}} onCancel={() => {}} />,
      );
      await frameHas(r.lastFrame, 'Text:');
      r.stdin.write('日'.repeat(14));
      await frameHas(r.lastFrame, '日'.repeat(14));
      // Every length from one row of the field to past two: the text exactly filling its rows among them.
      for (let n = 15; n <= 40; n++) {
        r.stdin.write('日');
        // The frame with the n-th character: all n of them, or the field's end after "…".
        const frame = await frameMatches(r.lastFrame, (f) =>
          expect(f.includes('…') || [...f].filter((c) => c === '日').length === n).toBe(true),
        );
        for (const line of frame.split('\n')) expect(terminalWidth(line), `${width} columns, ${n}: ${line}`).toBeLessThanOrEqual(width);
      }
      r.unmount();
    }
  });
});

describe("the add form's confirmation on a short terminal", () => {
  test('an answer cut to one row keeps its start beside its label, a text without spaces too', async () => {
    const { AddSummary } = await import('../../src/tui/AddSummary.tsx');
    const reason = '理由はとても長いです理由はとても長いです';
    const lines = frameLines(
      <AddSummary
        text={TEXTS[3]!}
        scope={{ kind: 'global' }}
        severity="error"
        tags={[]}
        rationale={reason}
        guard={{}}
        editing={undefined}
        active
        check={{ shadows: [], shadowedBy: [] }}
        near={[]}
        incomplete={undefined}
        inheritedMissing={undefined}
        saving={false}
        width={40}
        rows={9}
      />,
    );
    expect(
      lines.find((l) => l.startsWith('text')),
      lines.join('\n'),
    ).toMatch(/^text {6}テキスト.*…$/);
    expect(
      lines.find((l) => l.startsWith('rationale')),
      lines.join('\n'),
    ).toMatch(/^rationale 理由は.*…$/);
    for (const line of lines) expect(terminalWidth(line)).toBeLessThanOrEqual(40);
  });
});
