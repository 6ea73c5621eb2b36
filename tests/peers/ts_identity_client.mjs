// A client built on the TypeScript MCP SDK that logs its user in itself, for hintgate's identity tests:
// it connects over streamable HTTP with the SDK's client_credentials provider, which reads the gateway's
// protected-resource metadata, finds the issuer, gets a token for the gateway's audience, and retries.
// It lists the tools, calls one, and prints one JSON line: {"tools": [names], "result": CallToolResult}
// or {"error": message}.
//
// usage: node ts_identity_client.mjs URL ISSUER CLIENT_ID CLIENT_SECRET TOOL ARGUMENTS_JSON

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";

const [url, issuer, clientId, clientSecret, tool, argumentsJson] = process.argv.slice(2);
if (!url || !issuer || !clientId || !clientSecret || !tool || !argumentsJson) {
  console.error("usage: node ts_identity_client.mjs URL ISSUER CLIENT_ID CLIENT_SECRET TOOL ARGUMENTS_JSON");
  process.exit(2);
}

const authProvider = new ClientCredentialsProvider({ clientId, clientSecret, expectedIssuer: issuer });
const client = new Client({ name: "ts-sdk-identity-test", version: "1.0.0" }, { capabilities: {} });
const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider });
let output;
try {
  await client.connect(transport);
  const listed = await client.listTools();
  const result = await client.callTool({ name: tool, arguments: JSON.parse(argumentsJson) });
  output = { tools: listed.tools.map((t) => t.name), result };
} catch (error) {
  output = { error: String(error.message ?? error) };
}
console.log(JSON.stringify(output));
await transport.terminateSession().catch(() => {});
await client.close();
