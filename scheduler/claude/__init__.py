"""Nous inside Claude Code: its hooks, its MCP server and ``nous init claude``."""
