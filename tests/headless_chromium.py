"""Headless Chromium for the HTML report's tests and for the committed screenshots
(tools/screenshots.py). Nothing here needs a GPU or a network: pages are local files."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
# Flags that work in a container without a display, a D-Bus session or a network.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--virtual-time-budget=3000")


def find_chromium() -> str | None:
    chosen = os.environ.get("KERNELSCOPE_CHROMIUM")
    if chosen:
        return chosen if Path(chosen).exists() else None
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def _run(chromium: str, page: Path, *flags: str, timeout: float = 120) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix="ks-chromium-") as profile:
        return subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}", *flags, page.resolve().as_uri()],
                              capture_output=True, text=True, timeout=timeout)


def dump_dom(chromium: str, page: Path) -> str:
    """The page's DOM after its scripts ran."""
    result = _run(chromium, page, "--dump-dom")
    if result.returncode != 0 or "<html" not in result.stdout:
        raise RuntimeError(f"chromium --dump-dom failed ({result.returncode}): {result.stderr[-500:]}")
    return result.stdout


def screenshot(chromium: str, page: Path, output: Path, width: int = 1300, height: int = 1600) -> Path:
    result = _run(chromium, page, f"--screenshot={output.resolve()}", f"--window-size={width},{height}")
    if not output.is_file():
        raise RuntimeError(f"chromium --screenshot failed ({result.returncode}): {result.stderr[-500:]}")
    return output
