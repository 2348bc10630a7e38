import { Box, Text } from 'ink';
import { findUnsafe } from '../core/plain-text.ts';
import { clipToRows, plain } from './plain.ts';
import { useKeys } from './use-keys.ts';
import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { AgentsError } from '../core/errors.ts';
import { SEVERITIES, describeScope, type Guard, type Scope, type ScopedInvariant, type Severity } from '../core/model.ts';
import { canMeet, looseKey, nearDuplicatesOf } from '../core/near-duplicates.ts';
import { codePointLength, nameProblem } from '../core/names.ts';
import { MAX_TEXT_LENGTH } from '../core/parse-core.ts';
import { typedTags } from '../core/normalise.ts';
import { errorSummary } from '../present/diagnostics.ts';
import { checkNewInvariant } from '../core/shadow.ts';
import type { AddContext, AddResult, EditResult, InvariantService, ScopeCatalog } from '../service/invariant-service.ts';
import { SelectList } from './SelectList.tsx';
import { ACTIVE_ITEMS, formHint, SEVERITY_ITEMS, scopeItems, type Step, stepOfProblem } from './add-form-steps.ts';
import { GuardStep } from './GuardStep.tsx';
import { editChanges } from './edit-changes.ts';
import { AddFeedback } from './AddFeedback.tsx';
import { AddSummary } from './AddSummary.tsx';
import { OptionalLine, TextInput } from './TextInput.tsx';
import { useTheme } from './theme.ts';
import { useWriteSignal, useWrites } from './use-writes.ts';
import { requireOpenedStore } from './use-store-data.ts';

/** Values the form starts from: flags given on the command line, or the invariant being edited. */
export interface FormValues {
  text?: string;
  severity?: Severity;
  tags?: readonly string[];
  rationale?: string;
  guard?: Guard;
  active?: boolean;
}

export interface AddFormProps {
  service: InvariantService;
  /** Skip the scope step (the command line named the scope). */
  scope?: Scope;
  /** Commit the new file with git; absent: as the store's config says. */
  commit?: boolean;
  /** Answers to start from (flags given with `invariant add`); each step still shows them. */
  initial?: FormValues;
  /** Edit this invariant instead of adding one: its scope is fixed, its values fill the form, saving calls `edit`. */
  editing?: ScopedInvariant;
  /** `--new-project`: create the given project even if its name is close to an existing one's. */
  newProject?: boolean;
  width?: number;
  /** The terminal's rows: the scope list shows no more than fit (10 at most). */
  rows?: number;
  onDone(result: AddResult): void;
  /** With `editing`: the saved change. */
  onEdited?(result: EditResult): void;
  /** Esc anywhere, or n at the confirmation: nothing is written. */
  onCancel(): void;
  onError?(error: unknown): void;
}

/**
 * The interactive `add` (and `edit`): scope → text (live duplicate, shadow
 * and near-duplicate feedback) → severity → tags → rationale (→ active, when
 * editing) → confirm. Esc cancels wherever it is pressed, as `n` does at the
 * confirmation; Shift-Tab goes back a step.
 */
