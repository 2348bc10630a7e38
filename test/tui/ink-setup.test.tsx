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
