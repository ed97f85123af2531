"""The GraSS style of Nous's graph in Neo4j Browser: a colour and a caption for every label.

Captions say something about the node (an ``Observation`` shows its type and
path, a ``Decision`` its type and confidence) instead of Browser's default of
an id or the first property.
"""

from __future__ import annotations

# label: (colour, caption). Caption templates use Browser's {property} placeholders.
LABELS: dict[str, tuple[str, str]] = {
    "Observation": ("#68BDF6", "{type} {path}"),
    "File": ("#A5ABB6", "{path}"),
    "Decision": ("#F16667", "{type} {confidence}"),
    "ReasoningStep": ("#FFD86E", "{name}"),
    "ActionTemplate": ("#DE9BF9", "{name} v{version}"),
    "Execution": ("#FB95AF", "{target} {success}"),
    "Pattern": ("#6DCE9E", "{key}"),
    "Lesson": ("#8DCC93", "{type}"),
    "Escalation": ("#FF756E", "{status} {priority}"),
    "Goal": ("#4C8EDA", "{description}"),
    "Frame": ("#C990C0", "{name}"),
    "Episode": ("#57C7E3", "{outcome} {summary}"),
    "Censor": ("#D9C8AE", "{severity} {trigger_pattern}"),
    "Fact": ("#ECB5C9", "{content}"),
    "Procedure": ("#F79767", "{name}"),
    "WorkingMemory": ("#FFC454", "{current_task}"),
    "Event": ("#C9D96F", "{type}"),
    "Reflection": ("#B6A6E8", "{raw}"),
    "Desire": ("#E6A0C4", "{status} {description}"),
    "Trajectory": ("#9AD0EC", "{domain} {success}"),
    "Heuristic": ("#F3C623", "{domain} {status}"),
    "RSICycle": ("#BDB2FF", "cycle {accepted}/{processed}"),
    "Turn": ("#8FD3C7", "{status} {prompt}"),
    "Migration": ("#DDDDDD", "{name}"),
}


def grass() -> str:
    """The whole style sheet (GraSS), as ``:style`` and ``/style.grass`` take it."""
    lines = [
        "node {",
        "  diameter: 75px;",
        "  color: #A5ABB6;",
        "  border-color: #9AA1AC;",
        "  border-width: 2px;",
        "  text-color-internal: #FFFFFF;",
        "  font-size: 10px;",
        "}",
        "relationship {",
        "  color: #A5ABB6;",
        "  shaft-width: 1px;",
        "  font-size: 8px;",
        "  padding: 3px;",
        "  text-color-external: #000000;",
        "  text-color-internal: #FFFFFF;",
        "  caption: '<type>';",
        "}",
    ]
    for label, (colour, caption) in LABELS.items():
        # Browser cuts a caption that does not fit its circle: room for "file_modified".
        diameter = "85px" if label == "Decision" else "75px"
        lines += [
            f"node.{label} {{",
            f"  color: {colour};",
            f"  border-color: {_darker(colour)};",
            "  text-color-internal: #000000;",
            f"  diameter: {diameter};",
            f"  caption: '{caption}';",
            "}",
        ]
    return "\n".join(lines) + "\n"


def _darker(colour: str) -> str:
    value = int(colour[1:], 16)
    r, g, b = (value >> 16) & 255, (value >> 8) & 255, value & 255
    return "#{:02X}{:02X}{:02X}".format(*(int(c * 0.8) for c in (r, g, b)))
