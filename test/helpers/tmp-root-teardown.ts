import { rmSync } from 'node:fs';

/**
 * vitest's global setup: the run's folder on a tmpfs (test/helpers/tmp-root.ts) and its home folder
 * (test/helpers/hermetic-env.ts) go when the run ends.
 */
export default function setup(): () => void {
  return () => {
    for (const dir of [process.env.AGENTS_TEST_TMP_ROOT, process.env.AGENTS_TEST_HOME])
      if (dir) rmSync(dir, { recursive: true, force: true });
  };
}
