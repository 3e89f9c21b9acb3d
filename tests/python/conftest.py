"""Shared helpers of the Python module's tests (run by ctest with PYTHONPATH at build/python).

GEOMSIM_CLI names the `geomsim` program, whose JSON the module's results must equal bit for bit.
"""
import json
import os
import subprocess
import tempfile

import pytest


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("GEOMSIM_CLI")
    if not path or not os.access(path, os.X_OK):
        pytest.fail("GEOMSIM_CLI must name the geomsim program (ctest sets it)")

    class Cli:
        def json(self, *args):
            """Runs geomsim with --json and returns the parsed object."""
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "out.json")
                run = subprocess.run([path, *args, "--json", out, "--quiet"], capture_output=True, text=True)
                assert run.returncode == 0, run.stderr
                with open(out) as f:
                    return json.load(f)

        def run(self, *args, files=()):
            """Runs geomsim; returns (exit status, stderr, {name: text} of the files it wrote in a scratch folder)."""
            with tempfile.TemporaryDirectory() as tmp:
                argv = [a.replace("{tmp}", tmp) for a in args]
                run = subprocess.run([path, *argv], capture_output=True, text=True)
                written = {}
                for name in files:
                    target = os.path.join(tmp, name)
                    if os.path.exists(target):
                        with open(target) as f:
                            written[name] = f.read()
                return run.returncode, run.stderr, written

        def error(self, *args):
            """The sentence after 'geomsim: error: ' of a refused command line (exit status 2)."""
            status, stderr, _ = self.run(*args)
            assert status == 2, stderr
            first = stderr.splitlines()[0]
            assert first.startswith("geomsim: error: "), first
            return first[len("geomsim: error: "):]

    return Cli()
