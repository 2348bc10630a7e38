// Generates realistic stores for the benchmark: global invariants, about a
// thousand projects, action templates, and plans that each hold invariants
// (some promoted from an action), decision nodes and enforcement records.
// Deterministic: the same size always gives the same files, byte for byte.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A small seeded PRNG (mulberry32): the stores must not depend on Math.random. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** ULIDs in creation order: a millisecond clock that ticks once per id, and seeded randomness. */
export function ulids(rand, startMs = Date.UTC(2026, 0, 1)) {
  let ms = startMs;
  return () => {
    ms += 1 + Math.floor(rand() * 1000);
    let time = '';
    let t = ms;
    for (let i = 0; i < 10; i++) {
      time = CROCKFORD[t % 32] + time;
      t = Math.floor(t / 32);
    }
    let random = '';
    for (let i = 0; i < 16; i++) random += CROCKFORD[Math.floor(rand() * 32)];
    return { id: time + random, at: new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z') };
  };
}

const VERBS = ['Never', 'Always', 'Do not', 'Only', 'Before merging,', 'When deploying,', 'In production,', 'During migrations,'];
const ACTIONS = ['delete', 'log', 'review', 'encrypt', 'back up', 'rotate', 'test', 'document', 'audit', 'cache', 'expose', 'modify'];
const OBJECTS = [
  'production data',
  'customer records',
  'API keys',
  'database schemas',
  'public endpoints',
  'payment flows',
  'feature flags',
  'user sessions',
  'build artefacts',
  'infrastructure state',
  'access tokens',
  'audit logs',
];
const TAILS = [
  '',
  '',
  '',
  ' without approval',
  ' more than once a day',
  ' outside business hours',
  ' in plain text',
  ' with a second reviewer',
  ' (see the runbook)',
  ': ask the owner first',
  ' — and say why',
  ' using "safe mode"',
  ' #critical',
  " in the 'legacy' cluster",
];
const TAGS = ['data', 'safety', 'security', 'ops', 'review', 'testing', 'compliance', 'cost'];
const PEOPLE = [
  'Ada Lovelace <ada@example.com>',
  'Grace Hopper <grace@example.com>',
  'Alan Turing <alan@example.com>',
  'Edsger Dijkstra <edsger@example.com>',
];

function pick(rand, list) {
  return list[Math.floor(rand() * list.length)];
}

export function sentence(rand, n) {
  return `${pick(rand, VERBS)} ${pick(rand, ACTIONS)} ${pick(rand, OBJECTS)}${pick(rand, TAILS)} (rule ${n})`;
}

/** The file text the tool itself writes (src/core/serialize.ts): modeline, then the keys in order. */
function document(depth, schema, data) {
  const body = stringify(data, { lineWidth: 0, defaultKeyType: 'PLAIN', version: '1.2' });
  return `# yaml-language-server: $schema=${'../'.repeat(depth)}schemas/${schema}\n${body}`;
}

function invariant(rand, next, n, extra = {}) {
  const { id, at } = next();
  const data = { id, text: sentence(rand, n), severity: rand() < 0.8 ? 'error' : rand() < 0.5 ? 'warning' : 'info', active: rand() < 0.95 };
  if (rand() < 0.4) data.tags = [...new Set([pick(rand, TAGS), pick(rand, TAGS)])];
  if (rand() < 0.2)
    data.rationale = `Because ${pick(rand, OBJECTS)} matter to ${pick(rand, ['customers', 'auditors', 'the on-call team'])}.`;
  data.created_at = at;
  data.created_by = pick(rand, PEOPLE);
  Object.assign(data, extra);
  return { id, data };
}

function put(root, rel, text, stats) {
  const full = join(root, rel);
  writeFileSync(full, text);
  stats.files++;
  stats.bytes += Buffer.byteLength(text);
}

/**
 * Writes a store of about `size` invariants at `root` and returns what a
 * benchmark needs to know about it: a project and a plan to resolve, and counts.
 *  - global: 1 % (at least 10, at most 200);
 *  - projects: about 1,000 (size / 10 below 10,000), 55 % of the invariants;
 *  - actions: 20 templates of 5 invariants;
 *  - plans: one per 25 invariants left, each with plan.yaml, its invariants
 *    (a third promoted from an action), 2 decision nodes and 2 enforcement records.
 */
export function generateStore(root, size, seed = 7) {
  const rand = prng(seed + size);
  const next = ulids(rand);
  const stats = { invariants: 0, files: 0, bytes: 0 };
  let n = 0;
  for (const dir of ['global', 'projects', 'actions', 'plans', 'schemas']) mkdirSync(join(root, dir), { recursive: true });
  put(
    root,
    'config.yaml',
    '# yaml-language-server: $schema=schemas/config.schema.json\nversion: 1\ncommit: false\nreconciliation:\n  actor: command\n  timeout_ms: 60000\n',
    stats,
  );
  for (const schema of readdirSync(new URL('../schemas/', import.meta.url)).filter((f) => f.endsWith('.schema.json'))) {
    put(root, `schemas/${schema}`, readFileSync(new URL(`../schemas/${schema}`, import.meta.url), 'utf8'), stats);
  }

  const globals = Math.min(200, Math.max(10, Math.round(size * 0.01)));
  for (let i = 0; i < globals; i++) {
    const inv = invariant(rand, next, ++n);
    put(root, `global/${inv.id}.yaml`, document(1, 'invariant.schema.json', inv.data), stats);
  }
  stats.invariants += globals;

  const actions = [];
  for (let a = 0; a < 20; a++) {
    const ref = `team${a % 4}/action-${a}`;
    mkdirSync(join(root, 'actions', ref), { recursive: true });
    put(root, `actions/${ref}/action.yaml`, document(3, 'action.schema.json', { description: `Generated action template ${a}` }), stats);
    const ids = [];
    for (let i = 0; i < 5; i++) {
      const inv = invariant(rand, next, ++n);
      put(root, `actions/${ref}/${inv.id}.yaml`, document(3, 'invariant.schema.json', inv.data), stats);
      ids.push(inv.id);
    }
    actions.push({ ref, ids });
  }
  stats.invariants += 100;

  const projectCount = size >= 10_000 ? 1000 : Math.max(10, Math.round(size / 10));
  const projects = Array.from({ length: projectCount }, (_, i) => `project-${String(i).padStart(4, '0')}`);
  const projectInvariants = Math.round(size * 0.55);
  const perProject = new Map(projects.map((p) => [p, 0]));
  for (const p of projects) mkdirSync(join(root, 'projects', p), { recursive: true });
  for (let i = 0; i < projectInvariants; i++) {
    const p = projects[i % projectCount];
    const inv = invariant(rand, next, ++n);
    put(root, `projects/${p}/${inv.id}.yaml`, document(2, 'invariant.schema.json', inv.data), stats);
    perProject.set(p, perProject.get(p) + 1);
  }
  stats.invariants += projectInvariants;

  const left = Math.max(0, size - stats.invariants);
  const planCount = Math.max(1, Math.round(left / 25));
  const plans = [];
  let planInvariants = 0;
  for (let k = 0; k < planCount; k++) {
    const { id: planId, at } = next();
    const project = projects[Math.floor(rand() * projectCount)];
    const action = actions[k % actions.length];
    const dir = `plans/${planId}`;
    mkdirSync(join(root, dir, 'decisions'), { recursive: true });
    mkdirSync(join(root, dir, 'enforcement'), { recursive: true });
    put(
      root,
      `${dir}/plan.yaml`,
      document(2, 'plan.schema.json', {
        id: planId,
        action: action.ref,
        project,
        goal: `Generated plan ${k}`,
        created_at: at,
        created_by: pick(rand, PEOPLE),
      }),
      stats,
    );
    const count = k === planCount - 1 ? left - planInvariants : Math.min(left - planInvariants, 25);
    const ids = [];
    for (let i = 0; i < count; i++) {
      const promoted = i < action.ids.length && i % 3 === 0;
      const source = promoted ? { kind: 'action', ref: action.ref, origin_id: action.ids[i] } : { kind: 'plan' };
      const inv = invariant(rand, next, ++n, { source });
      put(root, `${dir}/${inv.id}.yaml`, document(2, 'invariant.schema.json', inv.data), stats);
      ids.push(inv.id);
    }
    planInvariants += count;
    let parent = null;
    for (let run = 0; run < 2; run++) {
      // One reconciliation run: its enforcement file and the decision node that points at it.
      const decision = next();
      const record = next();
      put(
        root,
        `${dir}/decisions/${decision.id}.yaml`,
        document(3, 'decision.schema.json', {
          id: decision.id,
          type: 'invariant_enforced',
          parent_id: parent,
          created_at: decision.at,
          summary: `Run ${run + 1}: ${ids.length} invariants reconciled`,
          enforcement_id: record.id,
          actor: 'command',
        }),
        stats,
      );
      const records = ids.slice(0, 10).map((invariant_id, i) => ({
        invariant_id,
        enforced: i % 7 !== 3,
        actor_response: i % 7 !== 3 ? 'The plan respects it.' : 'The plan deletes a table; ask first.',
        decision_id: decision.id,
      }));
      put(
        root,
        `${dir}/enforcement/${record.id}.yaml`,
        document(3, 'enforcement.schema.json', {
          id: record.id,
          decision_id: decision.id,
          created_at: record.at,
          actor: 'command',
          records,
        }),
        stats,
      );
      parent = decision.id;
    }
    plans.push({ id: planId, project, invariants: count });
  }
  stats.invariants += planInvariants;

  // The project and plan the benchmark resolves: a typical project, and a plan targeting one.
  const project = projects[Math.floor(projectCount / 2)];
  const plan = plans[Math.floor(plans.length / 2)];
  return { root, size, stats, project, projectInvariants: perProject.get(project), plan: plan.id, planProject: plan.project, globals };
}

/** A store holding only what resolving `project` and `plan` needs (the baseline of list --effective). */
export function copyNeededScopes(from, to, info) {
  mkdirSync(to, { recursive: true });
  for (const rel of ['config.yaml', 'global', `projects/${info.project}`, `projects/${info.planProject}`, `plans/${info.plan}`]) {
    cpSync(join(from, rel), join(to, rel), { recursive: true });
  }
}

/** Runs git with a fixed identity and no user configuration. */
export function git(cwd, ...args) {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'Bench',
      GIT_AUTHOR_EMAIL: 'bench@example.com',
      GIT_COMMITTER_NAME: 'Bench',
      GIT_COMMITTER_EMAIL: 'bench@example.com',
    },
  });
}

