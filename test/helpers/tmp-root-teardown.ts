import { rmSync } from 'node:fs';

/** vitest's global setup: the run's folder on a tmpfs (test/helpers/tmp-root.ts) goes when the run ends. */
export default function setup(): () => void {
  return () => {
    const root = process.env.AGENTS_TEST_TMP_ROOT;
    if (root) rmSync(root, { recursive: true, force: true });
  };
}
