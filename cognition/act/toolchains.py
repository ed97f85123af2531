"""A code repository's own commands: how it runs its tests, checks its dependencies, builds docs.

Found from the files at the repository's top (``pyproject.toml``,
``package.json``, ``go.mod``, ``Cargo.toml`` ...), never by running anything.
Each command is a list of words for the ``command`` target: run without a
shell, success read from its exit status.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

_PYTHON = "python3"


@dataclass(frozen=True, slots=True)
class Toolchain:
    """How one kind of repository is tested, its dependencies checked and its docs built."""

    language: str
    marker: str
    """The file that gave the language away."""
    test_command: list[str]
    test_file_command: list[str]
    """For one changed test file (``{{ path }}``), or the whole suite where the runner cannot."""
    test_file_globs: list[str]
    code_extensions: list[str]
    test_outputs: list[str]
    dependency_globs: list[str]
    dependency_command: list[str] | None
    code_not_suffixes: list[str] = field(default_factory=list)
    docs_command: list[str] | None = None
    docs_globs: list[str] = field(default_factory=lambda: ["docs/**"])
    docs_tool: str | None = None
    tests_first: bool = False
    """The test command takes test files as arguments: the learned order may name them first."""


def _python(marker: str) -> Toolchain:
    pytest = [_PYTHON, "-m", "pytest", "-q"]
    return Toolchain(
        language="Python",
        marker=marker,
        test_command=pytest,
        test_file_command=[*pytest, "{{ path }}"],
        test_file_globs=["**/test_*.py", "**/*_test.py"],
        code_extensions=[".py", ".pyi", ".pyx"],
        code_not_suffixes=["setup.py", "conf.py", "noxfile.py", "conftest.py"],
        test_outputs=[".pytest_cache/**", ".coverage", ".coverage.*", "htmlcov/**"],
        dependency_globs=["pyproject.toml", "setup.py", "setup.cfg", "requirements*.txt"],
        dependency_command=[_PYTHON, "-m", "pip", "check"],
        tests_first=True,
    )


def _javascript(marker: str) -> Toolchain:
    npm_test = ["npm", "test", "--silent"]
    return Toolchain(
        language="JavaScript",
        marker=marker,
        test_command=npm_test,
        test_file_command=npm_test,
        test_file_globs=["**/*.test.*", "**/*.spec.*", "**/__tests__/**"],
        code_extensions=[".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx"],
        test_outputs=["coverage/**", "node_modules/**"],
        dependency_globs=["package.json", "package-lock.json"],
        dependency_command=["npm", "ls", "--depth=0"],
    )


def _go(marker: str) -> Toolchain:
    return Toolchain(
        language="Go",
        marker=marker,
        test_command=["go", "test", "./..."],
        test_file_command=["go", "test", "./..."],
        test_file_globs=["**/*_test.go"],
        code_extensions=[".go"],
        test_outputs=[],
        dependency_globs=["go.mod", "go.sum"],
        dependency_command=["go", "mod", "verify"],
    )


def _rust(marker: str) -> Toolchain:
    return Toolchain(
        language="Rust",
        marker=marker,
        test_command=["cargo", "test", "--quiet"],
        test_file_command=["cargo", "test", "--quiet"],
        test_file_globs=["tests/**/*.rs"],
        code_extensions=[".rs"],
        test_outputs=["target/**"],
        dependency_globs=["Cargo.toml", "Cargo.lock"],
        dependency_command=["cargo", "metadata", "--format-version", "1", "--no-deps"],
    )


_PYTHON_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", "requirements.txt")
CODE_MARKERS: tuple[str, ...] = (*_PYTHON_MARKERS, "package.json", "go.mod", "Cargo.toml")
"""Files at a folder's top that make it a code repository."""


def toolchain_for(root: Path) -> Toolchain | None:
    """The toolchain the files at ``root``'s top show, docs included; None if none does."""
    chain: Toolchain | None = None
    for marker in CODE_MARKERS:
        if not (root / marker).is_file():
            continue
        if marker in _PYTHON_MARKERS:
            chain = _python(marker)
        elif marker == "package.json":
            chain = _javascript(marker)
        elif marker == "go.mod":
            chain = _go(marker)
        else:
            chain = _rust(marker)
        break
    if chain is None:
        return None
    return _with_docs(chain, root)


def _with_docs(chain: Toolchain, root: Path) -> Toolchain:
    # The build goes under .nous/, which the watcher ignores, so it starts nothing.
    if (root / "docs" / "conf.py").is_file():
        command = [_PYTHON, "-m", "sphinx", "-b", "html", "-q", "docs", ".nous/docs-build"]
        return replace(chain, docs_command=command, docs_tool="Sphinx (docs/conf.py)")
    for name in ("mkdocs.yml", "mkdocs.yaml"):
        if (root / name).is_file():
            command = ["mkdocs", "build", "--quiet", "--site-dir", ".nous/docs-build"]
            return replace(chain, docs_command=command, docs_tool=f"MkDocs ({name})")
    return chain
