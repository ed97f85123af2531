"""The door: every kind of record comes out without its secrets, within its limits."""

from __future__ import annotations

from cognition.sense.door import admit
from graph.intake import (
    CommitEntry,
    FileChange,
    HookFields,
    Prompt,
    Provenance,
    Remembered,
    ToolUse,
    TranscriptEntry,
)
from tests.cognition.sense.test_secrets import AWS_ID, AWS_SECRET, GITHUB, PEM, PEM_BODY

SECRETS = (AWS_ID, AWS_SECRET, GITHUB, PEM_BODY)


def test_a_tool_call_is_cleaned_in_its_input_output_and_error_keys_included() -> None:
    call = ToolUse(
        "Bash",
        {"command": f"git push https://x:{GITHUB}@github.com/o/r", GITHUB: [AWS_ID]},
        {"stdout": f"aws_secret_access_key = {AWS_SECRET}\n{PEM}", "code": 1},
        f"fatal: token {GITHUB} rejected",
        Provenance("tool", "s-1"),
    )
    admitted = admit(call)
    assert not any(secret in repr(admitted.record) for secret in SECRETS)
    assert admitted.record.output["code"] == 1  # numbers kept as they were
    assert set(admitted.secrets) >= {"github-token", "aws-secret-key", "private-key"}
    assert admitted.record.provenance == Provenance("tool", "s-1")
    assert admit(call) == admitted  # the same input always comes out the same


def test_each_record_kind_goes_through() -> None:
    said = Provenance("transcript", "s-2", who="user")
    records = [
        Prompt(f"use {AWS_ID}", Provenance("prompt", "s-2")),
        TranscriptEntry("assistant", f"the key is {GITHUB}", 7, said),
        FileChange("a.txt", {"error": f"read {AWS_ID}"}, Provenance("file")),
        HookFields({"custom_instructions": f"keep {GITHUB}"}, Provenance("hook", "s-2")),
        CommitEntry("f" * 40, f"rotate {AWS_ID}", PEM, "Ann <private>x</private>", "2026", ()),
        Remembered("fact", f"token {GITHUB}", f"from {AWS_ID}", Provenance("remember")),
    ]
    for record in records:
        admitted = admit(record)
        assert not any(secret in repr(admitted.record) for secret in SECRETS), record
        assert admitted.secrets, record


def test_a_field_over_its_limit_is_cut_and_said_so() -> None:
    body = "why: " + "x" * 20_000 + f"\n{PEM}"
    commit = CommitEntry("a" * 40, "s" * 1000, body, "Bob", "2026", ("a.py",))
    admitted = admit(commit)
    assert len(admitted.record.subject) <= CommitEntry.LIMITS["subject"]
    assert len(admitted.record.body) <= CommitEntry.LIMITS["body"]
    assert admitted.clipped == ("subject", "body")
    assert PEM_BODY not in admitted.record.body


def test_a_clean_record_comes_out_as_it_went_in() -> None:
    prompt = Prompt("fix the retrier: MAX_ATTEMPTS is 7", Provenance("prompt", "s-3"))
    admitted = admit(prompt)
    assert admitted.record is prompt and admitted.secrets == () and admitted.clipped == ()
