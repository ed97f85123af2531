"""A hook's payload is read without pydantic, with the rules its model had."""

from __future__ import annotations

import json

import pytest

from scheduler.claude.payload import HookInput, PayloadError, parse_payload

SESSION = "5f0c7a52-3c55-4c1e-9d55-0a4b1c0f9e11"


def _parse(**fields: object) -> HookInput:
    return parse_payload(json.dumps({"session_id": SESSION, **fields}).encode(), "PostToolUse")


def test_the_fields_nous_reads_and_their_defaults() -> None:
    payload = _parse(tool_name="Bash", tool_input={"command": "ls"}, duration_ms=12, extra=[1])
    assert (payload.session_id, payload.tool_name, payload.duration_ms) == (SESSION, "Bash", 12)
    assert payload.tool_input == {"command": "ls"}
    assert (payload.prompt, payload.last_assistant_message, payload.error) == ("", "", None)
    assert payload.tool_response is None and payload.hook_event_name is None


@pytest.mark.parametrize(
    ("fields", "taken"),
    [
        ({"duration_ms": "12"}, 12),  # a number in a string, as pydantic's lax mode took it
        ({"duration_ms": 12.0}, 12),
        ({"duration_ms": None}, None),
    ],
)
def test_a_whole_number_is_taken_as_the_model_took_it(
    fields: dict[str, object], taken: object
) -> None:
    assert _parse(**fields).duration_ms == taken


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"session_id": ""}, "session_id"),
        ({"session_id": "x" * 129}, "session_id"),
        ({"session_id": "abc\n"}, "session_id"),
        ({"session_id": 12}, "session_id"),
        ({"tool_name": None}, "tool_name"),
        ({"tool_name": "x" * 201}, "tool_name"),
        ({"tool_input": ["ls"]}, "tool_input"),
        ({"duration_ms": -1}, "duration_ms"),
        ({"duration_ms": 1.5}, "duration_ms"),
        ({"trigger": "x" * 51}, "trigger"),
        ({"prompt": {"text": "hi"}}, "prompt"),
        ({"error": 3}, "error"),
    ],
)
def test_a_bad_field_is_named(fields: dict[str, object], named: str) -> None:
    with pytest.raises(PayloadError, match=named):
        _parse(**fields)


def test_a_missing_session_is_named() -> None:
    with pytest.raises(PayloadError, match="session_id"):
        parse_payload(b'{"prompt": "hi"}', "UserPromptSubmit")
