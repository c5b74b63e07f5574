# Sourced by scripts/test and scripts/run: make sure .venv exists and holds the project's
# dependencies, then activate it. Re-installs only when pyproject.toml changed.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

find_python() {
    local candidate
    for candidate in python3.13 python3.12 /root/.pyenv/versions/3.1[23]*/bin/python3; do
        # pyenv shims exist even when the version is not selected, so run it to be sure.
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    echo "error: Python >= 3.12 not found (tried python3.13, python3.12," \
        "/root/.pyenv/versions/3.1[23]*/bin/python3). Install Python 3.12 or newer." >&2
    return 1
}

if [ ! -x "$VENV/bin/python" ]; then
    PYTHON="$(find_python)"
    echo "Creating .venv with $PYTHON" >&2
    "$PYTHON" -m venv "$VENV"
fi

STAMP="$VENV/.installed-$(sha1sum "$ROOT/pyproject.toml" | cut -c1-12)"
if [ ! -f "$STAMP" ]; then
    echo "Installing dependencies into .venv" >&2
    if ! "$VENV/bin/python" -m pip install -q --disable-pip-version-check -e "$ROOT[test]" \
        >"$VENV/pip.log" 2>&1; then
        cat "$VENV/pip.log" >&2
        echo "error: installing dependencies failed (log: .venv/pip.log)" >&2
        return 1
    fi
    rm -f "$VENV"/.installed-*
    touch "$STAMP"
fi

# shellcheck disable=SC1091
source "$VENV/bin/activate"
cd "$ROOT"
