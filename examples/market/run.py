"""A market of files for coins and files for files, four kinds of process on this machine:

    PYTHONPATH=python python examples/market/run.py [--dir DIR] [--keep]

starts the bank (`python -m zeenot.cashlib.bank`), the arbiter (`python -m
zeenot.cashlib.arbiter_server`), an honest seller and a seller who sends wrong files (`python -m
zeenot.cashlib.seller_server`), each on a free loopback port with its database under DIR (a
temporary folder by default), and a gallery asking 3 coins a file, then runs buyers
(`zeenot.cashlib.market.MarketBuyer`) through:
an honest purchase; an honest barter; a purchase from the cheating seller (refused, and the
same coin spent again with the honest one); a buyer who keeps the endorsement after receiving
the file (the seller goes to the arbiter and is paid); a barter in which the buyer withholds
its key and then answers the arbiter's call (the files are swapped); a purchase at the
gallery's price (three coins, one endorsement). It prints each outcome and
what the bank holds, then stops the servers (`--keep` leaves them running until Ctrl-C).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

from zeenot.cashlib.market import MarketBuyer  # noqa: E402

SONG = b"a song, in bytes: " + bytes(range(256)) * 64
MAP = b"a map of the city: " + bytes(range(255, -1, -1)) * 32
POEM = b"the buyer's poem, offered in barter\n" * 20


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(name: str, args: list[str], health: str, log: Path) -> tuple[str, subprocess.Popen]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    out = open(log, "ab")  # noqa: SIM115 (the child keeps it)
    proc = subprocess.Popen(
        [sys.executable, "-m", *args, "--port", str(port)], env=env, stdout=out, stderr=out
    )
    deadline = time.monotonic() + 90
    while True:
        try:
            if httpx.get(url + health, timeout=1).status_code == 200:
                print(f"  {name:8} {url}  (pid {proc.pid})")
                return url, proc
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"{name} did not start; see {log}")
        time.sleep(0.2)


def wait_session(seller: str, sid: str, states: set[str], timeout: float = 60) -> str:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        state = httpx.get(f"{seller}/session/{sid}").json()["state"]
        if state in states:
            return state
        time.sleep(0.3)
    return "timeout"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", type=Path, help="where the databases and logs go")
    ap.add_argument("--keep", action="store_true", help="leave the servers running")
    args = ap.parse_args()
    d = args.dir or Path(tempfile.mkdtemp(prefix="zeenot-market-"))
    d.mkdir(parents=True, exist_ok=True)
    (d / "song").write_bytes(SONG)
    (d / "map").write_bytes(MAP)
    log = d / "servers.log"
    sha = {k: hashlib.sha256(v).digest() for k, v in (("song", SONG), ("map", MAP), ("poem", POEM))}
    procs: list[subprocess.Popen] = []
    print(f"market in {d}")
    try:
        bank, p = start("bank", ["zeenot.cashlib.bank", "--db", str(d / "bank.db")], "/params", log)
        procs.append(p)
        arbiter, p = start(
            "arbiter",
            ["zeenot.cashlib.arbiter_server", "--db", str(d / "arbiter.db"),
             "--secret", str(d / "arbiter.key")],
            "/key",
            log,
        )  # fmt: skip
        procs.append(p)
        files = ["--file", str(d / "song"), "--file", str(d / "map")]
        common = ["zeenot.cashlib.seller_server", "--bank", bank, "--arbiter", arbiter,
                  *files, "--patience", "2"]  # fmt: skip
        shop, p = start("shop", [*common, "--merchant", "shop"], "/catalog", log)
        procs.append(p)
        crook, p = start(
            "crook", [*common, "--merchant", "crook", "--cheat", "wrong-file"], "/catalog", log
        )
        procs.append(p)
        gallery, p = start(
            "gallery", [*common, "--merchant", "gallery", "--price", "3"], "/catalog", log
        )
        procs.append(p)

        alice = MarketBuyer(bank, arbiter, f"alice-{os.getpid()}")
        print(f"alice withdrew {alice.wallet!r}")

        p1 = alice.buy(shop, sha["song"])
        print(f"1. alice buys the song from the shop: {p1.state}, bank: {p1.deposit}")

        p2 = alice.barter(shop, POEM, sha["map"], window=5)
        print(f"2. alice barters her poem for the map: {p2.state}, got the map: {p2.file == MAP}")

        p3 = alice.buy(crook, sha["song"])
        print(f"3. alice buys the song from the crook: {p3.state} (wrong file; x kept)")
        state = wait_session(crook, p3.session, {"resolve-refused"})
        print(f"   the crook goes to the arbiter: {state}")
        p3b = alice.buy(shop, sha["map"], index=p3.coin_index)
        print(f"   the same coin, spent at the shop: {p3b.state}, bank: {p3b.deposit}")

        bob = MarketBuyer(bank, arbiter, f"bob-{os.getpid()}")
        p4 = bob.buy(shop, sha["map"], withhold=True)
        print(f"4. bob buys the map and keeps the endorsement: {p4.state}")
        state = wait_session(shop, p4.session, {"resolved-paid", "resolve-refused"})
        print(f"   the shop goes to the arbiter: {state}")

        p5 = bob.barter(shop, POEM, sha["song"], window=30, withhold=True)
        print(f"5. bob barters and withholds his key: {p5.state}")
        answered = bob.watch(p5, until=time.time() + 60)
        print(f"   the shop complains; bob answers the arbiter: {answered}")
        state = wait_session(shop, p5.session, {"resolved-swapped", "resolved-paid"})
        print(f"   the shop settles: {state}")

        carol = MarketBuyer(bank, arbiter, f"carol-{os.getpid()}")
        p6 = carol.buy(gallery, sha["song"], max_price=3)
        print(
            f"6. carol buys the song from the gallery for 3 coins {p6.coin_index}: "
            f"{p6.state}, bank: {p6.deposit}"
        )
        if args.keep:
            print("servers running; Ctrl-C to stop")
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(timeout=10)


if __name__ == "__main__":
    main()
