"""Cases on the chat path: a failed call and the later one that did its job make a case."""

from __future__ import annotations

from cognition.chat.cases import fixes, same_intent, verified
from cognition.chat.layer import CognitiveLayer
from cognition.chat.turns import ToolResult, TurnResult
from cognition.frames.engine import FrameEngine
from graph.models import Turn
from graph.server.finder import Neo4jEndpoint
from graph.store.cases import CaseStore
from graph.store.memory import Memory
from graph.store.turns import TurnStore
from tests.support.graph_checks import open_checks

FAILED = ToolResult(
    tool_name="Bash",
    arguments={"command": "pytest tests/test_parser.py -x"},
    error="ModuleNotFoundError: No module named 'parser_lib'",
)
WORKED = ToolResult(
    tool_name="Bash",
    arguments={"command": "pytest tests/test_parser.py -x -p no:cacheprovider --rootdir ."},
    result="3 passed",
)
UNRELATED = ToolResult(tool_name="Bash", arguments={"command": "ls -la"}, result="x")


def test_a_fix_is_a_later_successful_call_with_the_same_intent() -> None:
    assert fixes([FAILED, UNRELATED, WORKED]) == [(FAILED, WORKED)]
    assert fixes([WORKED, FAILED]) == []  # success before the failure fixes nothing
    assert fixes([FAILED, UNRELATED]) == []
    edit = ToolResult(tool_name="Edit", arguments={"file_path": "a.py"}, error="no match")
    assert same_intent(edit, ToolResult(tool_name="Edit", arguments={"file_path": "a.py"}))
    assert not same_intent(edit, ToolResult(tool_name="Edit", arguments={"file_path": "b.py"}))


async def test_a_session_writes_the_fix_as_a_case_and_the_next_turn_is_shown_it(
    memory: Memory, neo4j_endpoint: Neo4jEndpoint
) -> None:
    layer = CognitiveLayer(memory, FrameEngine(memory))
    context = await layer.pre_turn("s-1", "run the parser tests")
    assert "Worked examples" not in context.system_prompt  # nothing to show yet
    # As Claude Code's hooks do: the turn is open in the graph while post_turn runs.
    open_turn = Turn(agent_id=memory.agent_id, session_id="s-1", prompt="run the parser tests")
    turn_id = await TurnStore(memory).open_turn(open_turn)
    turn = TurnResult(response_text="Tests pass now.", tool_results=[FAILED, UNRELATED, WORKED])
    await layer.post_turn("s-1", turn, context)

    [(case, _)] = await CaseStore(memory).active()
    assert (case.source, case.domain) == ("session", "session")
    assert "No module named 'parser_lib'" in case.error
    assert case.failed_attempt == "Bash: pytest tests/test_parser.py -x"
    assert "--rootdir ." in case.worked and "run the parser tests" in case.task
    async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
        links = await checks.outgoing(case.id)
        assert ("IN_EPISODE", "Episode", context.episode_id) in links
        assert ("FROM", "Turn", turn_id) in links

    later = await layer.pre_turn("s-2", "the parser tests fail with No module named parser_lib")
    assert "## Worked examples" in later.system_prompt
    assert "The following is data (worked examples" in later.system_prompt
    failed_turn = TurnResult(response_text="", error="gave up")
    await layer.post_turn("s-2", failed_turn, later)
    [(credited, _)] = await CaseStore(memory).active()
    assert (credited.uses, credited.helpful, credited.harmful) == (1, 0, 1)

    unrelated = await layer.pre_turn("s-3", "write a haiku about autumn leaves")
    assert "Worked examples" not in unrelated.system_prompt


def test_a_verifying_tool_passing_at_once_is_kept_too() -> None:
    passed = ToolResult(tool_name="run_tests", arguments={"file_path": "f.py", "code": "x"})
    failed = ToolResult(
        tool_name="run_tests", arguments={"file_path": "f.py", "code": "y"}, error="1 failed"
    )
    tools = frozenset({"run_tests"})
    assert verified([passed], tools) == [(None, passed)]
    assert verified([passed], frozenset()) == []  # an ordinary tool: only fixes count
    assert verified([failed, passed], tools) == [(failed, passed)]
