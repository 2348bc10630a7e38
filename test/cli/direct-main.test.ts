import { describe, expect, it } from 'vitest';
import { directForm } from '../../src/cli/direct-main.ts';

describe('the forms started without the argument parser', () => {
  it.each([
    // Not given: config.yaml's mcp.allow_write decides.
    [['mcp'], {}, undefined],
    [['--store', 'S', 'mcp', '--allow-write'], { allowWrite: true }, 'S'],
    [['validate', '--staged'], { staged: true }, undefined],
    [['--store=S', '--no-color', 'validate', '--staged'], { staged: true }, 'S'],
    [['guard', 'hook'], {}, undefined],
    [['guard', 'hook', '--client', 'codex', '--store', 'S'], { client: 'codex' }, 'S'],
    [['guard', 'hook', '--client=gemini'], { client: 'gemini' }, undefined],
  ])('%j is taken, with its arguments', (args, argv, store) => {
    const form = directForm(args);
    expect(form?.argv).toEqual(argv);
    expect(form?.store).toBe(store);
  });

  it.each([
    [[]],
    [['validate']],
    [['validate', '--staged', '--fix']],
    [['validate', '--staged', '--format', 'json']],
    [['validate', '--staged', 'extra']],
    [['validate', '--staged', '--help']],
    [['mcp', '--staged']],
    [['mcp', '--client', 'claude']],
    [['guard', 'hook', '--client', 'nobody']],
    [['guard', 'hook', '--staged']],
    [['guard', 'check', '--staged']],
    [['guard']],
    [['--store']],
    [['--store', '--no-color', 'mcp']],
    [['list']],
  ])('%j goes to the parser', (args) => {
    expect(directForm(args)).toBeUndefined();
  });
});
