import type { DiagnosticCode } from '../core/diagnostics.ts';

/**
 * One line per diagnostic code: the SARIF rule description, and the same
 * words as the "Diagnostic codes" table of docs/validation.md (a test keeps the two in step).
 */
export const CODE_SUMMARIES: Record<DiagnosticCode, string> = {
  'yaml-syntax': 'The file is not valid YAML.',
  'yaml-multi-document': 'The file holds more than one YAML document.',
  'yaml-duplicate-key': 'A key appears twice in one mapping.',
  'yaml-unknown-tag':
    'A value carries a YAML tag the core schema does not know (`!!js/function`, `!foo`, or a YAML 1.1 type such as `!!omap`, `!!set`, `!!timestamp`); it is refused, never dropped.',
  'yaml-alias-limit': 'The file uses more YAML aliases than allowed (an alias bomb is refused).',
  'yaml-too-deep': 'The file nests too deeply to be parsed.',
  'yaml-too-large': 'The file holds too many YAML tokens to be parsed in reasonable time.',
  'merge-conflict':
    "The file holds git's conflict markers (`<<<<<<<`, `=======`, `>>>>>>>`, longer where `.gitattributes` sets `conflict-marker-size`) of a merge, rebase or stash that conflicted.",
  'file-too-large': 'The file is over 1 MiB; it is refused without being read.',
  'file-not-utf8': 'The file is not valid UTF-8.',
  'file-binary': 'The file holds binary content (a NUL byte).',
  'file-empty': 'The file holds no YAML document (empty, only comments, or a `---` with nothing after it).',
  'file-unreadable':
    'The file could not be read (permissions, I/O error, or it vanished while it was read, still after the store was read again whole 4 times: a concurrent remove or move is read again, never reported), or a folder of the store could not be listed (`projects/web/ cannot be listed (EACCES)`): nothing in it is read, and every command that needs it exits 3 rather than read it as empty (a hidden folder, which is never read, is only warned of as `unknown-path`).',
  'file-name-not-utf8':
    'The file name is not valid UTF-8 (listed with U+FFFD for its bytes), so it cannot be opened by its name; rename it.',
  'not-a-file': 'A folder or special file stands where a file must be.',
  symlink: 'A symbolic link inside the store; links are never followed.',
  schema: 'The document breaks its JSON Schema (wrong type, unknown or missing key, bad value).',
  'actor-incomplete':
    "config.yaml's `reconciliation.actor` is `agent` without `agent`, or `llm` without `provider` or `model`: `plan strategize` run with that actor stops on it (exit 3); other commands, and `strategize --actor` with another actor, read the rest of the file.",
  'id-mismatch': 'The id in the file differs from its file name (or its plan folder).',
  'id-invalid': 'An id or a file name where an id belongs is not a ULID.',
  'id-reused': 'One id names two files (invariants, plans or records) in the store.',
  'source-not-in-plan': '`source` appears on an invariant outside a plan.',
  'guard-invalid':
    "An entry of an invariant's `guard:` is not usable: a write glob the matcher does not take, or a command or content pattern that is not an RE2 regular expression.",
  'control-character':
    'A value holds a control character (ESC, CR, C1), a bidirectional formatting character or an invisible one (zero-width, tag characters) that can hide or reorder text; a newline is allowed only in multi-line fields. Or a comment holds a CR not before LF, a NEL, U+2028 or U+2029, where PyYAML and yamllint end the comment and read the rest of the line as YAML; or a line starts with a U+FEFF other than the byte order mark that starts the file, which this tool skips and they read as part of the key.',
  'unknown-path':
    "A file or folder fits no place in the store layout and is never read. An error when it is a `.yml` (or `.YAML`) file, or a `.yaml` whose name goes on with characters that cannot be seen (a trailing space, a zero-width space), where the same name in `.yaml` would be read (an invariant, a plan, a record, `project.yaml`…) and is not there, or `config.yaml` or `extends.lock.yaml` named in other case (`Config.yaml`) where the lower-case name is not there, or a `.yaml` in a folder below a scope that fits no place (`global/sub/<ULID>.yaml`, not a hidden folder) whose name the scope folder above it would read, and does not hold: what it holds would be silently left out, so every command that reads that folder refuses it too (exit 3); and when a file stands where a scope folder of the store goes (`global`, `projects`, `actions`, `plans`), or a project's folder (`projects/web`, a file of a name a project may have: export would otherwise remove the project's exported files), an action namespace's or template's folder (`actions/deploy`, `actions/deploy/prod`), a plan's folder (`plans/<ULID>`: `plan list` would otherwise leave the plan out), or a plan's `decisions`, `enforcement`, `violations` or `waivers` folder, or a project's `waivers`, which every command that reads that scope or folder then refuses (exit 3) instead of reading it as empty (a plan's open violations would vanish from its gate).",
  'bad-name': 'A project, action or plan folder name breaks the name rules.',
  'plan-missing': 'A plan folder has no plan.yaml.',
  'temporary-file':
    'A temporary file left by an interrupted write of the tool (named `.<name>.<writer>.<pid>.<hex>.tmp`; another hidden `.tmp` is an `unknown-path`), a plan folder left by an interrupted `plan use` or `plan remove`, or a project folder left by an interrupted `project add`, `import` or `project remove` (`--fix` removes it once its writer is gone; the hint says when it is kept: its writer still runs, or runs on another host or in another container).',
  'stale-lock':
    'A writer lock left by a process that is gone, or naming no process and older than 10 s, as writers judge it (`--fix` removes it).',
  'bad-lock':
    'A `.lock` that is a folder, link or special file, or a `.lock` committed to git: it blocks every writer of its scope (`--fix` removes it from the working tree).',
  'duplicate-text':
    'Two invariants of one scope have the same text (after normalisation); reported on each copy but the one resolution keeps (the oldest active one), which it names.',
  shadowed: 'An invariant is hidden by the same text at a higher precedence (unless that copy names it in `overrides`).',
  'near-duplicate':
    'Two invariants that can meet in one effective set say nearly the same thing: equal without punctuation, or one typo apart.',
  'overrides-unknown':
    "`overrides` names an id that is no other invariant in the store (one not there, or the invariant's own), nor one it inherits.",
  'overrides-text': '`overrides` names an invariant whose text differs: an override is a copy of the same text.',
  'overrides-unmet':
    "`overrides` names a copy of its text that it never replaces: one that comes before it (that copy applies), or one in no effective set with it (another project's or plan's); `invariant edit --overrides` refuses both.",
  'unknown-action':
    "A plan's action template is not in the store, names a policy source (`SOURCE:NS/NAME`) that `config.yaml`'s `extends` does not declare, or is not in that source at its pinned commit.",
  'unknown-project': "A plan's project is not in the store.",
  'unknown-origin': 'The action invariant a plan invariant was promoted from no longer exists.',
  'unknown-invariant':
    "A record names an invariant that is not in the store (an inherited one counts as in it), or names the id of something else as its invariant (a violation's, a plan's).",
  'waiver-not-applicable':
    "A waiver names an invariant its project's or plan's set does not hold (another project's, a template's, as an invariant moved away leaves it; an inactive one; a copy that another copy of its text shadows there, as a copy added later at a higher precedence leaves it, naming the copy that applies): it waives nothing.",
  'waiver-expired': 'A waiver has passed its `expires` date: the invariant it waived applies again.',
  'waiver-permanent':
    'A waiver expires more than 100 years after the run (`9999-12-31`, say): it is permanent in effect, which review should see.',
  'locked-weakened': 'A copy of an invariant a policy source locks has a lower severity or is inactive.',
  'locked-waived': 'A waiver names an invariant a policy source locks, or a copy of its text.',
  'extends-order':
    "A policy source is listed in config.yaml's `extends` before a source that extends it (its own `extends.lock.yaml` pins it): of a text both hold, the nested source's copy would be kept over the nearer policy's.",
  'extends-pin-unlisted':
    "`extends.lock.yaml` pins a policy source that config.yaml's `extends` does not list (removed, or config.yaml emptied or truncated): nothing inherits from it; `agents extends update` removes the pin.",
  'schema-outdated': "The store's copy of a schema (for editors) differs from the tool's, or is missing.",
  'modeline-missing':
    "The file lacks the `# yaml-language-server: $schema=…` line naming its own schema's copy in `schemas/`, or its modeline names another schema (`--fix` adds it, or replaces the wrong one).",
  'project-path-invalid':
    'A path glob of a project.yaml is not a relative glob inside the repository (absolute, `..`, a backslash, unbalanced braces, a `/` inside `{…}` or `[…]`, a class whose range runs backwards).',
  'project-paths-overlap': "Two projects' paths cover the same files (an error unless `projects.allow_overlap` in config.yaml).",
  'project-path-unmatched': 'A path glob of a project.yaml matches no file of the repository.',
  'guard-write-folder':
    "A guard's write glob matches no file of the repository but names a folder of files, or folders (secrets for secrets/**, config/* for config/*/**): it guards nothing below them.",
  'guard-write-outside-project':
    "A project's guard has a write glob that no file of the project's paths can match (secrets/** in a project of web/**): the guard judges only the project's files, so it never fires.",
  'guard-violation': "A diff writes a file or text an invariant's `guard:` forbids (`agents guard check`).",
};
