// The browser's changes (Browser.tsx holds the list and keys): the add form and the remove confirmation over the
// screen, the write each starts, and what the status line says it did.
import type { ReactElement } from 'react';
import { addedSentence, keptProjectSentence } from '../present/invariant-write.ts';
import type { InvariantService, ShowResult } from '../service/invariant-service.ts';
import { AddForm } from './AddForm.tsx';
import { ConfirmRemove } from './ConfirmRemove.tsx';
import { MAX_FORM_WIDTH } from './FitWidth.tsx';
import { useTheme } from './theme.ts';
import { useWriteSignal, useWrites } from './use-writes.ts';

/** A change the browser asks about: `a` opens the add form, `d` the removal of the invariant `show` answered for. */
export type WriteOverlay = { kind: 'add' } | { kind: 'remove'; info: ShowResult };

export interface BrowserWriteProps {
  overlay: WriteOverlay;
  service: InvariantService;
  /** The browser's size: the form is drawn in its width, up to MAX_FORM_WIDTH. */
  width: number;
  rows: number;
  /** Back to the list. */
  close(): void;
  /** Says a line on the browser's status line. */
  say(status: string): void;
  /** Reads the store again, after a change. */
  reload(): void;
  /** A write the store refused, said as the browser says a refusal. */
  refused(error: unknown): void;
  onError(error: unknown): void;
}

export function BrowserWrite({ overlay, service, width, rows, close, say, reload, refused, onError }: BrowserWriteProps): ReactElement {
  const { agents } = useTheme();
  const track = useWrites();
  const signal = useWriteSignal();
  const formWidth = Math.min(width, MAX_FORM_WIDTH);
  if (overlay.kind === 'add') {
    return (
      <AddForm
        service={service}
        width={formWidth}
        rows={rows}
        onCancel={() => {
          close();
          say('Nothing added.');
        }}
        onError={onError}
        onDone={(r) => {
          close();
          // What it shadows or nearly repeats too, as `invariant add` prints under the file; the status line cuts it to its rows.
          say(addedSentence(r, agents));
          void reload();
        }}
      />
    );
  }
  const info = overlay.info;
  return (
    <ConfirmRemove
      info={info}
      width={formWidth}
      rows={rows}
      onAnswer={(yes) => {
        close();
        if (!yes) {
          say('Nothing removed.');
          // The confirmation showed the invariant as the store holds it now: the list, read before, follows it, so that a
          // text another process changed meanwhile is not shown one way above the answer and another below it.
          return void reload();
        }
        const removal = service.remove(info.invariant.id, { signal });
        track(removal, () => `removed ${info.invariant.id} (${info.invariant.path})`).then((done) => {
          const kept = done.keptProject ? ` · ${keptProjectSentence(done.keptProject, agents)}` : '';
          say(`removed ${info.invariant.id} · ${info.invariant.path}${kept}`);
          void reload();
        }, refused);
      }}
    />
  );
}
