"""Progress on a terminal: drawn only on a TTY, only for steps that last, never past 99 %."""

from __future__ import annotations

import io
import re
import time

import pytest

from zeenot import progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def fast(monkeypatch):
    monkeypatch.setattr(progress, "DELAY_S", 0.05)
    monkeypatch.setattr(progress, "TICK_S", 0.02)
    monkeypatch.delenv("ZEENOT_PROGRESS", raising=False)
    monkeypatch.setenv("TERM", "xterm")


def _until_drawn(out: Terminal) -> None:
    """Wait for the bar's drawing thread to draw (it may start late on a loaded machine)."""
    deadline = time.monotonic() + 30
    while not out.getvalue() and time.monotonic() < deadline:
        time.sleep(0.05)


def test_a_long_step_draws_a_bar_and_ends_with_its_time():
    out = Terminal()
    with progress.step("proving", 10.0, stream=out):
        time.sleep(0.3)
        _until_drawn(out)
    text = out.getvalue()
    assert "proving [" in text and "of about 10.0 s" in text
    # the step's own time (0.3 s, more on a loaded machine)
    assert text.endswith("\n") and re.search(r"proving: \d+\.\d s$", text.splitlines()[-1])


def test_a_short_step_and_a_pipe_draw_nothing(monkeypatch):
    out = Terminal()
    monkeypatch.setattr(progress, "DELAY_S", 5.0)  # "short" even on a loaded machine
    with progress.step("quick", 10.0, stream=out):
        pass
    assert out.getvalue() == ""
    monkeypatch.setattr(progress, "DELAY_S", 0.05)
    piped = io.StringIO()
    with progress.step("proving", 10.0, stream=piped):
        time.sleep(0.2)
    assert piped.getvalue() == ""


def test_switched_off_by_environment(monkeypatch):
    monkeypatch.setenv("ZEENOT_PROGRESS", "0")
    assert not progress.enabled(Terminal())


def test_frames_never_claim_more_than_they_know():
    assert "99 %" in progress.line("setup", 9.99, 10.0)
    assert "[" not in progress.line("setup", 12.0, 10.0)  # past the estimate: time alone
    assert progress.line("setup", 12.0, 10.0) == "setup  12.0 s (estimated 10.0 s)"
    assert progress.line("setup", 1.0, None) == "setup  1.0 s"


def test_an_error_in_the_step_still_ends_the_line():
    out = Terminal()
    with pytest.raises(RuntimeError), progress.step("proving", 1.0, stream=out):
        _until_drawn(out)
        raise RuntimeError("boom")
    assert out.getvalue().endswith("\n")
