"""The MCP face: the SDK server, direct stdio calls, the HTTP fast path, client sessions, error translation.

The only package that uses the MCP SDK's server side; of it, only `hintgate.server.sdk` reads private parts.
"""
