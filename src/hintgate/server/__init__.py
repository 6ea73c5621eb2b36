"""The MCP face: the SDK server, fast paths (stdio, HTTP), client sessions, error translation.

The only package that touches the MCP SDK's server internals.
"""
