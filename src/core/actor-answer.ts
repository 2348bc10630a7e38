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
    // JSON.parse throws a SyntaxError, never another value.
    const why = (error as Error).message;
    return { ok: false, reason: `the actor's answer is not JSON (${why}); it begins ${JSON.stringify(text.slice(0, 80))}` };
  }
  return checkActorAnswer(data);
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
