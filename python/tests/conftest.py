"""Shared fixtures: the CLI built next to the package (COLLSYNTH_BIN, set by ctest) and the
repository's example topologies (COLLSYNTH_SOURCE)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("COLLSYNTH_SOURCE", Path(__file__).resolve().parents[2]))
BIN = os.environ.get("COLLSYNTH_BIN", str(SOURCE / "build" / "collsynth"))


class Cli:
    """Runs `collsynth ARGS...` and returns (exit code, stdout, stderr)."""

    def run(self, *args, cwd=None):
        p = subprocess.run([BIN, *map(str, args)], capture_output=True, text=True, cwd=cwd)
        return p.returncode, p.stdout, p.stderr

    def json(self, *args):
        code, out, err = self.run(*args)
        assert code == 0, err
        return json.loads(out)


@pytest.fixture
def cli():
    return Cli()


@pytest.fixture
def topologies():
    return SOURCE / "experiments" / "topologies"
