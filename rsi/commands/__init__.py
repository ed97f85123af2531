"""``python -m rsi`` subcommands, one module each; :mod:`rsi.__main__` dispatches."""
