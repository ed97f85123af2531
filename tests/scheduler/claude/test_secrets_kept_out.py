"""Nothing secret is kept (issue 58): a session that printed secrets leaves none in Neo4j.

The session runs through ``nous hook`` as Claude Code runs it, working alone:
its prompt, a ``cat ~/.aws/credentials``, a file read and a failed
``git push`` carry an AWS key pair, a GitHub token and a PEM private key.
Afterwards no text property of any of the agent's nodes holds any of them,
and neither the next session's prompt hook nor MCP ``recall`` and
``censors`` can show one; the markers that replaced them are there instead.
"""

from __future__ import annotations

from pathlib import Path

from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from graph.store.stored_texts import stored_texts
from tests.cognition.sense.test_secrets import AWS_ID, AWS_SECRET, GITHUB, PEM, PEM_BODY
from tests.scheduler.claude.conftest import Opener
from tests.scheduler.claude.mcp_client import call
from tests.support.hook_session import Session, hook_settings

SECRETS = (AWS_ID, AWS_SECRET, GITHUB, PEM_BODY, PEM_BODY[-20:])
CREDENTIALS = f"[default]\naws_access_key_id = {AWS_ID}\naws_secret_access_key = {AWS_SECRET}\n"
PUSH = {"command": f"git push https://{GITHUB}@github.com/acme/api.git main"}
PUSH_ERROR = f"remote: Invalid username or token {GITHUB}.\nfatal: Authentication failed"


async def _printing_session(session: Session) -> None:
    await session.hook("SessionStart", source="startup")
    await session.hook(
        "UserPromptSubmit",
        prompt=(
            f"Fix the failing deploy script: it should use key {AWS_ID} with secret "
            f"aws_secret_access_key={AWS_SECRET} and push with {GITHUB}"
        ),
    )
    shell = {"command": "cat ~/.aws/credentials"}
    await session.hook("PreToolUse", tool_name="Bash", tool_input=shell)
    await session.hook(
        "PostToolUse",
        tool_name="Bash",
        tool_input=shell,
        tool_response={"stdout": CREDENTIALS, "stderr": "", "interrupted": False},
    )
    read = {"file_path": "deploy/id_rsa"}
    await session.hook(
        "PostToolUse",
        tool_name="Read",
        tool_input=read,
        tool_response={"type": "text", "file": {"filePath": "deploy/id_rsa", "content": PEM}},
    )
    for _ in range(2):  # the second failure makes the censor a block
        await session.hook("PreToolUse", tool_name="Bash", tool_input=PUSH)
        await session.hook(
            "PostToolUseFailure", tool_name="Bash", tool_input=PUSH, error=PUSH_ERROR
        )
    await session.hook(
        "Stop",
        last_assistant_message=f"The push failed: token {GITHUB} is refused; key {AWS_ID} works.",
    )
    await session.hook("PreCompact", trigger="manual", custom_instructions="")
    await session.hook("SessionEnd", reason="exit")


async def test_a_session_that_printed_secrets_leaves_none_in_memory(
    memory: Memory, neo4j_endpoint: Neo4jEndpoint, tmp_path: Path, nous_mcp: Opener
) -> None:
    settings = hook_settings(neo4j_endpoint, memory.agent_id)
    await _printing_session(Session(settings, tmp_path, "5e1f0c3a-0b7e-4d55-9c1a-7f2d3e4b5a60"))

    texts = await stored_texts(memory)
    found = [(t.label, t.key) for t in texts if any(s in t.text for s in SECRETS)]
    assert found == []
    kept = "\n".join(t.text for t in texts)
    for kind in ("aws-access-key", "aws-secret-key", "github-token", "private-key"):
        assert f"[secret: {kind}]" in kept, kind
    labels = {t.label for t in texts if "[secret: " in t.text}
    assert {"Turn", "Censor", "WorkingMemory", "Decision"} <= labels, labels

    later = Session(settings, tmp_path, "9a8b7c6d-1e2f-4a3b-8c4d-5e6f7a8b9c0d")
    await later.hook("SessionStart", source="startup")
    await later.hook("UserPromptSubmit", prompt="Fix the deploy push: which AWS key and token?")
    await later.hook("PreToolUse", tool_name="Bash", tool_input=PUSH)
    shown = "\n".join(text for _, text in later.fields)
    assert "[secret: github-token]" in shown, "the push's censor is recalled, marker and all"
    async with nous_mcp() as client:
        shown += await call(client, "recall", question="deploy AWS key token push credentials")
        shown += await call(client, "censors")
    assert not any(secret in shown for secret in SECRETS)
