"""Take the screenshots of a person's page at a live table that the "run a study" page shows.

    python docs/gallery/serve_screenshots.py [--out DIR] [--seed N]

It serves one table on this machine (uvicorn on a free port of 127.0.0.1, as ``kemps-sim serve`` does), opens the
person's link in headless Chromium at a fixed size, and plays a short scripted match at real speed: the partner (an
agent) is dealt four of a kind and signals it at once. ``serve_intro.png`` is the built-in instructions a person
reads first; ``serve_table.png`` is the table mid-round, the partner's picture making the signal and a card of the
person's hand chosen for a swap; ``serve_over.png`` the end of the match after the person's Kemps, the partner's
four shown to the table; ``serve_krepet.png`` a Krepet player's page. Each PNG is reduced to a palette of colours to
stay small. Needs the serve and test extras (uvicorn, selenium) and Chromium with chromedriver.
"""

from __future__ import annotations

import argparse
import base64
import io
import shutil
import socket
import sys
import threading
import time
from pathlib import Path

from kemps_sim.agent import BaseAgent
from kemps_sim.cli.serve import intro_of
from kemps_sim.engine import EngineConfig, simulate_match
from kemps_sim.intents import Wait
from kemps_sim.presets import load_rules
from kemps_sim.serve import LiveTable
from kemps_sim.serve.app import Room, make_app
from kemps_sim.table import stack_pack

HERE = Path(__file__).resolve().parent
#: The page's size in CSS pixels (a laptop's browser window).
WIDTH, HEIGHT = 1000, 860
#: One point wins: the person's right Kemps ends the match.
RULES = {"preset": "standard", "scoring": "points", "target_points": 1}
#: Agents that collect and swap but never call, so that the match ends on the person's call.
AGENT = "collector(stop=False, threshold=0.999999)"
PERSON, PARTNER = 0, 2


class Idle(BaseAgent):
    """Never does anything (for reading a seed's first dealer)."""

    name = "idle"

    def decide(self, obs):
        return Wait()


def card(rank: int, suit: int) -> int:
    return rank * 4 + suit


def pack(rules, seed: int) -> list[int]:
    """The first deal: the partner four kings; the person and the opponents pairs and odd cards; a middle that gives
    everyone something to take."""
    dealer = simulate_match(rules, [Idle()], seed=seed, config=EngineConfig(
        fidgets=False, max_rounds=1, max_round_seconds=1.0)).rounds[0].dealer
    hands = [[card(9, 0), card(9, 1), card(3, 2), card(6, 3)],  # J J 5 8
             [card(2, 0), card(2, 1), card(7, 2), card(12, 0)],  # 4 4 9 A
             [card(11, s) for s in range(4)],  # K K K K
             [card(5, 0), card(5, 1), card(0, 3), card(10, 0)]]  # 7 7 2 Q
    middle = [card(9, 2), card(2, 2), card(5, 2), card(8, 1)]  # J 4 7 10
    return stack_pack(rules, hands, middle, dealer=dealer)


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--hide-scrollbars",
                 "--autoplay-policy=no-user-gesture-required"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                              options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
    return driver


def until(driver, script: str, what: str, timeout: float = 30.0):
    """Wait until the JS expression ``script`` is truthy on the page; its value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = driver.execute_script(f"return {script};")
        if value:
            return value
        time.sleep(0.01)
    raise SystemExit(f"serve_screenshots: waited {timeout:g} s for {what}")


def serve(room: Room):
    """``room`` served by uvicorn on a free port of 127.0.0.1 in a thread: the server and its port."""
    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(make_app(room), host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    return server, port


def capture(driver) -> bytes:
    """The page as it is now, as PNG."""
    return base64.b64decode(driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})["data"])


def save(png: bytes, path: Path) -> None:
    """``png`` saved at ``path`` with at most 128 colours."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    image.quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    print(f"{path} ({path.stat().st_size // 1024} KB)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="the folder for the PNGs (default: this one)")
    parser.add_argument("--seed", type=int, default=3, help="the match seed (default 3)")
    args = parser.parse_args(argv)
    from selenium.webdriver.common.by import By

    rules = load_rules(RULES)
    table = LiveTable(rules, [AGENT] * 4, remote=[PERSON], seed=args.seed, factor=1.0, packs=[pack(rules, args.seed)])
    room = Room(table, intro=intro_of(None))  # the built-in instructions, as kemps-sim serve shows them
    server, port = serve(room)
    driver = browser()
    try:
        driver.get(room.links("127.0.0.1", port)[(0, PERSON)])
        until(driver, "document.getElementById('start') && !document.getElementById('intro').hidden", "the intro")
        save(capture(driver), args.out / "serve_intro.png")
        driver.execute_script("document.getElementById('start').click()")
        view = until(driver, "view && view.playing && view", "play to start")
        body = driver.find_element(By.TAG_NAME, "body")
        body.send_keys("1a")  # a swap by keys: the first card of the hand for the middle's first (a jack for a jack)
        until(driver, f"view.hand.includes({view['middle'][0]})", "the swap")
        time.sleep(2.0)  # a few moves of the others in the log
        body.send_keys("4")  # a card chosen for the next swap (outlined)
        partner = f"document.querySelector('#avatar-{PARTNER}')"
        signal = view["signal"].replace("_", " ")
        for _ in range(10):  # catch the partner making the signal: it holds it for well under a second
            until(driver, f"{partner}.classList.contains('gesturing') && "
                          f"{partner}.querySelector('.doing').textContent === '{signal}'", "the partner's signal")
            shot = capture(driver)
            if driver.execute_script(f"return {partner}.classList.contains('gesturing')"):
                break  # still held after the picture was taken: the picture shows it
        save(shot, args.out / "serve_table.png")
        body.send_keys("k")
        until(driver, "document.querySelector('#banner.over')", "the end of the match")
        until(driver, "!document.querySelector('.avatar.gesturing')", "the gestures to end", timeout=5)
        save(capture(driver), args.out / "serve_over.png")
    finally:
        driver.quit()
        server.should_exit = True
    table.join(timeout=10)
    krepet(args.out, args.seed)
    return 0


def krepet(out: Path, seed: int) -> None:
    """``serve_krepet.png``: a Krepet player's page at the start of their turn, the board as they see it."""
    from kemps_sim.krepet.table import KrepetTable

    table = KrepetTable("wikibooks", ["greedy", "greedy"], remote=[PERSON], seed=seed, factor=0.5)
    room = Room(table)
    server, port = serve(room)
    driver = browser()
    try:
        driver.get(room.links("127.0.0.1", port)[(0, PERSON)])
        until(driver, "board && board.to_move === 0", "the person's turn", timeout=60)
        time.sleep(0.3)
        save(capture(driver), out / "serve_krepet.png")
    finally:
        driver.quit()
        server.should_exit = True
        table.stop()


if __name__ == "__main__":
    sys.exit(main())
