// A client built on the TypeScript MCP SDK, for hintgate's tests: it connects
// over streamable HTTP declaring no elicitation (so hintgate cannot ask it and
// queues calls that need a person), calls one tool, and prints one JSON line:
// {"result": CallToolResult} or {"error": {"code", "message"}}.
//
// usage: node ts_client.mjs URL TOOL ARGUMENTS_JSON [TIMEOUT_MS]
// TIMEOUT_MS is the SDK's request timeout (60000, its default, when not given):
// on expiry the SDK cancels the request (notifications/cancelled).
// MCP_BEARER_TOKEN, when set, is sent as `Authorization: Bearer TOKEN`.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, tool, argumentsJson, timeoutMs] = process.argv.slice(2);
if (!url || !tool || !argumentsJson) {
  console.error("usage: node ts_client.mjs URL TOOL ARGUMENTS_JSON [TIMEOUT_MS]");
  process.exit(2);
}

const client = new Client({ name: "ts-sdk-test", version: "1.0.0" }, { capabilities: {} });
const token = process.env.MCP_BEARER_TOKEN;
const requestInit = token ? { headers: { Authorization: `Bearer ${token}` } } : undefined;
const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit });
await client.connect(transport);
let output;
try {
  const options = timeoutMs ? { timeout: Number(timeoutMs) } : undefined;
  const result = await client.callTool({ name: tool, arguments: JSON.parse(argumentsJson) }, undefined, options);
  output = { result };
} catch (error) {
  output = { error: { code: error.code ?? null, message: String(error.message ?? error) } };
}
console.log(JSON.stringify(output));
// End the session the way a well-behaved client does (DELETE), then leave.
await transport.terminateSession().catch(() => {});
await client.close();
