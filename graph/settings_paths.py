"""The default path tables of the settings: what is ignored, how a path is categorised, noise.

Plain data, kept apart from the settings' shape (:mod:`graph.settings_model`),
which fills its defaults from them.
"""

from __future__ import annotations

STATE_DIR = ".nous"
"""Nous's own folder, under the watched root (``state_dir`` is the one way to it)."""


# Seed 001's ignore list, plus Nous's own state folder and editor droppings
# that would otherwise reach the classifier only to be thrown away as noise.
DEFAULT_IGNORE_PATTERNS: list[str] = [
    ".git",
    ".git/**",
    "__pycache__",
    "__pycache__/**",
    ".venv",
    ".venv/**",
    "*.pyc",
    ".DS_Store",
    "logs/",
    "logs/**",
    "*.db",
    "*.db-journal",
    "node_modules",
    "node_modules/**",
    STATE_DIR,
    f"{STATE_DIR}/**",
    # What a test, lint or build run writes into the tree (pytest, hypothesis, mypy, ruff,
    # coverage, tox/nox, setuptools): a replayed release's own suite runs wrote 30 files of
    # .hypothesis/ that were then observed as changes, one more run each (issue 55).
    ".pytest_cache",
    ".hypothesis",
    ".mypy_cache",
    ".ruff_cache",
    ".tox",
    ".nox",
    ".eggs",
    "*.egg-info",
    "htmlcov",
    ".coverage",
    ".coverage.*",
]

# A pattern with "*" is a glob on the file name: "*.py" is a suffix, not a substring.
# fmt: off
_TEST_PATTERNS = ["/tests/", "/test/", "/__tests__/", "test_*.py", "*_test.py", "*_test.go",
                  "*.test.*", "*.spec.*", "conftest.py"]
_CODE_PATTERNS = ["*.py", "*.pyi", "*.pyx", "*.js", "*.mjs", "*.cjs", "*.jsx", "*.ts", "*.tsx",
                  "*.go", "*.rs", "*.java", "*.kt", "*.rb", "*.php", "*.c", "*.h", "*.cc", "*.cpp",
                  "*.hpp", "*.cs", "*.swift", "*.sh"]
# The seed's, and the other YAML spelling and the other config formats (issue 28).
_CONFIG_PATTERNS = [".claude/", "config/", ".yaml", ".yml", ".json", ".toml", ".cfg", ".ini",
                    "CLAUDE.md"]
# fmt: on

# Seed 000's path table, in its order: the first category whose pattern is a
# substring of the lower-cased relative path (with a leading "/") wins; a pattern
# with "*" is a glob on the lower-cased file name instead.
DEFAULT_CATEGORY_PATTERNS: dict[str, list[str]] = {
    "intake": ["_input/", "_intake/", "inbox/"],
    "knowledge": ["knowledge/", "docs/", "research/"],
    "thinker": ["thinkers/", "philosophers/"],
    "index": ["indices/", "index.yaml", "index.md"],
    "template": ["templates/"],
    # Not in the seed (issue 28): tests and code had no category of their own.
    "test": _TEST_PATTERNS,
    "config": _CONFIG_PATTERNS,
    "self_reference": ["consciousness/", "decision-engine/", "orchestrator/"],
    "code": _CODE_PATTERNS,
}

# Seed 000's noise list, matched against file and folder names (classify.noise_matches).
DEFAULT_NOISE_PATTERNS: list[str] = [
    ".DS_Store",
    ".git/",
    "__pycache__/",
    "*.pyc",
    ".swp",
    "~",
    ".lock",
    "node_modules/",
    ".env.local",
]
