"""Where tools come from: upstream MCP servers, OpenAPI documents, Python functions."""
