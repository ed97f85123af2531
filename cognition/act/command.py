"""A template's ``command``: the argv a ``command`` target runs, and its ``{{ name }}`` words.

A command is a list of words run without a shell (a project's own test
command, ``python -m pytest -q``). A word may be exactly one placeholder,
``{{ path }}``, ``{{ from_path }}`` or a declared ``path`` parameter, which
becomes one whole argument: nothing a file name holds can split it or add an
option (a value starting with ``-`` is written as ``./-...``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from cognition.act.render import AUTOMATIC, PLACEHOLDER, Parameter, leftover_syntax

ARGV_PARAM = "argv"
"""The key of a command target's request params that carries its argv."""
FIRST_PARAM = "first"
"""The key of the test files to run first (the argv with them appended), then the argv itself
when they pass (:mod:`cognition.act.test_order`)."""


def _path_names(parameters: Mapping[str, Parameter]) -> set[str]:
    automatic = {name for name, (kind, _) in AUTOMATIC.items() if kind == "path"}
    return automatic | {name for name, spec in parameters.items() if spec.type == "path"}


def command_problems(
    command: Sequence[str], parameters: Mapping[str, Parameter]
) -> Iterator[tuple[int, str]]:
    """What is wrong with a template's ``command``: (word index, message) for each problem."""
    allowed = _path_names(parameters)
    for index, word in enumerate(command):
        if not word:
            yield index, "an empty word"
            continue
        found = PLACEHOLDER.fullmatch(word.strip())
        if found is not None:
            if found.group(1) not in allowed:
                names = ", ".join(sorted(allowed))
                yield index, f"'{word}' is not a path it can take (one of: {names})"
            continue
        if PLACEHOLDER.search(word) or leftover_syntax(word) is not None:
            yield index, f"{word!r}: a placeholder must be the whole word, as '{{{{ path }}}}'"


def render_command(command: Sequence[str], values: Mapping[str, str]) -> list[str]:
    """The argv with each placeholder word replaced; ValueError names one without a value."""
    argv: list[str] = []
    for word in command:
        found = PLACEHOLDER.fullmatch(word.strip())
        if found is None:
            argv.append(word)
            continue
        value = values.get(found.group(1))
        if not value:
            raise ValueError(f"command: '{word}' has no value for this observation")
        argv.append(f"./{value}" if value.startswith("-") else value)
    return argv
