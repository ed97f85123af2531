"""The ingestor: classify, drop noise, write in priority order, keep what fails to write."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from cognition.sense.classify import ObservationClassifier
from cognition.sense.ingest import Ingestor
from graph.errors import MemoryUnavailableError
from graph.models import Observation, ObservationType
from graph.settings import SenseSettings
from graph.store.memory import Memory

CLASSIFIER = ObservationClassifier(SenseSettings())


def _obs(agent_id: str, kind: ObservationType, path: str | None) -> Observation:
    return Observation(agent_id=agent_id, type=kind, path=path)


async def test_noise_is_dropped_and_the_rest_written_classified(memory: Memory) -> None:
    ingestor = Ingestor(memory, CLASSIFIER, batch_size=2)
    kept = ingestor.submit(
        [
            _obs(memory.agent_id, ObservationType.FILE_CREATED, "_intake/new.md"),
            _obs(memory.agent_id, ObservationType.FILE_MODIFIED, "notes/.draft.md.swp"),
            _obs(memory.agent_id, ObservationType.FILE_MODIFIED, "docs/guide.md"),
            _obs(memory.agent_id, ObservationType.TASK_FAILED, None),
        ]
    )
    assert len(kept) == 3 and ingestor.stats.noise_dropped == 1
    assert await ingestor.flush() == 3
    assert ingestor.queue_depth == 0 and ingestor.stats.batches == 2
    [intake] = await memory.observations_for_path("_intake/new.md")
    assert (intake.urgency.value, intake.category.value) == ("urgent", "intake")
    [doc] = await memory.observations_for_path("docs/guide.md")
    assert (doc.urgency.value, doc.category.value) == ("routine", "knowledge")
    assert await memory.observation_counts() == (3, 3)


class FlakyMemory(Memory):
    """The real memory, with the first ``failures`` writes refused and every batch noted."""

    def __init__(self, memory: Memory, failures: int) -> None:
        super().__init__(memory.driver, memory.agent_id)
        self.failures = failures
        self.batches: list[list[str]] = []

    async def record_observations(
        self, observations: Sequence[Observation], *, batch_size: int = 1000
    ) -> int:
        self.batches.append([o.type.value for o in observations])
        if self.failures > 0:
            self.failures -= 1
            raise MemoryUnavailableError("Neo4j went away (injected)")
        return await super().record_observations(observations, batch_size=batch_size)


async def test_critical_observations_are_written_first(memory: Memory) -> None:
    spy = FlakyMemory(memory, failures=0)
    ingestor = Ingestor(spy, CLASSIFIER, batch_size=1)
    ingestor.submit(
        [
            _obs(memory.agent_id, ObservationType.FILE_MODIFIED, "docs/a.md"),
            _obs(memory.agent_id, ObservationType.FILE_DELETED, "docs/b.md"),
            _obs(memory.agent_id, ObservationType.PROCESS_FAILED, None),
        ]
    )
    stop = asyncio.Event()
    writer = asyncio.create_task(ingestor.run(stop))
    assert await ingestor.wait_idle(10)
    stop.set()
    await writer
    assert spy.batches == [["process_failed"], ["file_deleted"], ["file_modified"]]
    assert await memory.observation_counts() == (3, 3)


async def test_a_failing_write_is_retried_and_nothing_is_lost_or_doubled(memory: Memory) -> None:
    flaky = FlakyMemory(memory, failures=2)
    ingestor = Ingestor(flaky, CLASSIFIER, batch_size=10, retry_backoff_s=[0.01])
    ingestor.submit(
        [_obs(memory.agent_id, ObservationType.FILE_CREATED, f"f{i}.md") for i in range(5)]
    )
    stop = asyncio.Event()
    writer = asyncio.create_task(ingestor.run(stop))
    assert await ingestor.wait_idle(10)
    stop.set()
    await writer
    assert len(flaky.batches) == 3  # two refusals, then the same batch written once
    assert ingestor.stats.last_error is not None and "injected" in ingestor.stats.last_error
    assert await memory.observation_counts() == (5, 5)


async def test_flush_gives_up_after_its_attempts_but_keeps_the_queue(memory: Memory) -> None:
    flaky = FlakyMemory(memory, failures=100)
    ingestor = Ingestor(flaky, CLASSIFIER, batch_size=10, retry_backoff_s=[0.01])
    ingestor.submit([_obs(memory.agent_id, ObservationType.FILE_CREATED, "f.md")])
    assert await ingestor.flush(attempts=2) == 0
    assert ingestor.queue_depth == 1
