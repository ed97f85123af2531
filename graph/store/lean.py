"""A short-lived process that needs the memory and nothing else: what it may leave unloaded.

A Claude Code hook working alone is a process per prompt and tool call, so
what it imports is paid every time (issue 27: at most 10x ``python -c
pass``). :func:`lean_process` is called once, before the driver is
imported, by such a process only (never by the daemon; the console script
also turns the cyclic garbage collector off for a hook's process, see
:func:`scheduler.cli.entry_point`):

- the driver's optional numpy and pandas support is left off (the driver
  imports both when installed, for result frames the hook never asks for:
  numpy alone costs the hook several bare interpreters' start);
- pydantic's plugins are not looked for (the search reads every installed
  package's metadata, and its module alone imports ``importlib.metadata``):
  its loader is replaced by one that finds none, which is what
  ``PYDANTIC_DISABLE_PLUGINS=__all__`` makes the real one answer (the module, not the
  variable: settings are read in one place, and a forked child keeps the module);

Nothing here changes what a query returns: the driver's numpy support only
converts numpy values passed as parameters, which Nous never passes.

:func:`import_asyncio` is the same for asyncio, once the hook knows where
Neo4j is: a plain ``bolt://`` address (:func:`plain_bolt`, what the hook's
own Bolt client speaks) needs no TLS, so asyncio is loaded without ``ssl``
(the module and OpenSSL's TLS library it loads cost a hook about a quarter of
a bare interpreter's start).
"""

from __future__ import annotations

import sys
import types
from urllib.parse import urlsplit

_OPTIONAL_DEPS = "neo4j._optional_deps"
_PLUGIN_LOADER = "pydantic.plugin._loader"


def lean_process() -> None:
    """Leave out what a hook never uses (see the module); a no-op once the driver is loaded."""
    if "pydantic" not in sys.modules and _PLUGIN_LOADER not in sys.modules:
        loader = types.ModuleType(_PLUGIN_LOADER, "pydantic's plugin loader, finding none.")
        loader.get_plugins = _no_plugins  # type: ignore[attr-defined]
        sys.modules[_PLUGIN_LOADER] = loader
    if "neo4j" in sys.modules or _OPTIONAL_DEPS in sys.modules:
        return
    stub = types.ModuleType(_OPTIONAL_DEPS, "The driver's optional dependencies, left off.")
    stub.np = None  # type: ignore[attr-defined]
    stub.pd = None  # type: ignore[attr-defined]
    stub.__all__ = ["np", "pd"]  # type: ignore[attr-defined]
    sys.modules[_OPTIONAL_DEPS] = stub


def _no_plugins() -> tuple[()]:
    return ()


def plain_bolt(uri: str) -> bool:
    """Whether ``uri`` is a plain ``bolt://host[:port]`` address: no routing, no TLS."""
    parts = urlsplit(uri)
    return (
        parts.scheme == "bolt" and bool(parts.hostname) and not parts.path.strip("/") + parts.query
    )


def import_asyncio(*, tls: bool) -> None:
    """Load asyncio; without ``tls``, with no ``ssl`` behind it (see the module).

    asyncio takes ``ssl`` as optional: loaded while ``ssl`` cannot be, it
    works as before for every connection without TLS, and refuses one with
    TLS ("stdlib ssl module not available"). So only a process that will
    never open one may ask for ``tls=False``; ``ssl`` itself stays loadable
    afterwards. A no-op once asyncio is loaded.
    """
    if tls or "asyncio" in sys.modules or "ssl" in sys.modules:
        import asyncio

        return
    sys.modules["ssl"] = None  # type: ignore[assignment]  # "import ssl" now raises ImportError
    try:
        import asyncio  # noqa: F401
    finally:
        del sys.modules["ssl"]
