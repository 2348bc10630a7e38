import { stringify } from 'yaml';

/** `--format yaml` output (loaded only when that format is asked for). */
export function toYaml(data: unknown): string {
  return stringify(data, { lineWidth: 0 });
}
