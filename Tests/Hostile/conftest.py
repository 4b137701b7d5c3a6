"""Options of the hostile-folder test: which cases, which binary, and what to do with failures.

Every option also reads an environment variable, so the Makefile targets (and a person reproducing a
failure) can pass them through make:

  --hostile-seed S    HOSTILE_SEED     the seed (default 1); any string
  --hostile-cases N   HOSTILE_CASES    how many cases, numbered 0..N-1 (default 150)
  --hostile-case I    HOSTILE_CASE     only case I (overrides --hostile-cases)
  --keep              HOSTILE_KEEP=1   keep each failing sandbox in Tests/Artifacts/hostile/ with repro.sh
  --shrink            HOSTILE_SHRINK=1 also look for a minimal case per failed invariant (kept too)
  --build-timeout T   HOSTILE_TIMEOUT  seconds before a build counts as hung (default 120)
                      WATERFALL_BIN    the binary (default .build/debug/waterfall)
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from cases import REPO  # noqa: E402


def pytest_addoption(parser):
    group = parser.getgroup("hostile", "hostile-folder test")
    group.addoption("--hostile-seed", default=os.environ.get("HOSTILE_SEED", "1"))
    group.addoption("--hostile-cases", type=int, default=int(os.environ.get("HOSTILE_CASES", "150")))
    group.addoption("--hostile-case", type=int, default=(int(os.environ["HOSTILE_CASE"]) if os.environ.get("HOSTILE_CASE") else None))
    group.addoption("--keep", action="store_true", default=os.environ.get("HOSTILE_KEEP", "") not in ("", "0"))
    group.addoption("--shrink", action="store_true", default=os.environ.get("HOSTILE_SHRINK", "") not in ("", "0"))
    group.addoption("--build-timeout", type=float, default=float(os.environ.get("HOSTILE_TIMEOUT", "120")))


def pytest_generate_tests(metafunc):
    if "case_index" in metafunc.fixturenames:
        config = metafunc.config
        single = config.getoption("hostile_case")
        indices = [single] if single is not None else list(range(config.getoption("hostile_cases")))
        seed = config.getoption("hostile_seed")
        metafunc.parametrize("case_index", indices, ids=[f"seed{seed}-case{i}" for i in indices])


def pytest_report_header(config):
    return (f"hostile-folder test: seed {config.getoption('hostile_seed')}, "
            f"{'case ' + str(config.getoption('hostile_case')) if config.getoption('hostile_case') is not None else str(config.getoption('hostile_cases')) + ' cases'}, "
            f"binary {_binary()}")


def _binary() -> str:
    value = os.environ.get("WATERFALL_BIN")
    path = Path(value).resolve() if value else REPO / ".build" / "debug" / "waterfall"
    return str(path)


@pytest.fixture(scope="session")
def hostile(pytestconfig) -> dict:
    binary = _binary()
    if not os.access(binary, os.X_OK):
        pytest.exit(f"{binary}: no waterfall binary (run swift build, or set WATERFALL_BIN)", returncode=2)
    return {
        "seed": pytestconfig.getoption("hostile_seed"),
        "binary": binary,
        "timeout": pytestconfig.getoption("build_timeout"),
        "keep": pytestconfig.getoption("keep"),
        "shrink": pytestconfig.getoption("shrink"),
    }
