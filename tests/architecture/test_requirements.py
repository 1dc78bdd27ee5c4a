"""requirements.txt and requirements-dev.txt stay in step with pyproject.toml, where dependencies
are declared: every declared dependency is pinned (``name==version``) at a version its range
allows, and nothing but pins is in the files (`make requirements` compiles them)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
LOCKS = {
    "requirements.txt": [],
    "requirements-dev.txt": ["dev", "spark", "postgres"],
}
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)$")


def _pins(lock: str) -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in (ROOT / lock).read_text(encoding="utf-8").splitlines():
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        match = _PIN.match(text)
        assert match, f"{lock}: {line!r} is not a pin name==version"
        pins[canonicalize_name(match[1])] = Version(match[2])
    return pins


def _declared(extras: list[str]) -> list[Requirement]:
    names = [*PROJECT["dependencies"]]
    for extra in extras:
        names += PROJECT["optional-dependencies"][extra]
    return [Requirement(text) for text in names]


@pytest.mark.parametrize("lock", sorted(LOCKS))
def test_every_declared_dependency_is_pinned_within_its_range(lock):
    pins = _pins(lock)
    wrong = [
        (str(req), str(pins.get(canonicalize_name(req.name))))
        for req in _declared(LOCKS[lock])
        if canonicalize_name(req.name) != "ndcg-lab"
        and (
            canonicalize_name(req.name) not in pins
            or not req.specifier.contains(pins[canonicalize_name(req.name)], prereleases=True)
        )
    ]
    assert wrong == []


def test_the_dev_lock_pins_the_runtime_at_the_same_versions():
    runtime, dev = _pins("requirements.txt"), _pins("requirements-dev.txt")
    assert {name: dev.get(name) for name in runtime} == runtime
