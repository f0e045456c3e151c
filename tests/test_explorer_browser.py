"""The explorer in a real browser: JupyterLab on localhost, driven by Playwright with Chromium.

One notebook shows two explorers, a mid-game expert game and a judged replay. The test clicks a
hidden cell and checks that cells opened and the probabilities changed, flags a cell, steps the
replay, and saves a screenshot. It also measures the time from a click to the view updated (the
page records it: from the click event to the patch drawn) and prints it.

It needs Debian's ``chromium`` at /usr/bin/chromium and the ``playwright`` and ``jupyterlab``
packages (the ``test`` extra); it skips and says which is missing otherwise. Playwright's own
browser download is not used. Set ``MSANALYSIS_SCREENSHOT`` to a path to keep the screenshot.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parent.parent

if not CHROMIUM.exists():
    pytest.skip(f"no browser: {CHROMIUM} is missing (apt-get install chromium)",
                allow_module_level=True)
playwright_api = pytest.importorskip("playwright.sync_api",
                                     reason="playwright is not installed (the test extra)")
pytest.importorskip("jupyterlab", reason="jupyterlab is not installed (the test extra)")
pytest.importorskip("anywidget", reason="anywidget is not installed (the explorer extra)")

SETUP = """\
from msanalysis import Explorer, Game, analyze
from msanalysis.play.judge import record_autoplay

# An expert game played to the middle with forced moves only.
game = Game.started(30, 16, 99, rules="safe-opening", first_click=(8, 15), seed=11)
for _ in range(6):
    forced = sorted(analyze(game.position()).forced_safe)
    for cell in forced[:10]:
        if game.status == "playing":
            game.reveal(cell)
"""

CELLS = [
    SETUP,
    "played = Explorer(game)\nplayed",
    "replayed = Explorer(record_autoplay(9, 9, 10, seed=3, strategy='safest'))\nreplayed",
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _notebook(path: Path) -> None:
    cells = [{"cell_type": "code", "execution_count": None, "id": f"cell{i}", "metadata": {},
              "outputs": [], "source": source} for i, source in enumerate(CELLS)]
    path.write_text(json.dumps({
        "cells": cells, "nbformat": 4, "nbformat_minor": 5,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                    "language": "python"}}}))


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on a free port in a temporary directory, no token; yields its URL."""
    home = tmp_path_factory.mktemp("lab")
    _notebook(home / "explorer.ipynb")
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"), JUPYTER_CONFIG_DIR=str(home / "config"),
        IPYTHONDIR=str(home / "ipython"))
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
               "--ip=127.0.0.1", f"--ServerApp.root_dir={home}", "--IdentityProvider.token=",
               "--ServerApp.password=", "--LabApp.expose_app_in_browser=True",
               f"--LabApp.workspaces_dir={home / 'workspaces'}",
               f"--LabApp.user_settings_dir={home / 'settings'}", "--allow-root",
               # Nothing from the network: no extension catalogue, news or update check.
               "--LabApp.extension_manager=readonly",
               "--LabApp.check_for_updates_class=jupyterlab.handlers.announcements."
               "NeverCheckForUpdate"]
    # No news toast over the board.
    settings = home / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    log = (home / "lab.log").open("w")
    server = subprocess.Popen(command, cwd=home, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/status", timeout=1)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("JupyterLab did not start:\n"
                                       + (home / "lab.log").read_text()[-2000:]) from None
                time.sleep(0.2)
        yield url, home
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@pytest.fixture(scope="module")
def page(lab):
    url, home = lab
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1100})
            console: list[str] = []
            page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
            page.goto(f"{url}/lab/tree/explorer.ipynb")
            page.wait_for_function("window.jupyterapp && window.jupyterapp.shell", timeout=30_000)
            page.wait_for_selector(".jp-Notebook", timeout=30_000)
            # Run every cell once the kernel is there (the command waits for it).
            page.wait_for_function(
                "() => { const w = jupyterapp.shell.currentWidget;"
                " return w && w.sessionContext && w.sessionContext.session"
                " && w.sessionContext.session.kernel; }", timeout=30_000)
            page.evaluate("jupyterapp.commands.execute('notebook:run-all-cells')")
            try:
                page.wait_for_function("document.querySelectorAll('.mse-root').length === 2",
                                       timeout=45_000)
            except playwright_api.TimeoutError:
                page.screenshot(path=str(home / "failed.png"))
                outputs = page.locator(".jp-OutputArea-output").all_inner_texts()
                raise AssertionError("the explorers did not show; outputs: "
                                     f"{[text[:300] for text in outputs]}; console: "
                                     f"{console[-15:]}; picture: {home / 'failed.png'}") from None
            page.console_log = console  # for the failure messages
            yield page
        finally:
            browser.close()


