"""The MCP face: the SDK server, direct stdio calls, the HTTP fast path, client sessions, error translation.

The only package that touches the MCP SDK's server internals.
"""