export function AddForm({
  service,
  scope: givenScope,
  commit,
  initial = {},
  editing,
  newProject = false,
  width = 80,
  rows,
  onDone,
  onEdited,
  onCancel,
  onError,
}: AddFormProps): ReactElement {
  const theme = useTheme();
  const start: FormValues = editing
    ? {
        text: editing.text,
        severity: editing.severity,
        tags: editing.tags,
        ...(editing.rationale !== undefined ? { rationale: editing.rationale } : {}),
        ...(editing.guard !== undefined ? { guard: editing.guard } : {}),
        active: editing.active,
      }
    : initial;
  const fixedScope = editing?.scope ?? givenScope;
  const [step, setStep] = useState<Step>(fixedScope ? 'text' : 'scope');
  const [catalog, setCatalog] = useState<ScopeCatalog | undefined>();
  const [scope, setScope] = useState<Scope | undefined>(fixedScope);
  const [projectName, setProjectName] = useState('');
  // A name typed at "project (new)…" is a deliberate new project, as --new-project says on the command line.
  const [typedNew, setTypedNew] = useState(false);
  const [context, setContext] = useState<AddContext | undefined>();
  const [text, setText] = useState(start.text ?? '');
  const [severity, setSeverity] = useState<Severity>(start.severity ?? 'error');
  const [tags, setTags] = useState((start.tags ?? []).join(', '));
  const [rationale, setRationale] = useState(start.rationale ?? '');
  const [guard, setGuard] = useState<Guard>(start.guard ?? {});
  const [active, setActive] = useState(start.active ?? true);
  // With the step a refused save went back to (`at`): said there, not under the steps after it, where it is stale. A
  // duplicate's is left to the live feedback once the store is read again, which would say it a second time.
  const [problem, setProblem] = useState<{ text: string; at?: Step; duplicate?: boolean } | undefined>();
  // Bumped by a refused save, so that what the text meets is said as the store is now (a copy another process added).
  const [reads, setReads] = useState(0);
  const track = useWrites();
  const signal = useWriteSignal();

  useEffect(() => {
    if (fixedScope) return;
    service.scopes().then(setCatalog, (error) => (onError ? onError(error) : setProblem({ text: String(error) })));
  }, [service, fixedScope, onError]);

  useEffect(() => {
    if (!scope) return;
    let live = true;
    setContext(undefined);
    service.addContext(scope).then(
      (c) => live && setContext(c),
      (error) => live && (onError ? onError(error) : setProblem({ text: String(error) })),
    );
    return () => {
      live = false;
    };
  }, [service, scope, onError]);

  // After a refused save the scope's invariants are read again; a read that fails too (the store moved away, a file
  // broken) leaves them as they were, the refusal on screen saying why.
  useEffect(() => {
    if (!scope || reads === 0) return;
    let live = true;
    service.addContext(scope).then(
      (c) => live && setContext(c),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [service, scope, reads]);

  // The invariant being edited is not its own duplicate, shadow or near-duplicate.
  const others = useMemo(
    () => (context ? (editing ? context.invariants.filter((i) => i.id !== editing.id) : context.invariants) : undefined),
    [context, editing],
  );
  const check = useMemo(
    () => (others && scope ? checkNewInvariant(scope, text.trim(), others, context!.plans) : undefined),
    [others, context, scope, text],
  );
  // Loose keys of what the text can meet, computed once per scope; each keystroke is one linear pass.
  const nearPool = useMemo(
    () =>
      others && scope
        ? others.filter((o) => o.active && canMeet({ scope }, o, context!.plans)).map((o) => ({ invariant: o, loose: looseKey(o.text) }))
        : [],
    [others, context, scope],
  );
  const near = useMemo(() => (text.trim() === '' ? [] : nearDuplicatesOf(text.trim(), nearPool)), [nearPool, text]);
  const textProblem =
    text.trim() === ''
      ? 'the text is empty'
      : codePointLength(text.trim()) > MAX_TEXT_LENGTH
        ? 'the text is too long'
        : findUnsafe(text.trim(), false)
          ? 'the text holds a control, bidirectional or invisible character'
          : check?.duplicate
            ? 'it duplicates an invariant of this scope'
            : undefined;

  const steps: Step[] = [
    ...(fixedScope ? [] : (['scope'] as Step[])),
    'text',
    'severity',
    'tags',
    'rationale',
    'guard',
    ...(editing ? (['active'] as Step[]) : []),
    'confirm',
  ];
  const back = () => {
    setProblem(undefined);
    if (step === 'new-project') return setStep('scope');
    const at = steps.indexOf(step);
    if (at > 0) setStep(steps[at - 1]!);
  };

  const save = () => {
    if (!scope) return;
    setStep('saving');
    const tagList = typedTags(tags);
    const why = rationale.trim();
    const failed = (error: unknown) => {
      if (error instanceof AgentsError && error.exitCode !== 70) {
        const at = stepOfProblem(error.message, error.code);
        setProblem({ text: errorSummary(error), at, duplicate: error.code === 'duplicate' });
        setStep(at);
        setReads((n) => n + 1);
      } else if (onError) onError(error);
      else setProblem({ text: String(error) });
    };
    try {
      requireOpenedStore(service);
    } catch (error) {
      return failed(error);
    }
    if (editing) {
      track(
        service.edit(
          {
            id: editing.id,
            ...editChanges(
              editing,
              { text, severity, tags: tagList, rationale: why, active, guard },
              context?.invariants.find((i) => i.id === editing.id)?.tags,
            ),
            ...(commit !== undefined ? { commit } : {}),
          },
          { signal },
        ),
        (r) => `edited ${r.invariant.id} (${r.invariant.path})`,
      ).then((r) => onEdited?.(r), failed);
      return;
    }
    track(
      service.add(
        {
          scope,
          text,
          severity,
          tags: tagList,
          ...(why !== '' ? { rationale: why } : {}),
          ...(Object.keys(guard).length > 0 ? { guard } : {}),
          ...(commit !== undefined ? { commit } : {}),
          ...(newProject || typedNew ? { newProject: true } : {}),
        },
        { signal },
      ),
      (r) => `added ${r.invariant.id} (${r.invariant.path})`,
    ).then(onDone, failed);
  };

  useKeys((input, key) => {
    if (step === 'saving') return;
    if (key.escape) return onCancel();
    if (key.tab && key.shift) return back();
    if (step === 'confirm') {
      if (key.return || input === 'y' || input === 'Y') save();
      else if (input === 'n' || input === 'N') onCancel();
    }
  });

  // A long text, rationale or guard is cut to rows that leave the rest of the step on screen: a frame as tall as the
  // terminal would scroll the form's first lines away at each key.
  // A refusal the form shows is cut to the rows the step leaves it, and the step is drawn in the rest: wrapped whole
  // (a lock's long message), it pushed the title off a short terminal.
  const said = (problem?.at === undefined || problem.at === step) && !(problem?.duplicate && check?.duplicate) ? problem?.text : undefined;
  const problemLines = said ? clipToRows(plain(`✗ ${said}`), width, Math.max(1, (rows ?? 24) - 6)) : [];
  const screenRows = (rows ?? 24) - problemLines.length;
  const fit = { columns: width, rows: Math.max(1, Math.min(6, screenRows - 10)) };
  // The severity and state lists (and their position line) under the title, their question, the key line and a spare
  // row: on a terminal of 5 or 6 rows they scroll, where their 3 choices outgrew it.
  const choiceRows = Math.max(1, Math.min(3, screenRows - 4));
  // The header, scope and key lines on one row each, as the rows above count them: a project's name can be 64 long.
  const header = (
    <Text bold wrap="truncate-end">
      {editing ? `Edit ${editing.id}` : 'Add an invariant'}
      {scope ? <Text color={theme.hue('cyan')}>{` · ${describeScope(scope)}`}</Text> : null}
    </Text>
  );
  let body: ReactElement;
  switch (step) {
    case 'scope':
      body = catalog ? (
        <Box flexDirection="column">
          <SelectList
            items={scopeItems(catalog)}
            label="Scope (↑↓, Enter):"
            width={width}
            // Under the title, the question, the list's position line, the key line and a spare row; on 5 rows the
            // position goes after the question.
            height={rows === undefined ? 10 : Math.max(1, Math.min(10, rows - 5))}
            position={rows === undefined || rows > 5 ? true : 'label'}
            onSelect={(choice) => {
              if (choice === 'new-project') return setStep('new-project');
              setScope(choice);
              setStep('text');
            }}
          />
        </Box>
      ) : (
        <Text dimColor={theme.dim}>reading the store…</Text>
      );
      break;
    case 'new-project': {
      const nameIssue = projectName === '' ? undefined : nameProblem(projectName, 'project');
      body = (
        <Box flexDirection="column">
          <Text>
            {'New project name: '}
            <TextInput
              value={projectName}
              onChange={setProjectName}
              placeholder="e.g. myapp"
              // One row, its end shown, and the problem cut to the rows left: a long paste keeps the title on screen.
              fit={{ columns: width - 'New project name: '.length, rows: 1 }}
              onSubmit={(v) => {
                setProjectName(v);
                if (v === '' || nameProblem(v, 'project')) return;
                setTypedNew(true);
                setScope({ kind: 'project', project: v });
                setStep('text');
              }}
            />
          </Text>
          {nameIssue ? (
            <Text color={theme.hue('red')}>{clipToRows(`✗ ${plain(nameIssue)}`, width, Math.max(1, screenRows - 4)).join('\n')}</Text>
          ) : (
            <Text dimColor={theme.dim} wrap="truncate-end">
              lower-case letters, digits, . _ - (up to 64)
            </Text>
          )}
        </Box>
      );
      break;
    }
    case 'text':
      body = (
        <Box flexDirection="column" width={width}>
          <Box>
            <Text>{'Text: '}</Text>
            <Box flexGrow={1}>
              <TextInput
                value={text}
                onChange={(v) => {
                  setText(v);
                  setProblem(undefined);
                }}
                placeholder="e.g. Never delete production data"
                fit={{ ...fit, columns: width - 'Text: '.length }}
                onSubmit={(v) => {
                  // Enter typed ahead with the text: take the text first, check it, then Enter again.
                  if (v === text && !textProblem && check) setStep('severity');
                }}
              />
            </Box>
          </Box>
          <AddFeedback
            check={check}
            text={text}
            near={near}
            incomplete={context?.incomplete}
            inheritedMissing={context?.inheritedMissing}
            width={width}
            rows={Math.max(problemLines.length > 0 ? 0 : 1, screenRows - 3 - fit.rows)}
          />
        </Box>
      );
      break;
    case 'severity':
      body = (
        <Box flexDirection="column">
          <SelectList
            label="Severity (↑↓, Enter):"
            items={SEVERITY_ITEMS}
            initialIndex={SEVERITIES.indexOf(severity)}
            width={width}
            height={choiceRows === 2 ? 1 : choiceRows}
            position={choiceRows > 1 ? true : 'label'}
            onSelect={(s) => {
              setSeverity(s);
              setStep('tags');
            }}
          />
        </Box>
      );
      break;
    case 'tags':
      body = (
        <OptionalLine
          label="Tags (comma-separated, Enter for none): "
          fit={fit}
          value={tags}
          onChange={setTags}
          onSubmit={() => setStep('rationale')}
        />
      );
      break;
    case 'rationale':
      body = (
        <OptionalLine
          label="Rationale (why it exists, for reviewers; Enter for none): "
          fit={fit}
          value={rationale}
          onChange={setRationale}
          onSubmit={() => setStep('guard')}
        />
      );
      break;
    case 'guard':
      body = (
        <GuardStep
          guard={guard}
          onChange={setGuard}
          onDone={() => setStep(editing ? 'active' : 'confirm')}
          width={width}
          // The title, the key line and the spare row, besides the step.
          rows={screenRows - 3}
        />
      );
      break;
    case 'active':
      body = (
        <Box flexDirection="column">
          <SelectList
            label="State (↑↓, Enter):"
            items={ACTIVE_ITEMS}
            initialIndex={active ? 0 : 1}
            width={width}
            height={choiceRows === 2 ? 1 : choiceRows}
            position={choiceRows > 1 ? true : 'label'}
            onSelect={(a) => {
              setActive(a);
              setStep('confirm');
            }}
          />
        </Box>
      );
      break;
    case 'confirm':
    case 'saving':
      body = (
        <AddSummary
          {...{ text, scope, severity, rationale, guard, editing, active, check, near, width }}
          incomplete={context?.incomplete}
          inheritedMissing={context?.inheritedMissing}
          tags={typedTags(tags)}
          saving={step === 'saving'}
          rows={screenRows - 3}
        />
      );
      break;
  }
  return (
    <Box flexDirection="column" width={width}>
      {header}
      {body}
      {problemLines.length > 0 ? <Text color={theme.hue('red')}>{problemLines.join('\n')}</Text> : null}
      <Text dimColor={theme.dim} wrap="truncate-end">
        {formHint(step, steps, width)}
      </Text>
    </Box>
  );
}
