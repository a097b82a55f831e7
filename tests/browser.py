"""Headless Chromium for the browser tests (Debian's chromium and chromium-driver, which .ci/run installs): the
same driver for every test that opens a page, skipped with a one-line reason where the browser is missing, and a
failure under CI=true, where it must run."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
#: The flags every test browser starts with: headless, no sandbox (CI runs as root), nothing in the background.
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync")


def headless_chromium(profile: Path, *flags: str, logs: bool = False):
    """A selenium driver of headless Chromium with its user data in ``profile`` and ``flags`` besides
    :data:`FLAGS` (``logs``: keep the page's console for ``get_log("browser")``)."""
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not (os.path.exists(p) or shutil.which(Path(p).name))]
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but no browser: {', '.join(missing)} missing (.ci/run installs Debian's "
                        "chromium and chromium-driver)")
        pytest.skip(f"no headless Chromium here ({', '.join(missing)} missing; apt-get install chromium "
                    "chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    for flag in (*FLAGS, *flags, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    if logs:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER if os.path.exists(CHROMEDRIVER)
                                            else shutil.which("chromedriver")), options=options)
