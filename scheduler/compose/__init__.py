"""The composition root: every part of Nous is built here from the settings and connected.

One module per kind of process, each importing only what its process runs:

- :mod:`~scheduler.compose.daemon`: ``nous run``'s parts (intake, the
  status line, the jobs, the hook socket, the guide, the supervisor), built,
  readied and started on the daemon's exit stack;
- :mod:`~scheduler.compose.loop`: the decision loop, its LLM client,
  embeddings, recall, actor and reconciler (the daemon's, and the tests' and
  benchmarks' that drive the loop alone); self-improvement's parts come from
  :mod:`scheduler.improvement`, part of this root;
- :mod:`~scheduler.compose.connect`: reaching Neo4j (the daemon's driver,
  and :func:`~scheduler.compose.connect.connected` for ``nous`` subcommands);
- :mod:`~scheduler.compose.session`: a Claude Code hook's session (light:
  no scheduler, no loop);
- :mod:`~scheduler.compose.mcp`: ``nous mcp``'s tools, memory gate and
  embeddings.

Each part that needs stopping puts its clean-up on the caller's
:class:`contextlib.AsyncExitStack` as it starts (apscheduler's
``__aenter__``/``__aexit__`` is the model), so leaving the stack stops
everything in the reverse order of its start. This package's own module
imports nothing: a hook that needs its session loads none of the daemon.
"""
