"""Fixtures of the act tests: the shipped action templates, loaded once per module."""

from __future__ import annotations

import pytest

from cognition.act.templates import TemplateRegistry, load_templates


@pytest.fixture(scope="module")
def registry() -> TemplateRegistry:
    return load_templates(None)
