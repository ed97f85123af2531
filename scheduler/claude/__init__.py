"""Nous inside Claude Code: its hooks, its MCP server and ``nous init claude``.

:mod:`scheduler.claude.hooks` answers each hook in a process of its own
(or hands it to the running daemon's :mod:`scheduler.claude.hook_server`),
:mod:`scheduler.claude.session` is what each event does with memory,
:mod:`scheduler.claude.init` writes the hooks and the MCP server into a
project's Claude Code files, and ``mcp_*`` is the ``nous mcp`` server.
"""
