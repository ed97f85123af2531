"""What a hook's process leaves unloaded (graph.store.lean): asyncio without ssl on plain Bolt."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from graph.store.lean import plain_bolt

# Loads asyncio as the hook does, then says what is loaded, whether ssl still loads, and whether
# a plain TCP connection and a TLS one can be opened through asyncio (to a local server).
_PROBE = """
import json, sys
from graph.store.lean import import_asyncio
import_asyncio(tls=TLS)
import asyncio
loaded = {"asyncio": "asyncio" in sys.modules, "ssl": "ssl" in sys.modules}

async def main():
    async def serve(reader, writer):
        writer.write(b"hi")
        await writer.drain()
        writer.close()
    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    plain = (await reader.read(2)).decode()
    writer.close()
    import ssl
    try:
        await asyncio.open_connection("127.0.0.1", port, ssl=ssl.create_default_context())
        tls = "opened"
    except Exception as exc:
        tls = str(exc)
    server.close()
    return plain, tls

plain, tls = asyncio.run(main())
print(json.dumps({**loaded, "plain": plain, "tls": tls}))
"""


def _probe(tls: bool) -> dict[str, object]:
    code = _PROBE.replace("TLS", str(tls))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_a_process_on_plain_bolt_loads_asyncio_without_ssl_and_still_connects() -> None:
    seen = _probe(tls=False)
    assert (seen["asyncio"], seen["ssl"], seen["plain"]) == (True, False, "hi")
    # ssl itself still loads afterwards; asyncio refuses TLS by name instead of half-working.
    assert seen["tls"] == "stdlib ssl module not available"


def test_a_process_that_may_need_tls_loads_asyncio_as_usual() -> None:
    seen = _probe(tls=True)
    assert (seen["asyncio"], seen["ssl"], seen["plain"]) == (True, True, "hi")
    assert seen["tls"] != "stdlib ssl module not available"  # the handshake was tried


@pytest.mark.parametrize(
    ("uri", "plain"),
    [
        ("bolt://127.0.0.1:7687", True),
        ("bolt://[::1]:7687", True),
        ("bolt://localhost", True),
        ("bolt://localhost/", True),
        ("bolt://", False),
        ("bolt://localhost/neo4j", False),
        ("bolt://localhost:7687?policy=x", False),
        ("neo4j://127.0.0.1:7687", False),
        ("bolt+s://db.example.com:7687", False),
        ("neo4j+ssc://db.example.com", False),
        ("BOLT://localhost", True),  # urlsplit lowers the scheme
        ("localhost:7687", False),
    ],
)
def test_plain_bolt_is_a_host_and_nothing_else(uri: str, plain: bool) -> None:
    assert plain_bolt(uri) is plain


def test_a_lean_process_keeps_the_cyclic_collector() -> None:
    """Tests call the hook in their own process: only the console script turns it off."""
    code = "import gc\nfrom graph.store.lean import lean_process\n"
    code += "lean_process()\nprint(gc.isenabled())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True"
