// An actor's answer taken in (docs/actors.md): the text a program printed, or what an in-process actor's evaluate()
// returned, each checked against actor-response.schema.json, so a malformed one is a failed run with its reason.
import type { ActorOutcome, ActorResponse } from './record-types.ts';
import { validatorFor } from './schemas.ts';
import { LONE_SURROGATE } from './utf8.ts';

/**
 * Reads an actor's standard output: one JSON document valid against
 * actor-response.schema.json. Unparsable or invalid output is a failure with
 * the reason; never throws.
 */
export function parseActorAnswer(stdout: string): ActorOutcome {
  const text = stdout.trim();
  if (text === '') return { ok: false, reason: 'the actor printed no answer on standard output' };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const around = outputAroundAnswer(stdout, text);
    if (around !== undefined)
      return { ok: false, reason: `the actor's answer is not JSON: ${around}; write anything else to standard error` };
    // JSON.parse throws a SyntaxError, never another value.
    const why = (error as Error).message;
    return { ok: false, reason: `the actor's answer is not JSON (${why}); it begins ${JSON.stringify(text.slice(0, 80))}` };
  }
  return checkActorAnswer(data);
}

/**
 * Output that is an answer with a log line before or after it (an actor logging on standard output, where the answer
 * goes), said with where it is, as the parser's "after JSON at position 326" shows neither the line nor what it says.
 */
function outputAroundAnswer(stdout: string, text: string): string | undefined {
  const parses = (part: string) => {
    try {
      JSON.parse(part);
      return true;
    } catch {
      return false;
    }
  };
  const start = stdout.length - stdout.trimStart().length;
  const end = valueEnd(text);
  if (end !== undefined && end < text.length && parses(text.slice(0, end))) {
    const at = start + end + (text.slice(end).length - text.slice(end).trimStart().length);
    const before = stdout.slice(0, at).split('\n');
    const where = `line ${before.length}, column ${before.at(-1)!.length + 1} of its output`;
    return `one JSON value followed by more output, at ${where}: ${JSON.stringify(stdout.slice(at, at + 80).trimEnd())}`;
  }
  const brace = text.indexOf('\n{');
  if (brace !== -1 && parses(text.slice(brace + 1)))
    return `other output comes before the JSON value, from line ${stdout.slice(0, start).split('\n').length} of its output: ${JSON.stringify(text.slice(0, Math.min(brace, 80)))}`;
  return undefined;
}

/** Where the object or array `text` starts with ends (the index past its closing bracket), strings read with their escapes. */
function valueEnd(text: string): number | undefined {
  if (text[0] !== '{' && text[0] !== '[') return undefined;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
  }
  return undefined;
}

/**
 * What an actor's evaluate() returned (an actor of the library's caller): `{ok: false, reason}` as it is, and
 * `{ok: true, response}` once its response passes actor-response.schema.json. Anything else (undefined, a
 * response of the wrong shape) is a failure with the reason, never a TypeError inside the run; never throws.
 */
export function actorOutcomeOf(value: unknown): ActorOutcome {
  const given = (typeof value === 'object' && value !== null ? value : {}) as { ok?: unknown; reason?: unknown; response?: unknown };
  if (given.ok === false && typeof given.reason === 'string') return { ok: false, reason: given.reason };
  if (given.ok === true) return checkActorAnswer(given.response);
  return { ok: false, reason: "the actor's evaluate() returned neither {ok: true, response} nor {ok: false, reason: string}" };
}

/**
 * Checks an answer already parsed against actor-response.schema.json (pure); never throws. A value
 * nested however deep is only walked as far as the schema reaches, never written out again as JSON.
 */
export function checkActorAnswer(data: unknown): ActorOutcome {
  const validate = validatorFor('actor-response.schema.json');
  if (!validate(data)) {
    // A failed validation lists its errors, each with a message (Ajv's default).
    const e = validate.errors![0]!;
    const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : 'the answer';
    const what =
      e.keyword === 'additionalProperties'
        ? `has an unknown key "${String((e.params as { additionalProperty?: unknown }).additionalProperty)}"`
        : e.message!;
    return { ok: false, reason: `the actor's answer does not match actor-response.schema.json: ${where} ${what}` };
  }
  // A \ud800 escape alone is JSON, but no text: recorded, it is read back as U+FFFD, or refused by a UTF-8 tool.
  const response = data as ActorResponse;
  const broken = response.results.findIndex((r) => LONE_SURROGATE.test(r.response));
  if (broken >= 0) {
    return {
      ok: false,
      reason: `the actor's answer is not valid Unicode text: results.${broken}.response holds half of a surrogate pair (a lone \\u escape)`,
    };
  }
  return { ok: true, response };
}
