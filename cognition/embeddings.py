"""Embedding vectors from the LLM endpoint's ``/v1/embeddings``, where it serves them.

LM Studio, Ollama, vLLM and llama.cpp serve the route (with an embedding
model loaded); many endpoints do not. :class:`Embeddings` asks through the
one :class:`~cognition.llm.LLMClient`'s SDK client, in its turn, and remembers a refusal,
so a caller that can do without (de-duplication falls back to asking the
model) pays for it once.
"""

from __future__ import annotations

import asyncio
import logging

import openai

from cognition.errors import LLMUnavailableError
from cognition.llm import LLMClient

log = logging.getLogger(__name__)

# Answers that mean "no embeddings here" (no route, no embedding model), not "endpoint down".
_NOT_SERVED = (400, 404, 405, 422, 501)


class Embeddings:
    """``/v1/embeddings`` of ``llm``'s endpoint, asking for ``model``."""

    def __init__(self, llm: LLMClient, model: str, *, timeout_s: float = 60.0) -> None:
        self.llm = llm
        self.model = model
        self.timeout_s = timeout_s
        self.served: bool | None = None  # None until asked; False once refused

    async def embed(self, texts: list[str]) -> list[list[float]] | None:
        """One vector per text, or None where the endpoint serves no embeddings.

        Raises :class:`LLMUnavailableError` when the endpoint cannot be
        reached or the LLM client is backing off after a failure.
        """
        if self.served is False:
            return None
        if not texts:
            return []
        if self.llm.backing_off:
            raise LLMUnavailableError("embeddings: LLM endpoint unavailable (backing off)")
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
        if len(vectors) != len(texts) or not all(vectors):
            self.served = False
            return None
        self.served = True
        return vectors
