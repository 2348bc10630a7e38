#!/usr/bin/env node
// EXAMPLE reconciliation actor for `agents plan strategize`. It applies a few
// fixed rules and never uses the network: copy it as a starting point for a
// real actor (a rules engine, a policy service, or a wrapper around an LLM
// command-line tool, see README "Wiring an LLM as the actor").
//
// Protocol: one JSON request on standard input (schemas/actor-request.schema.json),
// one JSON answer on standard output (schemas/actor-response.schema.json).
// Exit 0 with the answer; anything else marks every invariant not enforced.

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));

const context = `${request.plan.goal ?? ''}\n${request.context ?? ''}`.toLowerCase();

/** One rule: when `when` matches the invariant, answer with `then`. First match wins. */
const rules = [
  {
    // A plan context that says it will do what the invariant forbids cannot enforce it.
    when: (inv) => /^never\s+(.+)$/i.test(inv.text) && context.includes(inv.text.replace(/^never\s+/i, '').toLowerCase()),
    then: (inv) => [false, `The plan context announces "${inv.text.replace(/^never\s+/i, '')}", which this invariant forbids.`],
  },
  {
    when: (inv) => /^never\b/i.test(inv.text),
    then: () => [true, 'Added as a guard: the plan includes no step that does this, and each step is checked before it runs.'],
  },
  {
    when: (inv) => /\btests?\b|coverage/i.test(inv.text),
    then: () => [true, 'Added a verification step: the plan runs the test suite and the coverage report before completing.'],
  },
  {
    when: (inv) => /\blog\b/i.test(inv.text),
    then: () => [true, 'Every change step records what it changed in the plan log.'],
  },
  {
    when: () => true,
    then: () => [true, 'Accepted as a constraint of every strategy step.'],
  },
];

const results = request.invariants.map((inv) => {
  const rule = rules.find((r) => r.when(inv));
  const [enforced, response] = rule.then(inv);
  return { invariant_id: inv.id, enforced, response };
});

process.stdout.write(`${JSON.stringify({ results, summary: `example actor: ${results.filter((r) => r.enforced).length} of ${results.length} enforced` })}\n`);
