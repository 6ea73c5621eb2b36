"""The web face: REST API at /api, dashboard at /, and the MCP endpoint at /mcp, on one port."""
