import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES, UsageError } from '../../src/core/errors.ts';
import { CliContext } from '../../src/cli/context.ts';
import { canPrompt, type CliIo, useColor } from '../../src/cli/io.ts';
import type { WorkingTreeSource } from '../../src/store/tree-source.ts';
import { tempDir, testStore } from '../helpers/tmp.ts';

function context(cwd: string, store?: string, color = false): CliContext {
  const sink = { write: () => true };
  const io: CliIo = { stdout: sink, stderr: sink, stdin: new PassThrough(), env: {}, cwd };
  return new CliContext({ io, store, format: 'text', color, interactive: false });
}

describe('the CLI context (src/cli/context.ts)', () => {
  it('finds the store once and builds each service once, all over the same invariant service', async () => {
    const root = testStore();
    const ctx = context(join(root, '..'), root);
    expect(await ctx.root()).toBe(root);
    const invariants = await ctx.invariants();
    expect(invariants.root).toBe(root);
    expect(await ctx.invariants()).toBe(invariants);
    const plans = await ctx.plans();
    expect(await ctx.plans()).toBe(plans);
    expect(plans.invariants).toBe(invariants);
    expect((await ctx.scopes()).invariants).toBe(invariants);
    expect((await ctx.review()).root).toBe(root);
  });

  it('finds the store from the current folder when --store is not given', async () => {
    const root = testStore();
    expect(await context(join(root, '..')).root()).toBe(root);
  });

  it('a missing store is a usage error (exit 2) when a command asks for it, not before', async () => {
    const ctx = context(tempDir(), join(tempDir(), 'nowhere'));
    const error = await ctx.invariants().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(EXIT_CODES.usage);
  });

  // The MCP server's answers are read by its client, started in a folder of its own without the server's environment.
  it('names a store given by --store or AGENTS_STORE by its absolute path for answers read elsewhere, and none found upwards', () => {
    const made = (store: string | undefined, env: Record<string, string>) => {
      const sink = { write: () => true };
      const io: CliIo = { stdout: sink, stderr: sink, stdin: new PassThrough(), env, cwd: '/repo/sub' };
      return new CliContext({ io, store, format: 'text', color: false, interactive: false });
    };
    expect(made('../.agents', {}).agentsCommandAt('/repo/.agents')).toBe('agents --store /repo/.agents');
    expect(made(undefined, { AGENTS_STORE: '../.agents' }).agentsCommandAt('/repo/.agents')).toBe('agents --store /repo/.agents');
    expect(made(undefined, {}).agentsCommandAt('/repo/.agents')).toBe('agents');
    expect(made('../.agents', {}).agentsCommand()).toBe('agents --store ../.agents');
  });

  it('gives one style per run, plain without colour', () => {
    const ctx = context(tempDir());
    expect(ctx.style).toBe(ctx.style);
    expect(ctx.style.red('x')).toBe('x');
    expect(context(tempDir(), undefined, true).style.red('x')).toBe('\u001b[31mx\u001b[39m');
  });

  it('asks stdin whether it is a terminal only when stdout is one: a piped run never makes the stdin stream', () => {
    const stdin = new PassThrough() as unknown as CliIo['stdin'];
    Object.defineProperty(stdin, 'isTTY', {
      get() {
        throw new Error('stdin was asked');
      },
    });
    const io = (tty: boolean): CliIo => ({
      stdout: { write: () => true, isTTY: tty },
      stderr: { write: () => true },
      stdin,
      env: {},
      cwd: '/',
    });
    expect(canPrompt(io(false), false)).toBe(false);
    expect(() => canPrompt(io(true), false)).toThrow('stdin was asked');
  });

  it('gives the store a parse cache in its git folder, and none with AGENTS_NO_CACHE on or keepParses: false', async () => {
    const top = tempDir();
    const root = join(top, '.agents');
    for (const d of ['.git/objects', '.git/refs', '.agents/global']) mkdirSync(join(top, d), { recursive: true });
    writeFileSync(join(top, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    const make = (env: Record<string, string>) => {
      const sink = { write: () => true };
      return new CliContext({
        io: { stdout: sink, stderr: sink, stdin: new PassThrough(), env, cwd: top },
        store: root,
        format: 'text',
        color: false,
        interactive: false,
      });
    };
    const cached = (await make({}).invariants()).source as WorkingTreeSource;
    expect(cached.parses?.cache.dir).toBe(join(top, '.git', 'agents', 'parsed'));
    const uncached = (await make({ AGENTS_NO_CACHE: '1' }).invariants()).source as WorkingTreeSource;
    expect(uncached.parses).toBeUndefined();
    // Off as CI is: `AGENTS_NO_CACHE=0` or `false` keeps the cache, as an empty value does.
    for (const off of ['0', 'false', 'FALSE', ''])
      expect(((await make({ AGENTS_NO_CACHE: off }).invariants()).source as WorkingTreeSource).parses?.cache.dir, off).toBe(
        join(top, '.git', 'agents', 'parsed'),
      );
    // The MCP server asks for none.
    expect(((await make({}).invariants({ keepParses: false })).source as WorkingTreeSource).parses).toBeUndefined();
  });

  it('colours by FORCE_COLOR when stdout is no terminal, unless it is 0 or false; --no-color and NO_COLOR win', () => {
    const io = (env: Record<string, string | undefined>): CliIo => {
      const sink = { write: () => true };
      return { stdout: sink, stderr: sink, stdin: new PassThrough(), env, cwd: '/' };
    };
    expect(useColor(io({}), false)).toBe(false);
    expect(useColor(io({ FORCE_COLOR: '1' }), false)).toBe(true);
    expect(useColor(io({ FORCE_COLOR: '' }), false)).toBe(true);
    expect(useColor(io({ FORCE_COLOR: '0' }), false)).toBe(false);
    expect(useColor(io({ FORCE_COLOR: 'false' }), false)).toBe(false);
    expect(useColor(io({ FORCE_COLOR: '1', NO_COLOR: '1' }), false)).toBe(false);
    expect(useColor(io({ FORCE_COLOR: '1' }), true)).toBe(false);
  });
});
