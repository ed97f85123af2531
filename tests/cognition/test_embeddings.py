"""Embeddings through the LLM client's endpoint: vectors, a refusal remembered, an outage raised."""

from __future__ import annotations

import asyncio

import pytest

from cognition.embeddings import (
    EMBEDDED_MODEL,
    EmbeddedE5,
    Embeddings,
    EndpointEmbedder,
    build_embeddings,
    cosine,
)
from cognition.errors import LLMUnavailableError
from cognition.llm import LLMClient
from graph.settings import EmbeddingSettings, LLMSettings
from tests.support.eventually import eventually
from tests.support.llm_stub import LLMStub, stub_embedding


async def test_vectors_come_back_in_order() -> None:
    with LLMStub() as stub:
        async with LLMClient(LLMSettings(base_url=stub.base_url)) as llm:
            vectors = await Embeddings(EndpointEmbedder(llm, "embedder")).embed(["a b", "c d"])
        [request] = stub.embedding_requests
    assert vectors == [stub_embedding("a b"), stub_embedding("c d")]
    assert request.body == {
        "model": "embedder",
        "input": ["a b", "c d"],
        "encoding_format": "float",
    }


async def test_an_endpoint_without_embeddings_is_asked_once() -> None:
    with LLMStub() as stub:
        stub.embeddings = False
        async with LLMClient(LLMSettings(base_url=stub.base_url)) as llm:
            endpoint = EndpointEmbedder(llm, "embedder")
            embeddings = Embeddings(endpoint)
            assert await embeddings.embed(["a"]) is None
            assert await embeddings.embed(["b"]) is None
        assert len(stub.embedding_requests) == 1 and endpoint.served is False


async def test_a_malformed_reply_is_an_outage_and_the_next_one_is_used() -> None:
    with LLMStub() as stub:
        async with LLMClient(LLMSettings(base_url=stub.base_url)) as llm:
            endpoint = EndpointEmbedder(llm, "embedder")
            stub.embedding_fault = lambda vectors: vectors[:1]  # one vector for two texts
            with pytest.raises(LLMUnavailableError, match="1 vectors for 2 texts"):
                await endpoint.embed(["a", "b"], query=False)
            stub.embedding_fault = lambda vectors: [[], *vectors[1:]]
            with pytest.raises(LLMUnavailableError, match="malformed reply from model 'embedder'"):
                await endpoint.embed(["a", "b"], query=False)
            stub.embedding_fault = None
            assert await endpoint.embed(["a", "b"], query=False) == [
                stub_embedding("a"),
                stub_embedding("b"),
            ]
        assert len(stub.embedding_requests) == 3 and endpoint.served is True


async def test_vectors_of_another_dimension_are_refused_not_stored() -> None:
    with LLMStub() as stub:
        async with LLMClient(LLMSettings(base_url=stub.base_url)) as llm:
            endpoint = EndpointEmbedder(llm, "embedder")
            assert await endpoint.embed(["a"], query=False) is not None
            width = endpoint.dimensions
            # The endpoint's model was swapped for one with narrower vectors.
            stub.embedding_fault = lambda vectors: [v[: width // 2] for v in vectors]
            with pytest.raises(LLMUnavailableError, match=rf"\[{width // 2}\] dimensions, {width}"):
                await endpoint.embed(["b"], query=False)
            # Mixed widths in one reply are refused as well, before any is known.
            fresh = EndpointEmbedder(llm, "embedder")
            stub.embedding_fault = lambda vectors: [vectors[0], vectors[1][:8]]
            with pytest.raises(LLMUnavailableError, match=rf"\[8, {width}\] dimensions"):
                await fresh.embed(["a", "b"], query=False)
            assert fresh.dimensions == 0


async def test_an_unreachable_endpoint_raises() -> None:
    settings = LLMSettings(base_url="http://127.0.0.1:9/v1", timeout_s=2.0)
    async with LLMClient(settings) as llm:
        with pytest.raises(LLMUnavailableError):
            await Embeddings(EndpointEmbedder(llm, "embedder")).embed(["a"])


async def test_an_embeddings_request_waits_for_the_clients_one_turn() -> None:
    with LLMStub() as stub:
        async with LLMClient(LLMSettings(base_url=stub.base_url)) as llm:
            async with llm.turn("decision"):  # a chat request in flight holds the turn
                waiting = asyncio.create_task(
                    Embeddings(EndpointEmbedder(llm, "embedder")).embed(["a"])
                )

                async def queued() -> bool:
                    return llm.waiting_requests == 1

                await eventually(queued, "the embeddings request queued for the turn")
                assert not waiting.done() and stub.embedding_requests == []
            assert await waiting == [stub_embedding("a")]
            assert llm.state.requests_sent == 2  # the turn above, and the embeddings request


async def test_the_cache_asks_the_endpoint_once_per_text() -> None:
    with LLMStub() as stub:
        async with LLMClient(LLMSettings(base_url=stub.base_url)) as llm:
            embeddings = Embeddings(EndpointEmbedder(llm, "embedder"), batch=2)
            first = await embeddings.passages(["a", "b", "c"])
            again = await embeddings.passages(["c", "a"])
        assert [(r.body or {})["input"] for r in stub.embedding_requests] == [["a", "b"], ["c"]]
    assert first is not None and again == [first[2], first[0]]


@pytest.mark.parametrize("cache_size", [0, 1])
async def test_a_cache_smaller_than_the_texts_still_embeds_each_text_once(cache_size: int) -> None:
    # cache_size 0 is a setting the benchmarks use; a text must not be embedded twice for it.
    with LLMStub() as stub:
        async with LLMClient(LLMSettings(base_url=stub.base_url)) as llm:
            embeddings = Embeddings(EndpointEmbedder(llm, "embedder"), cache_size=cache_size)
            vectors = await embeddings.passages(["a", "b", "a"])
        assert [(r.body or {})["input"] for r in stub.embedding_requests] == [["a", "b"]]
    assert vectors == [stub_embedding("a"), stub_embedding("b"), stub_embedding("a")]


async def test_the_embedded_model_finds_meaning_across_words_and_languages() -> None:
    embeddings = Embeddings(EmbeddedE5(threads=1))
    assert (embeddings.model, embeddings.dimensions) == (EMBEDDED_MODEL, 384)
    passages = await embeddings.passages(
        ["npm publish failed: one-time password required", "the tomatoes need water"]
    )
    assert passages is not None and all(len(v) == 384 for v in passages)
    for question in ("why did the release break?", "Warum ist die Veröffentlichung gescheitert?"):
        query = await embeddings.query(question)
        assert query is not None
        assert cosine(query, passages[0]) > cosine(query, passages[1]), question


def test_the_provider_follows_the_settings() -> None:
    assert build_embeddings(EmbeddingSettings(provider="off"), None) is None
    embedded = build_embeddings(EmbeddingSettings(), None)
    assert embedded is not None and embedded.model == EMBEDDED_MODEL
    with pytest.raises(ValueError, match=r"embeddings\.model is required"):
        EmbeddingSettings(provider="endpoint")
