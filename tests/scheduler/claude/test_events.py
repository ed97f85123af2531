"""The table of hook events: every entry has its handler, and everything else reads the table."""

from __future__ import annotations

import json

import pytest

from scheduler.claude import events
from scheduler.claude.events import BY_NAME, CONTEXT, EVENTS, HOOK_EVENTS, NONE, TEXT, HookEvent
from scheduler.claude.hook_vectors import EMBEDDING_EVENTS
from scheduler.claude.init import merge_hooks
from scheduler.claude.lean_hooks import LeanHooks, answer_event, handler_of
from scheduler.claude.payload import HookAnswer, HookInput, PayloadError, parse_payload
from scheduler.claude.session import ClaudeSession

SESSION = "5f0c7a52-3c55-4c1e-9d55-0a4b1c0f9e11"


def test_each_event_has_its_handler_on_the_session_and_the_lean_ones_alone() -> None:
    for spec in HOOK_EVENTS:
        assert callable(getattr(ClaudeSession, spec.handler, None)), spec
        if spec.lean:
            assert callable(getattr(LeanHooks, spec.handler, None)), spec
    assert len(EVENTS) == len(HOOK_EVENTS), "an event named twice in the table"
    assert {s.answer for s in HOOK_EVENTS} <= {CONTEXT, TEXT, NONE}


def test_the_sets_read_from_the_table_are_what_the_hooks_did_before_it() -> None:
    # Behaviour unchanged by the table: the same events lean, embedding, matched and answered.
    assert {s.name for s in HOOK_EVENTS if s.lean} == {"SessionStart", "PreToolUse", "PostToolUse"}
    assert {"PreCompact", "Stop", "SessionEnd"} == EMBEDDING_EVENTS
    assert {s.name for s in HOOK_EVENTS if s.matcher == "*"} == {
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
    }
    assert [s.name for s in HOOK_EVENTS if s.answer == TEXT] == ["PreCompact", "PostCompact"]
    assert [s.name for s in HOOK_EVENTS if s.denies] == ["PreToolUse"]
    settings: dict[str, object] = {}
    merge_hooks(settings, "nous", 10, remove=False)
    hooks = settings["hooks"]
    assert isinstance(hooks, dict) and list(hooks) == list(EVENTS)
    assert hooks["PostToolUseFailure"][0]["matcher"] == "*" and "matcher" not in hooks["Stop"][0]


def test_the_answer_is_rendered_as_the_table_says() -> None:
    said = HookAnswer(context="hello", deny_reason="no")
    assert said.render("PreCompact") == "hello"
    assert json.loads(said.render("PreToolUse"))["hookSpecificOutput"] == {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "no",
        "additionalContext": "hello",
    }
    assert "permissionDecision" not in said.render("PostToolUse")
    assert said.render("Stop") == "" and said.render("SessionEnd") == ""


def test_an_unknown_event_is_named_not_a_key_error() -> None:
    with pytest.raises(PayloadError, match="no such hook event: 'Nope'"):
        parse_payload(b'{"session_id": "s"}', "Nope")
    with pytest.raises(LookupError, match="no such hook event"):
        handler_of(object(), "Nope")
    with pytest.raises(LookupError, match="object has no handler 'stop' for Stop"):
        handler_of(object(), "Stop")


class _Scratch:
    """The one handler a new event needs (here on a plain object, as the dispatch allows)."""

    async def scratch(self, payload: HookInput) -> HookAnswer:
        return HookAnswer(context=f"seen {payload.more.get('scratch_field')!r}")


async def test_a_new_event_is_one_entry_and_one_handler(monkeypatch: pytest.MonkeyPatch) -> None:
    # One entry (with a payload field nothing else reads), one handler: read, answered, rendered.
    spec = HookEvent("ScratchEvent", "scratch", fields=("scratch_field",), answer=CONTEXT)
    monkeypatch.setitem(events.BY_NAME, spec.name, spec)
    raw = json.dumps(
        {"session_id": SESSION, "hook_event_name": "ScratchEvent", "scratch_field": [1, "two"]}
    ).encode()
    payload = parse_payload(raw, "ScratchEvent")
    assert payload.more == {"scratch_field": [1, "two"]}
    answer = await answer_event(_Scratch(), "ScratchEvent", payload)
    assert json.loads(answer.render("ScratchEvent"))["hookSpecificOutput"] == {
        "hookEventName": "ScratchEvent",
        "additionalContext": "seen [1, 'two']",
    }
    # A field the entry does not name is not kept, whatever it holds.
    other = parse_payload(raw.replace(b"scratch_field", b"unnamed_field"), "ScratchEvent")
    assert other.more == {}
    assert BY_NAME is events.BY_NAME
