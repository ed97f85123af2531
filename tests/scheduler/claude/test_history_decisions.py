"""Decisions from the git history: a commit that states a rule becomes a decision of the project."""

from __future__ import annotations

from pathlib import Path

from graph.server.finder import Neo4jEndpoint
from graph.settings import load_settings
from graph.store.memory import Memory
from graph.store.team_decisions import TeamDecisionStore
from tests.support.git_repo import commit, new_repo
from tests.support.hook_session import EMPTY, Session


async def test_a_rule_in_a_commit_message_is_quoted_from_its_commit(
    memory: Memory, neo4j_endpoint: Neo4jEndpoint, tmp_path: Path
) -> None:
    repo = new_repo(tmp_path / "project")
    commit(repo, "Add the retrier", {"net/retry.py": "MAX_ATTEMPTS = 5"})
    rule = commit(
        repo,
        "retry: MAX_ATTEMPTS is 7\n\nMAX_ATTEMPTS is 7, measured to the rate-limit window; "
        "do not round it to 10.",
        {"net/retry.py": "MAX_ATTEMPTS = 7"},
    )
    commit(repo, "docs: typo", {"README.md": "retry"})
    project = f"example.org/{memory.agent_id}"
    environ = {
        "NOUS_AGENT_ID": memory.agent_id,
        "NOUS_PROJECT": project,
        "NEO4J_URI": neo4j_endpoint.uri,
        "NEO4J_USER": neo4j_endpoint.user,
        "NEO4J_PASSWORD": neo4j_endpoint.password,
    }
    session = Session(load_settings(EMPTY, environ=environ), repo, "h-1")
    await session.hook("SessionStart", source="startup")
    await memory.await_text_indexes()

    store = TeamDecisionStore(memory, project)
    [decision] = await store.in_force_about(["MAX_ATTEMPTS"])
    assert decision.source == "commit" and decision.sha == rule
    assert "do not round it to 10" in decision.text and "net/retry.py" in decision.files
    links = await store.provenance(decision.id)
    assert links is not None and links.concerns == ("net/retry.py",)
    assert [(s.label, s.sha) for s in links.stated_in] == [("Commit", rule)]
    answer = await session.hook(
        "UserPromptSubmit", prompt="The retrier crosses the rate-limit window; fix the budget"
    )
    context = dict(session.fields)["UserPromptSubmit additionalContext"]
    quoted = context.index("Decisions in force")
    assert f"(commit {rule[:7]}, " in context[quoted:], answer
