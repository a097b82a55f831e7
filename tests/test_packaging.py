"""Packaging and trust: dependency floors sit past known advisories, and the names the project installs
cannot be taken over (issue 13, item 5).

The floor table names each advisory; a floor that admits the last affected release fails here, so lowering one
by mistake is caught. The installed versions must satisfy the floors (the environment the tests ran in).
"""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())

# distribution -> (last affected release, first fixed release, advisory)
ADVISORIES = {
    "pyarrow": [("14.0.0", "14.0.1", "CVE-2023-47248"), ("23.0.0", "23.0.1", "CVE-2026-25087")],
    "dask": [("2025.12.0", "2026.1.0", "CVE-2026-23528 (distributed, pinned to dask's version by the extra)")],
    "tqdm": [("4.66.2", "4.66.3", "CVE-2024-34062")],
    "pytest": [("9.0.2", "9.0.3", "CVE-2025-71176")],
    "setuptools": [("69.1.1", "70.0.0", "CVE-2024-6345"), ("78.1.0", "78.1.1", "CVE-2025-47273"),
                   ("82.0.1", "83.0.0", "CVE-2026-59890")],
}


def requirements() -> dict[str, Requirement]:
    project = PYPROJECT["project"]
    found = [*project["dependencies"], *(r for extra in project["optional-dependencies"].values() for r in extra),
             *PYPROJECT["build-system"]["requires"]]
    return {Requirement(r).name.lower(): Requirement(r) for r in found}


@pytest.mark.parametrize("name", sorted(ADVISORIES))
def test_floor_is_past_every_known_advisory(name):
    requirement = requirements()[name]
    for affected, fixed, advisory in ADVISORIES[name]:
        assert not requirement.specifier.contains(affected, prereleases=True), (
            f"{requirement} admits {name} {affected}, affected by {advisory}; the floor must be >= {fixed}")
    newest_fix = max(Version(fixed) for _, fixed, _ in ADVISORIES[name])
    assert requirement.specifier.contains(newest_fix), f"{requirement} refuses the fixed release {newest_fix}"


def test_every_floor_names_its_advisory_in_pyproject():
    text = (ROOT / "pyproject.toml").read_text()
    for entries in ADVISORIES.values():
        for _, _, advisory in entries:
            assert advisory.split()[0] in text


@pytest.mark.parametrize("name", ["numpy", "pandas", "scipy", "matplotlib", "pyarrow", "dask", "distributed", "tqdm",
                                  "salib", "simpy", "pytest"])
def test_installed_versions_satisfy_the_floors(name):
    reqs = requirements()
    installed = Version(importlib.metadata.version(name))
    if name == "distributed":  # no requirement of its own: the dask extra pins it to dask's version
        assert installed >= Version("2026.1.0")
        return
    assert reqs[name].specifier.contains(installed, prereleases=True), f"{name} {installed} outside {reqs[name]}"


def test_an_agents_folder_in_the_working_directory_does_not_replace_the_builtins(tmp_path):
    impostor = tmp_path / "agents"
    impostor.mkdir()
    (impostor / "__init__.py").write_text("raise RuntimeError('the agents folder of the working directory')\n")
    code = "from kemps_sim import registry; print([c.name for c in registry.builtin_classes()])"
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr.strip().splitlines()[-1:]
    assert "collector" in done.stdout


def test_another_distribution_installing_agents_does_not_replace_the_builtins(tmp_path):
    other = tmp_path / "site" / "agents"
    other.mkdir(parents=True)
    (other / "__init__.py").write_text("SDK = 'someone else'\n")
    code = ("import agents; from kemps_sim import registry; "
            "print(agents.SDK, [c.name for c in registry.builtin_classes()])")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env=env)
    assert done.returncode == 0, done.stderr.strip().splitlines()[-1:]
    assert done.stdout.startswith("someone else") and "collector" in done.stdout