/**
 * Makes the folder holding `store` a git repository with two commits: the
 * generated store, then `changed` invariant files edited (their text). Leaves
 * one more edited file staged (for `validate --staged`). Returns the commits.
 */
export function makeGitRepo(repo, storeRel, changed = 100) {
  if (!existsSync(join(repo, '.git'))) git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'commit.gpgsign', 'false');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'Generated store');
  const base = git(repo, 'rev-parse', 'HEAD').trim();
  const files = git(repo, 'ls-files', '-z', '--', `${storeRel}/projects`)
    .split('\0')
    .filter((f) => f.endsWith('.yaml'));
  const step = Math.max(1, Math.floor(files.length / (changed + 1)));
  for (let i = 0; i < changed; i++) edit(join(repo, files[i * step]), `edited ${i}`);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', `Edit ${changed} invariants`);
  const head = git(repo, 'rev-parse', 'HEAD').trim();
  const staged = files[files.length - 1];
  edit(join(repo, staged), 'staged edit');
  git(repo, 'add', '--', staged);
  return { base, head, staged };
}

function edit(file, note) {
  const text = readFileSync(file, 'utf8');
  const edited = text.replace(/^text: (["']?)(.*)$/m, (_m, quote, rest) =>
    quote ? `text: ${quote}Edited (${note}): ${rest}` : `text: ${JSON.stringify(`${rest} (${note})`)}`,
  );
  if (edited === text) throw new Error(`bench: could not edit ${file}`);
  writeFileSync(file, edited);
}

/**
 * A monorepo for `agents export`: `size` invariants, 1% global and the rest
 * spread over `projectCount` projects, each with a project.yaml whose paths
 * are its own folder (`services/<project>/**`, holding one source file), and
 * config.yaml exporting to every target. Deterministic.
 */
export function generateExportStore(repo, size = 10_000, projectCount = 100, seed = 11) {
  const root = join(repo, '.agents');
  const rand = prng(seed + size);
  const next = ulids(rand);
  const stats = { invariants: 0, files: 0, bytes: 0 };
  let n = 0;
  for (const dir of ['global', 'projects', 'schemas']) mkdirSync(join(root, dir), { recursive: true });
  put(
    root,
    'config.yaml',
    '# yaml-language-server: $schema=schemas/config.schema.json\nversion: 1\nexport:\n  targets: [agents-md, claude-md, gemini-md, copilot, cursor, windsurf, cline]\n',
    stats,
  );
  for (const schema of readdirSync(new URL('../schemas/', import.meta.url)).filter((f) => f.endsWith('.schema.json'))) {
    put(root, `schemas/${schema}`, readFileSync(new URL(`../schemas/${schema}`, import.meta.url), 'utf8'), stats);
  }
  const globals = Math.round(size * 0.01);
  for (let i = 0; i < globals; i++) {
    const inv = invariant(rand, next, ++n);
    put(root, `global/${inv.id}.yaml`, document(1, 'invariant.schema.json', inv.data), stats);
  }
  const projects = Array.from({ length: projectCount }, (_, i) => `service-${String(i).padStart(3, '0')}`);
  for (const p of projects) {
    mkdirSync(join(root, 'projects', p), { recursive: true });
    put(
      root,
      `projects/${p}/project.yaml`,
      document(2, 'project.schema.json', { description: `Generated service ${p}`, paths: [`services/${p}/**`] }),
      stats,
    );
    mkdirSync(join(repo, 'services', p), { recursive: true });
    writeFileSync(join(repo, 'services', p, 'index.ts'), 'export {};\n');
  }
  for (let i = 0; i < size - globals; i++) {
    const p = projects[i % projectCount];
    const inv = invariant(rand, next, ++n);
    put(root, `projects/${p}/${inv.id}.yaml`, document(2, 'invariant.schema.json', inv.data), stats);
  }
  stats.invariants = size;
  return { root, repo, size, stats, projects: projectCount, project: projects[Math.floor(projectCount / 2)] };
}
