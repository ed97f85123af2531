"""Transcript lines as Claude Code 2.1.328 writes them (read from a real ``claude -p`` run's
file under its ``CLAUDE_CONFIG_DIR/projects/``), for tests and the decisions benchmark."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any


class TranscriptWriter:
    """Appends a session's lines to its transcript file, shaped as the CLI writes them."""

    def __init__(self, path: Path, session_id: str, cwd: str = "/tmp/project") -> None:
        self.path, self.session_id, self.cwd = path, session_id, cwd
        self.parent: str | None = None
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()

    def _common(self, when: datetime | None) -> dict[str, Any]:
        stamp = (when or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
        line_id = str(uuid.uuid4())
        common = {
            "parentUuid": self.parent,
            "isSidechain": False,
            "uuid": line_id,
            "timestamp": stamp,
            "userType": "external",
            "entrypoint": "sdk-cli",
            "cwd": self.cwd,
            "sessionId": self.session_id,
            "version": "2.1.328",
            "gitBranch": "HEAD",
        }
        self.parent = line_id
        return common

    def append(self, *entries: dict[str, Any]) -> None:
        """Write ``entries``, one JSON line each (compact, as the CLI writes them)."""
        with self.path.open("a", encoding="utf-8") as out:
            for entry in entries:
                out.write(json.dumps(entry, separators=(",", ":")) + "\n")

    def user(self, text: str, when: datetime | None = None) -> None:
        """The person's prompt, with the queue lines the CLI writes before it."""
        self.append(
            {
                "type": "queue-operation",
                "operation": "enqueue",
                "sessionId": self.session_id,
                "content": text,
            },
            {
                **self._common(when),
                "type": "user",
                "message": {"role": "user", "content": text},
                "promptSource": "sdk",
            },
        )

    def attachment(self, text: str, when: datetime | None = None) -> None:
        """A line the CLI writes for itself (a prompt snapshot: the system prompt, again)."""
        attached = {"type": "prompt_snapshot", "systemPrompt": [text]}
        self.append({**self._common(when), "type": "attachment", "attachment": attached})

    def assistant(
        self, text: str, when: datetime | None = None, *, tool: bool = False, output: str = "a.py"
    ) -> None:
        """The model's words (and, with ``tool``, a tool call and its ``output`` after them)."""
        message_id = f"msg_{uuid.uuid4().hex[:12]}"
        message = {
            "id": message_id,
            "type": "message",
            "role": "assistant",
            "model": "claude-opus-5-5",
            "content": [{"type": "text", "text": text}],
            "stop_reason": "tool_use" if tool else "end_turn",
        }
        self.append({**self._common(when), "type": "assistant", "message": message})
        if tool:
            use = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}}
            self.append(
                {
                    **self._common(when),
                    "type": "assistant",
                    "message": {**message, "content": [use]},
                },
                {
                    **self._common(when),
                    "type": "user",
                    "message": {
                        "role": "user",
                        "content": [
                            {"tool_use_id": "toolu_1", "type": "tool_result", "content": output}
                        ],
                    },
                },
            )
        self.append({"type": "last-prompt", "lastPrompt": text[:50], "sessionId": self.session_id})
