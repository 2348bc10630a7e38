import { describe, expect, it } from 'vitest';
import { idOf } from '../../src/mcp/line-limit.ts';

describe('idOf: the id of a line refused for its size', () => {
  const head = (id: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"arguments":{"content":"xxx`;
  const tail = (id: string) => `xxx"}},"jsonrpc":"2.0","id":${id}}\n`;

  it('is the number sent, at the head or the tail, fractions and exponents as written', () => {
    for (const id of ['7', '-3', '1.5', '9007199254740991']) {
      expect(idOf(head(id), '')).toBe(Number(id));
      expect(idOf('', tail(id))).toBe(Number(id));
    }
  });

  // Answered under another id, the error would settle a request the client sent under that one, or none.
  it('is null for a number that would not read back as sent, never a part of it or its rounding', () => {
    for (const id of ['12345678901234567', '1e3', '-0', '123456789012345678901234']) {
      expect(idOf(head(id), '')).toBeNull();
      expect(idOf('', tail(id))).toBeNull();
    }
  });

  it('is a string id as sent, escapes read', () => {
    expect(idOf(head('"a\\"b\\u00e9"'), '')).toBe('a"bé');
    expect(idOf('', tail('"r-1"'))).toBe('r-1');
  });
});
