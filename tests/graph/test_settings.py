"""Settings: defaults, the YAML file, the environment, and errors that name file and key."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from graph.errors import SettingsError
from graph.settings import DEFAULT_CATEGORY_PATTERNS, load_settings

REPO = Path(__file__).resolve().parents[2]


def test_defaults_hold_the_seed_tables(tmp_path: Path) -> None:
    settings = load_settings(_write(tmp_path, ""), environ={})
    assert settings.agent_id == "nous"
    assert settings.watch.debounce_ms == 500
    assert ".git/**" in settings.watch.ignore_patterns
    assert list(settings.sense.category_patterns) == list(DEFAULT_CATEGORY_PATTERNS)
    assert settings.schedule.index_sync_cron == "0 */4 * * *"
    assert settings.thresholds.act == 0.70 and settings.thresholds.critical_act == 0.85
    assert settings.llm.base_url == "http://localhost:1234/v1"


def test_yaml_then_environment_then_overrides(tmp_path: Path) -> None:
    config = _write(tmp_path, "agent_id: from-file\nwatch:\n  debounce_ms: 300\n  root: /srv\n")
    env = {
        "NOUS_WATCH__DEBOUNCE_MS": "250",
        "NEO4J_URI": "bolt://db.example:7687",
        "NEO4J_PASSWORD": "s3cret: not yaml",
        "NOUS_SENSE__NOISE_PATTERNS": '[".swp", "~"]',
    }
    settings = load_settings(config, environ=env, overrides={"watch.root": "/elsewhere"})
    assert settings.agent_id == "from-file"
    assert settings.watch.debounce_ms == 250
    assert settings.watch.root == Path("/elsewhere")
    assert settings.neo4j.uri == "bolt://db.example:7687"
    assert settings.neo4j.password.get_secret_value() == "s3cret: not yaml"
    assert settings.sense.noise_patterns == [".swp", "~"]
    assert "s3cret" not in repr(settings)


def test_unknown_key_names_file_and_key(tmp_path: Path) -> None:
    config = _write(tmp_path, "watch:\n  debounse_ms: 10\n")
    with pytest.raises(SettingsError) as err:
        load_settings(config, environ={})
    assert str(config) in str(err.value)
    assert "watch.debounse_ms" in str(err.value)
    assert "unknown key" in str(err.value)


def test_bad_value_names_file_and_key(tmp_path: Path) -> None:
    config = _write(tmp_path, "neo4j:\n  bolt_port: 99999\n")
    with pytest.raises(SettingsError, match=r"nous\.yaml: neo4j\.bolt_port"):
        load_settings(config, environ={})


def test_bad_environment_value_names_the_variable(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="environment variable NOUS_WATCH__DEBOUNCE_MS"):
        load_settings(_write(tmp_path, ""), environ={"NOUS_WATCH__DEBOUNCE_MS": "soon"})


def test_broken_yaml_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="not valid YAML"):
        load_settings(_write(tmp_path, "watch: [unclosed\n"), environ={})
    with pytest.raises(SettingsError, match="cannot read settings file"):
        load_settings(tmp_path / "missing.yaml", environ={})
    with pytest.raises(SettingsError, match="top level must be a mapping"):
        load_settings(_write(tmp_path, "- a\n- b\n"), environ={})


def test_daemon_exits_2_naming_file_and_key(tmp_path: Path) -> None:
    config = _write(tmp_path, "schedule:\n  status_interval_s: -1\n")
    done = subprocess.run(
        [sys.executable, "-m", "graph.daemon", "--config", str(config), "--root", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert f"{config}: schedule.status_interval_s" in done.stderr


def test_daemon_exits_2_for_a_missing_root(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "graph.daemon", "--root", str(tmp_path / "nope")],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "nope is not a folder" in done.stderr


def _write(folder: Path, text: str) -> Path:
    path = folder / "nous.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("llm:\n  deliberation: chatty\n", "llm.deliberation"),
        ("llm:\n  response_format: xml\n", "llm.response_format"),
        ("llm:\n  min_interval_s: -1\n", "llm.min_interval_s"),
    ],
)
def test_bad_llm_values_name_the_key(tmp_path: Path, text: str, key: str) -> None:
    with pytest.raises(SettingsError, match=re.escape(f"nous.yaml: {key}")):
        load_settings(_write(tmp_path, text), environ={})


def test_llm_defaults_for_issue_12(tmp_path: Path) -> None:
    llm = load_settings(_write(tmp_path, ""), environ={}).llm
    assert (llm.deliberation, llm.response_format, llm.min_interval_s) == (
        "single_call",
        "auto",
        0.0,
    )


def test_embeddings_off_may_be_written_bare(tmp_path: Path) -> None:
    # YAML reads a bare `off` as false; in the file and in the environment it means the provider.
    config = _write(tmp_path, "embeddings:\n  provider: off\n")
    assert load_settings(config, environ={}).embeddings.provider == "off"
    env = {"NOUS_EMBEDDINGS__PROVIDER": "off"}
    assert load_settings(_write(tmp_path, ""), environ=env).embeddings.provider == "off"
    with pytest.raises(SettingsError, match=r"embeddings\.provider"):
        load_settings(_write(tmp_path, "embeddings:\n  provider: on\n"), environ={})


@pytest.mark.parametrize(
    "value",
    ["abc", "test-01ABC", "A-b_c", "x_y", "a1", "y", "n", "O", "inf", "nan", "e1", "yEs",
     "yes", "Yes", "YES", "no", "NO", "on", "On", "off", "OFF", "null", "Null", "NULL",
     "true", "True", "FALSE", "1", "1.5", "~", "[a, b]", "a b", "-x", ".inf", "2026-11-27"],
)  # fmt: skip
def test_an_environment_value_reads_as_yaml_reads_it_with_or_without_yaml(value: str) -> None:
    # Plain words skip YAML (a hook need not import it); every value still reads as YAML would.
    from graph.settings_source import parse_env_value as _parse_env_value
    from graph.yamlfile import parse_yaml

    assert _parse_env_value("NOUS_X", value) == parse_yaml(value)
    assert type(_parse_env_value("NOUS_X", value)) is type(parse_yaml(value))
