/**
 * The text of each top-level entry of an object literal's text, `{ a, b: [x, y], c }` → `a`, `b: [x, y]`, `c`,
 * ended by its closing brace (what follows it is not read). The docs tests read keys from the source and the docs
 * with it.
 */
export function topLevelParts(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 1;
  for (let i = 1; i < body.length; i++) {
    const c = body[i]!;
    if ('{[('.includes(c)) depth++;
    else if ('}])'.includes(c)) depth--;
    if ((c === ',' && depth === 0) || depth < 0) {
      parts.push(body.slice(from, i).trim());
      from = i + 1;
      if (depth < 0) break;
    }
  }
  return parts;
}
