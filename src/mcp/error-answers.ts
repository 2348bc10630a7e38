// The error answers of the MCP server: a user error as a tool's error result (the CLI's text, its data in `_meta`)
// or as a JSON-RPC error of a resource or prompt, and the SDK's own error answers made readable.
import { ErrorCode, McpError, type CallToolResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { AgentsError, defaultErrorCode, EXIT_CODES, UsageError } from '../core/errors.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import { makeStyle } from '../core/style.ts';
import { diagnosticsJson, errorLines } from '../present/diagnostics.ts';
import { VERSION } from '../present/version.ts';

/** Resource-not-found, as the MCP specification numbers it. */
const RESOURCE_NOT_FOUND = -32002;

/**
 * A user error as a tool's error result: the text the CLI prints on stderr, and its data in `_meta`. `agents`: the
 * start of a command it names, the `agents mcp` run's with its --store (CliContext.agentsCommand).
 */
export function errorResult(error: unknown, stderr: { write(chunk: string): unknown }, agents = 'agents'): CallToolResult {
  if (error instanceof AgentsError) {
    const hint = error.hintFor(agents);
    return {
      isError: true,
      // Escaped as the CLI escapes its output: an argument's ESC, BEL or RLO never reaches the client raw.
      content: [{ type: 'text', text: escapeUnsafe(errorLines(error, makeStyle(false), agents).join('\n'), { newlines: true }) }],
      _meta: {
        'agents/error': {
          // Lines as the CLI's JSON has them: only what could change the client's screen is escaped.
          // The stable name of the failure, as the CLI's JSON error document gives it (docs/json-output.md).
          code: error.code,
          message: escapeUnsafe(error.message, { newlines: true }),
          hint: hint === undefined ? null : escapeUnsafe(hint, { newlines: true }),
          exit_code: error.exitCode,
          detail: error.detail ?? null,
          diagnostics: diagnosticsJson(error.diagnostics, agents),
        },
      },
    };
  }
  const e = error as Error;
  stderr.write(`agents mcp: internal error: ${e?.stack ?? String(error)}\n`);
  return {
    isError: true,
    content: [
      { type: 'text', text: `internal error: this is a bug in agents ${VERSION}, not something you did: ${e?.message ?? String(error)}` },
    ],
    _meta: {
      'agents/error': {
        code: defaultErrorCode(EXIT_CODES.internal),
        message: e?.message ?? String(error),
        hint: null,
        exit_code: EXIT_CODES.internal,
        detail: null,
        diagnostics: [],
      },
    },
  };
}

/**
 * An error answer as a client may show it: the characters a request brought in escaped (a resource URI, a prompt
 * or tool name), and the SDK's dump of a request that fails its schema said in one line, as the invalid parameters
 * (-32602) it is, not an internal error.
 */
export function readableError(message: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in message)) return message;
  // An McpError's message begins with "MCP error <code>: " (the SDK's constructor puts it there), and the client's
  // McpError puts it there again: the message sent is the error's own, as the CLI prints it.
  const prefix = `MCP error ${message.error.code}: `;
  const own = message.error.message.startsWith(prefix) ? message.error.message.slice(prefix.length) : message.error.message;
  const issues = message.error.code === ErrorCode.InternalError ? schemaIssues(own) : undefined;
  const code = issues === undefined ? message.error.code : ErrorCode.InvalidParams;
  return { ...message, error: { ...message.error, code, message: escapeUnsafe(issues ?? own, { newlines: true }) } };
}

/**
 * The stderr line of an error the SDK reports but answers no one for (a notification that fails its schema, such as
 * `notifications/cancelled` without `params`): the schema's dump said in one line naming the field, as a request's is.
 */
export function errorNote(message: string): string {
  const at = message.indexOf(': [');
  const issues = at < 0 ? undefined : schemaIssues(message.slice(at + 2));
  return issues === undefined ? escapeUnsafe(message, { newlines: true }) : escapeUnsafe(`${message.slice(0, at)}: ${issues}`);
}

/** The issues of a schema failure the SDK sends as its message (a JSON array of `{path, message}`), in one line. */
function schemaIssues(text: string): string | undefined {
  if (!text.startsWith('[')) return undefined;
  let issues: unknown;
  try {
    issues = JSON.parse(text);
  } catch {
    return undefined;
  }
  const isIssue = (i: unknown): i is { path: unknown[]; message: string } =>
    Array.isArray((i as { path?: unknown })?.path) && typeof (i as { message?: unknown }).message === 'string';
  if (!Array.isArray(issues) || issues.length === 0 || !issues.every(isIssue)) return undefined;
  return `invalid request: ${issues.map((i) => `${i.path.join('.') || 'the message'}: ${i.message}`).join('; ')}`;
}

/**
 * Turns a thrown user error on a resource read or a prompt into a JSON-RPC error with the CLI's message and hint, and
 * in its data the failure's stable code, detail and diagnostics, as a tool's error result has them: a client tells `no-store` or
 * `store-changed` (ask again) from a bad URI without reading the message. `notFound`: the error is of a URI that names
 * no resource. `agents`: the start of a command it names, as errorResult's.
 */
export function resourceError(error: unknown, agents = 'agents', notFound = false): McpError {
  // Made already (a URI that names no resource, refused before the read): sent as it is.
  if (error instanceof McpError) return error;
  if (error instanceof AgentsError) {
    const text = errorLines(error, makeStyle(false), agents).join('\n');
    // A project without a folder is no resource, as a plan without one is not: both are "not found", not bad params.
    const unknown = notFound || error.code === 'unknown-project' || (error instanceof UsageError && /^no plan with id/.test(error.message));
    return new McpError(unknown ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams, text, {
      code: error.code,
      exit_code: error.exitCode,
      detail: error.detail ?? null,
      diagnostics: diagnosticsJson(error.diagnostics, agents),
    });
  }
  return new McpError(
    ErrorCode.InternalError,
    `internal error: this is a bug in agents ${VERSION}: ${(error as Error)?.message ?? String(error)}`,
  );
}
