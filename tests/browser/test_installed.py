"""A wheel built from the repository, installed in a fresh virtual environment in a folder
outside the checkout, serves the whole app with ``ndcg-lab app`` (the router, the pages, the
settings and both languages come from the installed files, not from the checkout)."""

from __future__ import annotations

import shutil
import site
import subprocess
import sys
from pathlib import Path

from browser_helpers import ROOT, assert_no_exception, open_page, running_server

from ui.framework.i18n import translate


def _run(*cmd: str | Path, cwd: Path) -> None:
    subprocess.run([str(c) for c in cmd], cwd=cwd, check=True, capture_output=True)


def test_installed_wheel_serves_the_app_outside_the_checkout(tmp_path, page):
    wheels, venv, elsewhere = tmp_path / "wheels", tmp_path / "venv", tmp_path / "elsewhere"
    elsewhere.mkdir()
    source = tmp_path / "source"  # a copy, so the build leaves nothing in the checkout
    ignore = shutil.ignore_patterns(".git", ".venv", "artifacts", "build", "*.egg-info", ".*_cache")
    shutil.copytree(ROOT, source, ignore=ignore)
    _run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "-q",
        "--no-deps",
        "--no-build-isolation",
        "-w",
        wheels,
        source,
        cwd=tmp_path,
    )
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    # the wheel's dependencies come from the test's own environment (no download): its
    # site-packages on the new one's path, after the new one's (a .pth line); the .pth files
    # there, such as the checkout's editable install, are not run, so only the wheel provides
    # ndcg_core, ui and the app's files
    new_site = next((venv / "lib").glob("python*/site-packages"))
    (new_site / "deps.pth").write_text(site.getsitepackages()[0] + "\n")
    # installed by the suite's own uv (requirements-dev.txt), so the new venv needs no pip (3 s)
    _run(
        Path(sys.executable).parent / "uv",
        "pip",
        "install",
        "-q",
        "--python",
        venv / "bin" / "python",
        "--no-deps",
        "--offline",
        next(wheels.glob("*.whl")),
        cwd=elsewhere,
    )
    where = subprocess.run(
        [
            venv / "bin" / "python",
            "-c",
            "import ui; from ui.framework.home import app_home; print(ui.__file__, app_home())",
        ],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert [Path(p).is_relative_to(venv) for p in where] == [True, True]
    with running_server(command=[str(venv / "bin" / "ndcg-lab"), "app"], cwd=elsewhere) as base:
        open_page(page, f"{base}/Lesson?lang=zh")
        assert_no_exception(page)
        assert page.title().startswith(translate("zh", "nav.lesson"))
        open_page(page, f"{base}/?lang=en")
        assert_no_exception(page)
        assert page.get_by_text("4.6487").first.is_visible()
