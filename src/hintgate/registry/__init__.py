"""MCP servers you do not have yet: an MCP registry's answers, read as hostile input, and what hintgate makes of them.

- `serverjson`: a registry's server.json (its `ServerResponse`), checked field by field, every problem
  named by its JSON path; package names and versions that are not exact npm or PyPI ones are refused.
- `client`: the registry's REST API (`/v0.1/servers`), with bounded time, sizes and pages.
- `entry`: the `mcpServers` entry a server.json's package or remote becomes (secrets as `${VAR}`, the
  version pinned).
- `trial`: a package started in a scratch directory (npm through npx, PyPI in a temporary venv) with
  only the allow-listed environment, to list its tools before anything is added.
"""
