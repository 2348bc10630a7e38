// Codex CLI's config.toml switching its hooks off (src/core/codex-features.ts), in every form TOML writes it.
import { describe, expect, it } from 'vitest';
import { codexHooksOff } from '../../src/core/codex-features.ts';

describe('codexHooksOff', () => {
  it('finds features.hooks (or codex_hooks) = false as a table, dotted keys, an inline table or quoted keys, at its value', () => {
    for (const [text, offset] of [
      ['[features]\nhooks = false\n', 19],
      ['# mine\n[ features ]  # x\r\n"hooks"=false # off\r\n', 34],
      ['features.hooks = false\n', 17],
      ['features = { web = true, hooks = false }\n', 33],
      ["s = '''a''b'''\nd = 1979-05-27 07:32:00Z\na = [\n 1, # c\n]\n[features]\nhooks=false\n", 73],
    ] as const)
      expect(codexHooksOff(text), text).toEqual({ key: 'hooks', offset });
    expect(codexHooksOff('model = "o3"\n[features]\ncodex_hooks = false\n')).toEqual({ key: 'codex_hooks', offset: 38 });
  });

  it('is no switch: hooks on, another table, inside a string, a profile, or a text it cannot follow', () => {
    for (const text of [
      '[features]\nhooks = true\ncodex_hooks = false\n',
      '[features.sub]\nhooks = false\n',
      's = """\n[features]\nhooks = false\n"""\n',
      '[profiles.x]\nfeatures = { hooks = false }\n',
      '[features]\nhooks = false [',
      '',
    ])
      expect(codexHooksOff(text), text).toBeUndefined();
  });
});
