"""The composition root: builds every part of Nous from the settings and runs the jobs.

Also every way in: the ``nous`` command (:mod:`scheduler.cli`) and Nous
inside Claude Code, its hooks and MCP server (:mod:`scheduler.claude`).
"""
