import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { expect, test, vi } from 'vitest';
import { TextInput } from '../../src/tui/TextInput.tsx';
import { useState } from 'react';

// The installed Ink 6 / React 19 / ink-testing-library 4 work together: frames and keystrokes.
test('ink-testing-library renders frames and delivers keys', async () => {
  const submitted: string[] = [];
  function Field() {
    const [v, setV] = useState('');
    return (
      <Text>
        {'> '}
        <TextInput value={v} onChange={setV} onSubmit={(x) => submitted.push(x)} />
      </Text>
    );
  }
  const { lastFrame, stdin, unmount } = render(<Field />);
  expect(lastFrame()).toBe('>');
  stdin.write('ab');
  await vi.waitFor(() => expect(lastFrame()).toBe('> ab'));
  stdin.write('\u007f');
  await vi.waitFor(() => expect(lastFrame()).toBe('> a'));
  stdin.write('c\r');
  await vi.waitFor(() => expect(submitted).toEqual(['ac']));
  unmount();
});

test('Backspace takes the last character as a reader sees it: an accent written apart, a flag, a skin tone', async () => {
  function Field() {
    const [v, setV] = useState('');
    return (
      <Text>
        {'> '}
        <TextInput value={v} onChange={setV} />
      </Text>
    );
  }
  const { lastFrame, stdin, unmount } = render(<Field />);
  for (const [typed, kept] of [
    ['cafe\u0301', 'caf'],
    ['go\u{1F1EF}\u{1F1F5}', 'go'],
    ['ok\u{1F44D}\u{1F3FD}', 'ok'],
  ] as const) {
    stdin.write(typed);
    await vi.waitFor(() => expect(lastFrame()).toBe(`> ${typed}`));
    stdin.write('\u007f');
    await vi.waitFor(() => expect(lastFrame()).toBe(`> ${kept}`));
    stdin.write('\u0015');
    await vi.waitFor(() => expect(lastFrame()).toBe('>'));
  }
  unmount();
});

test('a fitted field shows the leading spaces typed: the value, not the value trimmed', async () => {
  function Field() {
    const [v, setV] = useState('');
    return <TextInput value={v} onChange={setV} fit={{ columns: 20, rows: 2 }} />;
  }
  const { lastFrame, stdin, unmount } = render(<Field />);
  stdin.write('  foo');
  await vi.waitFor(() => expect(lastFrame()).toBe('  foo'));
  unmount();
});
