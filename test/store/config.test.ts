import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES, InvalidStoreError } from '../../src/core/errors.ts';
import { DEFAULT_CONFIG } from '../../src/core/model.ts';
import { loadConfig, readConfig } from '../../src/store/config.ts';
import { WorkingTreeSource } from '../../src/store/tree-source.ts';
import { testStore } from '../helpers/tmp.ts';

const source = (tree: Record<string, string | null>) => new WorkingTreeSource(testStore(tree));

describe('the config reader (src/store/config.ts)', () => {
  it('gives the defaults when the store has no config.yaml', async () => {
    expect(await readConfig(source({}))).toEqual({ config: DEFAULT_CONFIG, diagnostics: [] });
    expect(await loadConfig(source({}))).toEqual(DEFAULT_CONFIG);
  });

  it('fills the keys a config.yaml leaves out with the defaults', async () => {
    const config = await loadConfig(source({ 'config.yaml': 'version: 1\ncommit: true\nprojects:\n  allow_overlap: true\n' }));
    expect(config.commit).toBe(true);
    expect(config.projects.allow_overlap).toBe(true);
    expect(config.reconciliation).toEqual(DEFAULT_CONFIG.reconciliation);
    expect(config.mcp).toEqual(DEFAULT_CONFIG.mcp);
  });

  it('reports an invalid config.yaml with file:line:col: diagnostics from readConfig, exit 3 from loadConfig', async () => {
    const s = source({ 'config.yaml': 'version: 1\ncommit: maybe\n' });
    const read = await readConfig(s);
    expect(read.config).toEqual(DEFAULT_CONFIG);
    expect(read.diagnostics.map((d) => [d.file, d.line, d.severity])).toEqual([['config.yaml', 2, 'error']]);
    const error = await loadConfig(s).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidStoreError);
    expect((error as InvalidStoreError).exitCode).toBe(EXIT_CODES.invalidStore);
    expect((error as InvalidStoreError).message).toMatch(/^cannot read config\.yaml: config\.yaml:2:\d+ is invalid$/);
  });

  it('never takes a config.yaml it cannot read for the defaults', async () => {
    const s = source({});
    mkdirSync(join(s.root, 'config.yaml'));
    const error = await loadConfig(s).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidStoreError);
    expect((error as InvalidStoreError).diagnostics?.[0]?.file).toBe('config.yaml');
  });
});
