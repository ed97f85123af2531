"""The ``python -m rsi`` subcommands, one module each.

Every module here with a ``register(subparsers)`` function is a subcommand:
``register`` adds its parser and sets ``run`` (``async (args) -> exit code``)
as the parser's default. Adding a command is adding a module; nothing else
needs to change.
"""
