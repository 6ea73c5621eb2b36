"""The command line: typer commands, the composition root that wires config, store, gateway and web."""

from hintgate.lean_packages import lean_package

# Before any command imports the MCP SDK: its three package `__init__`s import its whole client and server
# sides (the high-level `MCPServer` with its managers, the SSE and stdio transports...), 3 MB of a serving
# gateway's memory for names hintgate takes from the submodules. A name asked of them still gets them whole.
# `mcp_types`'s `__init__` imports every type of the SDK: a stdio gateway answers its first listing without them
# (`hintgate.server.front`), reading only the protocol versions (`mcp_types.version`) before it.
for _package in ("mcp", "mcp.client", "mcp.server", "mcp_types"):
    lean_package(_package)
