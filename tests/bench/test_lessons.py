"""bench.lessons: the shipped library's tasks are solvable, and the arms run end to end."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from bench.lessons import (
    DEFAULT_LIBRARY,
    LessonsResult,
    chosen_arms,
    format_lessons,
    main,
    run_lessons,
)
from bench.lessons_agent import (
    RESAMPLE_TEMPERATURE,
    RETRY_TEMPERATURE,
    LessonAgent,
    fresh_memory,
)
from bench.lessons_library import (
    LessonTask,
    LibraryError,
    lesson_problem,
    library_warnings,
    load_library,
    solution_module,
)
from bench.lessons_trace import Trace
from bench.model_wait import ModelStalled
from cognition.llm import LLMClient
from graph.models import new_id
from graph.server.finder import Neo4jEndpoint
from graph.settings import CaseSettings, LLMSettings, Settings
from graph.store.driver import GraphDriver
from rsi.sandbox import run_problem
from tests.support.graph_checks import open_checks
from tests.support.llm_stub import LLMStub, RecordedRequest, Reply

MINI = '''
def span(text, start, end):
    """Positions counted from 1, both ends included."""
    if start < 1:
        raise ValueError("span: positions are counted from 1")
    return text[start - 1 : end]


def label(name, value):
    return f"<{name}|{value}>"
'''
TASKS = [
    ("p_first2", "first_two", "the first 2 characters of `text`, using `mini.span`",
     ['assert first_two("abcd") == "ab"'], "practice", "span", "mini.span(text, 1, 2)"),
    ("p_tag", "tag", "the mini label of `name` and `value`, using `mini.label`",
     ['assert tag("a", 1) == "<a|1>"'], "practice", "label", "mini.label(name, value)"),
    ("h_first3", "first_three", "the first 3 characters of `text`, using `mini.span`",
     ['assert first_three("abcd") == "abc"'], "held_out", "span", "mini.span(text, 1, 3)"),
    ("h_first4", "first_four", "the first 4 characters of `text`, using `mini.span`",
     ['assert first_four("abcdef") == "abcd"'], "held_out", "span", "mini.span(text, 1, 4)"),
    ("h_size", "size_tag", "the mini label of `name` and `value`, using `mini.label`",
     ['assert size_tag("s", 2) == "<s|2>"'], "held_out", "label", "mini.label(name, value)"),
]  # fmt: skip
ARGS = {"span": "text", "label": "name, value"}
# Every shipped library, with the reference solution of each of its tasks (written for this
# test: each task is solvable). stock is the second library, a check that what nous learns on
# tally is not tally's: `python -m bench.lessons --library bench/lessons_lib/stock`.
SHIPPED = {
    "tally": (DEFAULT_LIBRARY, "lessons_reference.jsonl"),
    "stock": (DEFAULT_LIBRARY.parent / "stock", "lessons_reference_stock.jsonl"),
}


def reference(file_name: str) -> dict[str, str]:
    """Task id -> the reference solution's code, from a file beside this test."""
    lines = (Path(__file__).parent / file_name).read_text().splitlines()
    return {row["id"]: row["code"] for row in map(json.loads, lines)}


