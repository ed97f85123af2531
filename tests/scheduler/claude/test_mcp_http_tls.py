"""``nous mcp --http`` with a certificate: HTTPS; a bad certificate setting refused by its key."""

from __future__ import annotations

import os
import ssl
import subprocess
from pathlib import Path

import httpx
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from scheduler.cli import main
from tests.conftest import REPO
from tests.scheduler.claude.mcp_client import EMPTY, call
from tests.scheduler.claude.mcp_http_client import make_token, server_env, team_server
from tests.scheduler.claude.test_team_hooks import hook, team_settings, token_file


def _certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key (openssl, as a person would make one)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    folder.mkdir(exist_ok=True)
    command = ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt"]
    command += ["ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1"]
    command += ["-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)]
    subprocess.run(command, check=True, capture_output=True)
    return cert, key


async def test_a_certificate_serves_https_and_plain_http_gets_nothing(
    neo4j_endpoint: Neo4jEndpoint, memory: Memory, tmp_path: Path
) -> None:
    cert, key = _certificate(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith("NOUS_")}
    env.update(
        NEO4J_URI=neo4j_endpoint.uri,
        NEO4J_USER=neo4j_endpoint.user,
        NEO4J_PASSWORD=neo4j_endpoint.password,
        PYTHONPATH=str(REPO),
        NOUS_MCP__HTTP__TLS_CERT=str(cert),
        NOUS_MCP__HTTP__TLS_KEY=str(key),
    )
    token = await make_token(memory.driver, f"erin{memory.agent_id[-8:]}", memory.agent_id)
    with team_server(server_env(env), tmp_path, tmp_path / "server.err") as server:
        url = server.url.replace("http://", "https://")
        trusted = ssl.create_default_context(cafile=str(cert))
        headers = {"Authorization": f"Bearer {token}"}
        async with (
            httpx.AsyncClient(verify=trusted, headers=headers, timeout=20) as http,
            streamable_http_client(url, http_client=http) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            assert f"Goals of agent {memory.agent_id}" in await call(session, "goals")
        async with httpx.AsyncClient(timeout=5) as plain:
            with pytest.raises(httpx.HTTPError):  # no answer in clear text, token or not
                await plain.post(server.url, json={}, headers=headers)
        # A developer's hook through the same HTTPS, checking the certificate by its CA.
        https = f"https://127.0.0.1:{server.port}"
        tokens = token_file(tmp_path, token)
        checked = team_settings(https, tokens, NOUS_CLAUDE__TEAM_CA_FILE=str(cert))
        said, err = hook(checked, tmp_path, "SessionStart", source="startup")
        assert "additionalContext" in said and "memory is off" not in said, err
        unchecked = team_settings(https, tokens)  # the system's CAs: no private one among them
        said, _ = hook(unchecked, tmp_path, "SessionStart", source="startup")
        assert "failed the TLS check" in said and "claude.team_ca_file" in said


def test_a_bad_certificate_setting_names_its_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cert, key = _certificate(tmp_path)
    other_cert, _ = _certificate(tmp_path / "other")
    (tmp_path / "folder.pem").mkdir()
    cases = {
        (str(tmp_path / "folder.pem"), str(key)): "mcp.http.tls_cert: ",
        (str(cert), "/dev/zero"): "mcp.http.tls_key: /dev/zero is not a regular file",
        (str(tmp_path / "missing.pem"), str(key)): "mcp.http.tls_cert: ",
        (str(key), str(cert)): "do not load as a PEM certificate and its private key",
        (str(other_cert), str(key)): "do not load as a PEM certificate and its private key",
    }
    for (cert_path, key_path), expected in cases.items():
        monkeypatch.setenv("NOUS_MCP__HTTP__TLS_CERT", cert_path)
        monkeypatch.setenv("NOUS_MCP__HTTP__TLS_KEY", key_path)
        assert main(["mcp", "--http", "--config", str(EMPTY)]) == 2
        assert expected in capsys.readouterr().err, expected
    monkeypatch.delenv("NOUS_MCP__HTTP__TLS_KEY")
    assert main(["mcp", "--http", "--config", str(EMPTY)]) == 2
    assert "mcp.http.tls_cert is set without its pair" in capsys.readouterr().err
    monkeypatch.delenv("NOUS_MCP__HTTP__TLS_CERT")
    assert main(["mcp", "--port", "9", "--config", str(EMPTY)]) == 2
    assert "--host and --port go with --http" in capsys.readouterr().err