def _hidden_texts(root) -> list[str]:
    return root.locator(".mse-cell[data-state='?']").evaluate_all(
        "nodes => nodes.map(n => n.dataset.kind + n.textContent)")


def _click_and_wait(page, root, cell, *, button: str = "left") -> float:
    """Click a cell; wait for the view to answer; return the latency the page measured (ms)."""
    serial = root.get_attribute("data-serial")
    cell.click(button=button)
    page.wait_for_function(
        "([root, serial]) => root.dataset.serial !== serial && root.dataset.latency",
        arg=[root.element_handle(), serial], timeout=10_000)
    return float(root.get_attribute("data-latency"))


def test_play_flag_and_replay_in_the_browser(page, tmp_path):
    played, replayed = page.locator(".mse-root").nth(0), page.locator(".mse-root").nth(1)
    played.scroll_into_view_if_needed()

    # A click on a forced safe cell opens it (and perhaps more); the probabilities change.
    latencies = []
    for _ in range(5):
        hidden_before = played.locator(".mse-cell[data-state='?']").count()
        shading_before = _hidden_texts(played)
        target = played.locator(".mse-cell[data-kind='safe']").first
        latencies.append(_click_and_wait(page, played, target))
        assert played.locator(".mse-cell[data-state='?']").count() < hidden_before, \
            (played.locator(".mse-lines").inner_text(), page.console_log[-10:])
        assert _hidden_texts(played) != shading_before
    assert played.locator(".mse-cell[data-kind='p']").count() > 0  # percentages are drawn

    # A right click flags a hidden cell.
    target = played.locator(".mse-cell[data-state='?']").first
    index = target.get_attribute("data-index")
    _click_and_wait(page, played, target, button="right")
    assert played.locator(f".mse-cell[data-index='{index}']").get_attribute("data-state") == "F"

    # A shift+click on a forced cell explains it: the clues outlined, the reason in words.
    played.locator(".mse-cell[data-kind='safe']").first.click(modifiers=["Shift"])
    page.wait_for_function("root => root.querySelector('.mse-info').textContent"
                           ".includes('is safe')", arg=played.element_handle(), timeout=10_000)
    assert played.locator(".mse-cell.mse-clue").count() > 0

    # The replay steps forward: the label moves and the first click opens cells.
    assert replayed.locator(".mse-step-label").inner_text() == "0 / " + \
        replayed.locator(".mse-slider").get_attribute("max")
    hidden_before = replayed.locator(".mse-cell[data-state='?']").count()
    replayed.locator(".mse-step[data-step='next']").click()
    page.wait_for_function("root => root.querySelector('.mse-step-label').textContent"
                           ".startsWith('1 /')", arg=replayed.element_handle(), timeout=10_000)
    page.wait_for_function(
        "([root, before]) => root.querySelectorAll(\".mse-cell[data-state='?']\").length"
        " < before", arg=[replayed.element_handle(), hidden_before], timeout=10_000)
    assert "reveal" in replayed.locator(".mse-verdict").inner_text()

    picture = tmp_path / "explorer.png"
    played.screenshot(path=str(picture))
    assert picture.stat().st_size > 10_000
    keep = os.environ.get("MSANALYSIS_SCREENSHOT")
    if keep:
        shutil.copy(picture, keep)
    median = statistics.median(latencies)
    print(f"\nexplorer: click to view updated on a mid-game expert board: median {median:.1f} ms,"
          f" max {max(latencies):.1f} ms over {len(latencies)} clicks")