def write_mini(folder: Path) -> Path:
    folder.mkdir()
    (folder / "mini.py").write_text(MINI)
    (folder / "signatures.md").write_text(
        "- `mini.span(text, start, end)`\n- `mini.label(name, value)`\n"
    )
    rows = [
        {"id": i, "prompt": f"Write `{e}({ARGS[f]})` that returns {what}.", "entry_point": e,
         "tests": tests, "split": split}
        for i, e, what, tests, split, f, _ in TASKS
    ]  # fmt: skip
    (folder / "tasks.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return folder


def model(request: RecordedRequest) -> Reply:
    """Wrong at first (a 0-based guess, a guessed format); right after reading the test output,
    or at once when a worked example in the context shows the same library function."""
    system, user = str(request.messages[0]["content"]), str(request.messages[-1]["content"])
    entry = re.search(r"defines `(\w+)`", user)
    assert entry, user
    _, name, _, _, _, function, right = next(t for t in TASKS if t[1] == entry.group(1))
    example = "What worked" in system and f"mini.{function}(" in system.split("What worked")[-1]
    knows = example or "Your previous attempt" in user
    body = (
        right if knows else ("mini.span(text, 0, 2)" if function == "span" else "f'{name}={value}'")
    )
    code = f"import mini\n\n\ndef {name}({ARGS[function]}):\n    return {body}\n"
    return Reply.text(f"Here is the module.\n```python\n{code}```")


@pytest.mark.parametrize("name", sorted(SHIPPED))
async def test_every_shipped_task_passes_with_its_reference_solution(name: str) -> None:
    folder, reference_file = SHIPPED[name]
    library = load_library(folder)
    assert library.name == name
    functions = re.findall(rf"`{name}\.(\w+)\(", library.signatures)
    assert len(functions) >= 12
    assert (len(library.split("practice")), len(library.split("held_out"))) == (40, 64)
    for task in library.tasks:
        used = set(re.findall(rf"{name}\.(\w+)", task.prompt))
        assert 1 <= len(used) <= 3 and used <= set(functions), task.id
    solutions = reference(reference_file)
    assert set(solutions) == {t.id for t in library.tasks}
    gate = asyncio.Semaphore(4)

    async def check(task_id: str) -> tuple[str, bool, str]:
        task = next(t for t in library.tasks if t.id == task_id)
        async with gate:
            problem = lesson_problem(task, library.name)
            result = await run_problem(
                problem, solution_module(library, solutions[task_id]), timeout_s=20
            )
        return task_id, result.success, result.output

    results = await asyncio.gather(*(check(i) for i in solutions))
    failed = [(i, out) for i, ok, out in results if not ok]
    assert not failed


async def test_an_assert_naming_a_standard_module_passes_a_right_answer(tmp_path: Path) -> None:
    # The checks run apart from the solution and see its functions, not its imports: the
    # check imports what its asserts name, or `math.isclose` fails every right answer.
    library = load_library(write_mini(tmp_path / "mini"))
    task = LessonTask(
        "mini/ratio",
        "Write `ratio(a, b)`.",
        "ratio",
        ("assert math.isclose(ratio(1, 3), 1 / 3)", "assert ratio(2, 4) == statistics.mean([0.5])"),
        "held_out",
    )
    code = "def ratio(a, b):\n    return a / b\n"  # imports neither module
    problem = lesson_problem(task, "mini")
    result = await run_problem(problem, solution_module(library, code), timeout_s=20)
    assert result.success, result.output
    wrong = "def ratio(a, b):\n    return b / a\n"
    result = await run_problem(problem, solution_module(library, wrong), timeout_s=20)
    assert not result.success and "NameError" not in result.output
    # An entry point named like a standard module is the solution's function, not the module.
    named = LessonTask("t", "p", "calendar", ("assert calendar(2) == math.floor(2.5)",), "held_out")
    check = lesson_problem(named, "mini").check
    assert "import math" in check and "import calendar" not in check
    # A name the assert binds is no module, and a library named like one is the library.
    bound = LessonTask("t", "p", "f", ("assert all(test > 0 for test in f())",), "held_out")
    assert "import" not in lesson_problem(bound, "mini").check
    stats = LessonTask("t", "p", "f", ("assert f() == statistics.mean([1])",), "held_out")
    assert "import" not in lesson_problem(stats, "statistics").check
    assert library_warnings(library) == []


def test_a_bad_library_is_refused_naming_the_file_line_and_key(tmp_path: Path) -> None:
    folder = write_mini(tmp_path / "mini")
    tasks = folder / "tasks.jsonl"
    lines = tasks.read_text().splitlines()
    tasks.write_text("\n".join([lines[0], lines[1].replace('"split": "practice"', '"split": "x"')]))
    with pytest.raises(LibraryError, match=r"tasks.jsonl line 2: key 'split'"):
        load_library(folder)
    tasks.write_text('{"id": "a", "prompt": "p", "entry_point": "f", "split": "practice"}\n')
    with pytest.raises(LibraryError, match=r"line 1: key 'tests' missing"):
        load_library(folder)
    tasks.write_text('{"id": "a", "prompt": "p", "entry_point": "f", "tests": ["x = 1"], '
                     '"split": "practice"}\n')  # fmt: skip
    with pytest.raises(LibraryError, match="not one assert"):
        load_library(folder)
    (folder / "signatures.md").unlink()
    with pytest.raises(LibraryError, match=r"signatures\.md: missing"):
        load_library(folder)


async def test_the_arms_end_to_end_with_the_scripted_model(
    driver: GraphDriver, tmp_path: Path
) -> None:
    library = load_library(write_mini(tmp_path / "mini"))
    with LLMStub(default=model, model="stub-coder") as stub:
        settings = Settings(
            llm=LLMSettings(base_url=stub.base_url), cases=CaseSettings(per_prompt=1)
        )
        async with LLMClient(settings.llm) as llm:
            result = await run_lessons(llm, settings, driver, library, online=True)
        requests = stub.chat_requests
    arms = result.arms
    assert result.cases_after_practice == 2  # each practice task: a failure, then the fix
    assert arms["memoryless"].first == [False, False, False]
    assert arms["memoryless"].within == [True, True, True]
    assert arms["memoryless"].attempts_per_task == 2.0
    assert arms["nous"].first == [True, True, True] and arms["nous"].attempts_per_task == 1.0
    assert arms["nous online"].first == [True, True, True]
    assert sum(arms["random"].first) <= 3 and arms["random"].tokens_per_attempt > 0
    assert result.mcnemar["nous vs memoryless"]["nous only"] == 3
    retries = [r for r in requests if "Your previous attempt" in str(r.messages[-1]["content"])]
    assert retries and all("data (test output)" in str(r.messages[-1]["content"]) for r in retries)
    assert "raised ValueError: span: positions are counted from 1" in str(retries[0].messages)
    # A first attempt is greedy, a retry samples (greedy retries repeated the failed code).
    firsts = [r for r in requests if r not in retries and r.path.endswith("/chat/completions")]
    assert firsts and {(r.body or {}).get("temperature") for r in firsts} == {0.0}
    assert {(r.body or {}).get("temperature") for r in retries} == {RETRY_TEMPERATURE}
    shown = [r for r in requests if "## Worked examples" in str(r.messages[0]["content"])]
    assert shown and all("data (worked examples" in str(r.messages[0]["content"]) for r in shown)
    text = format_lessons(result)
    assert "nous         first attempt 1.000 (3/3)" in text and "McNemar" in text


async def test_a_second_practice_round_retries_only_what_the_first_did_not_pass(
    driver: GraphDriver, tmp_path: Path
) -> None:
    library = load_library(write_mini(tmp_path / "mini"))
    asked: list[str] = []

    def stubborn(request: RecordedRequest) -> Reply:
        """The scripted model, except that ``tag`` fails its first three attempts."""
        user = str(request.messages[-1]["content"])
        entry = re.search(r"defines `(\w+)`", user)
        assert entry, user
        asked.append(entry.group(1))
        if entry.group(1) == "tag" and asked.count("tag") <= 3:
            wrong = "x" * asked.count("tag")  # wrong anew each time: nothing is asked again
            return Reply.text(
                f"```python\nimport mini\n\n\ndef tag(name, value):\n    return '{wrong}'\n```"
            )
        return model(request)

    with LLMStub(default=stubborn, model="stub-coder") as stub:
        settings = Settings(
            llm=LLMSettings(base_url=stub.base_url), cases=CaseSettings(per_prompt=1)
        )
        async with LLMClient(settings.llm) as llm:
            result = await run_lessons(
                llm, settings, driver, library, practice_rounds=3, arms=("nous",)
            )
    # Round 1: both tasks, tag failing three times; round 2: tag alone, passing; no round 3.
    assert result.practice_rounds == [(2, 1), (1, 1)]
    assert asked[:6] == ["first_two", "first_two", "tag", "tag", "tag", "tag"]
    assert list(result.arms) == ["nous"] and not result.mcnemar  # the arms asked for, no more
    assert result.arms["nous"].first == [True, True, True]  # tag's late case reaches size_tag
    assert result.cases_after_practice == 2
    text = format_lessons(result)
    assert "practice rounds (passed within 3 / tried): 1/2, 1/1" in text
    assert "nous alone: no arm to compare it with" in text


async def test_code_that_already_failed_is_asked_again_hotter_instead_of_run_again(
    driver: GraphDriver, tmp_path: Path
) -> None:
    library = load_library(write_mini(tmp_path / "mini"))
    wrong = "```python\nimport mini\n\n\ndef size_tag(name, value):\n    return ''\n```"
    temperatures: list[float] = []

    def repeating(request: RecordedRequest) -> Reply:
        """Greedy and at 0.7 the same wrong code; at 1.0 the right one."""
        temperatures.append(float((request.body or {})["temperature"]))
        return model(request) if temperatures[-1] == RESAMPLE_TEMPERATURE else Reply.text(wrong)

    [size_tag] = [t for t in library.split("held_out") if t.entry_point == "size_tag"]
    trace = tmp_path / "trace.jsonl"
    with LLMStub(default=repeating, model="stub-coder") as stub:
        settings = Settings(llm=LLMSettings(base_url=stub.base_url))
        async with LLMClient(settings.llm) as llm:
            agent = LessonAgent(llm, library, settings, Trace.open(trace))
            outcomes = await agent.memoryless(driver, [size_tag])
            assert agent.trace is not None
            agent.trace.close()
    # Attempt 1 fails; attempt 2's reply repeats it, so it is asked again at 1.0 and passes.
    assert temperatures == [0.0, RETRY_TEMPERATURE, RESAMPLE_TEMPERATURE]
    assert (outcomes.first, outcomes.within, outcomes.attempts) == ([False], [True], [2])
    assert outcomes.resamples == 1
    ran = [json.loads(line)["code"] for line in trace.read_text().splitlines()]
    assert len(ran) == 2 and ran[0] != ran[1]  # the repeat never ran
    assert "1 repeats of failed code asked again" in format_lessons(
        LessonsResult("m", "mini", 2, ["h_size"], arms={"nous": outcomes})
    )


def test_arms_are_chosen_by_name_and_nous_always_runs() -> None:
    assert chosen_arms("random") == ("nous", "random")
    assert chosen_arms("random, memoryless") == ("memoryless", "nous", "random")
    with pytest.raises(ValueError, match="unknown arm\\(s\\) bogus"):
        chosen_arms("bogus,nous")


def test_the_command_refuses_a_folder_that_is_not_a_library(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--library", str(tmp_path / "nowhere")]) == 2
    assert f"{tmp_path / 'nowhere'}: not a library folder" in capsys.readouterr().err


async def test_a_frozen_arm_opens_no_decision_and_learns_nothing_from_its_tasks(
    driver: GraphDriver, neo4j_endpoint: Neo4jEndpoint, tmp_path: Path
) -> None:
    # Each prompt ("Write `f(x)` that returns …") is a task: in practice its turn opens a
    # decision and learns from the outcome; held out, with the memory frozen, it opens none.
    library = load_library(write_mini(tmp_path / "mini"))
    with LLMStub(default=model, model="stub-coder") as stub:
        settings = Settings(llm=LLMSettings(base_url=stub.base_url))
        frozen = fresh_memory(driver, f"bench-frozen-{new_id().lower()}")
        async with LLMClient(settings.llm) as llm, frozen as memory:
            agent = LessonAgent(llm, library, settings)
            await agent.run(memory, library.split("practice"), learn=True)
            async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
                learned = await checks.counts()
                await agent.run(memory, library.split("held_out"), learn=False)
                held = await checks.counts()
    assert learned.get("Decision") == len(library.split("practice"))
    assert learned.get("Pattern", 0) >= 1  # what the practice turns' outcomes taught
    for label in ("Decision", "Pattern", "Lesson", "Case", "Censor"):
        assert held.get(label, 0) == learned.get(label, 0), label


async def test_a_model_that_stalls_is_waited_for_and_no_task_counts_unasked(
    driver: GraphDriver, tmp_path: Path
) -> None:
    # The endpoint stops answering (its chat requests fail, its health check too) for about a
    # second, then comes back: every task is still asked (the client's backoff never answers
    # for the model), and the request that failed is asked again.
    library = load_library(write_mini(tmp_path / "mini"))
    with LLMStub(default=model, model="stub-coder") as stub:
        stub.healthy = False
        stub.script(*[Reply.error(503)] * 3)
        llm_settings = LLMSettings(base_url=stub.base_url, health_backoff_s=[0.2])
        settings = Settings(llm=llm_settings, cases=CaseSettings(per_prompt=1))

        async def resume() -> None:
            await asyncio.sleep(1.0)
            stub.healthy = True

        async with LLMClient(settings.llm) as llm:
            resumed = asyncio.create_task(resume())
            result = await run_lessons(
                llm, settings, driver, library, arms=("nous",), patience_s=30
            )
            await resumed
        asked = [r.messages for r in stub.chat_requests[:4]]
        health_checks = len(stub.model_requests)
    assert asked[0] == asked[1] == asked[2] == asked[3], "the failed request was asked again"
    assert health_checks > 1, "the endpoint's health was waited for"
    assert result.practice_rounds[0][0] == 2, "both practice tasks were tried"
    nous = result.arms["nous"]
    assert len(nous.first) == 3 and all(n >= 1 for n in nous.attempts), "each task was asked"


async def test_a_model_that_never_comes_back_stops_the_bench_and_says_so(
    driver: GraphDriver, tmp_path: Path
) -> None:
    library = load_library(write_mini(tmp_path / "mini"))
    with LLMStub(default=Reply.error(503), model="stub-coder") as stub:
        stub.healthy = False
        llm_settings = LLMSettings(base_url=stub.base_url, health_backoff_s=[0.1])
        settings = Settings(llm=llm_settings, cases=CaseSettings(per_prompt=1))
        async with LLMClient(settings.llm) as llm:
            with pytest.raises(ModelStalled, match=r"did not answer for 1 s .*never asked"):
                await run_lessons(llm, settings, driver, library, arms=("nous",), patience_s=1)
    assert len(stub.chat_requests) == 1, "one request failed; none was answered by the client"
