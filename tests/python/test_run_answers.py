"""`zeenot run` against a server that answers oddly: every malformed answer (HTML, a JSON list,
a JSON string, an empty body, bytes that are not UTF-8, a descriptor of the wrong shape) is a
`RunError` with a message (exit 2), a refusal with an unreadable reason is still a refusal (exit
1), and nothing the server sends reaches the terminal as control characters. Never an internal
error (exit 3)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from zeenot import cli
from zeenot.application import load_application
from zeenot.runtime.client import RunError, Runner, RunRefused

from .conftest import EXAMPLES

PAYD = EXAMPLES / "payd" / "app.py"


class Answers:
    """What the fake server answers next: (status, content type, body)."""

    def __init__(self) -> None:
        self.status, self.type, self.body = 200, "application/json", b"{}"


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Answers]]:
    answers = Answers()

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            self.rfile.read(length)
            self.send_response(answers.status)
            self.send_header("content-type", answers.type)
            self.send_header("content-length", str(len(answers.body)))
            self.end_headers()
            self.wfile.write(answers.body)

        do_GET = do_POST = _answer

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", answers
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def app():
    return load_application(PAYD)


MALFORMED = [
    ("text/html", b"<html><body>502 Bad Gateway</body></html>", "not valid JSON"),
    ("application/json", b"[1, 2, 3]", "not a JSON object"),
    ("application/json", b'"hello"', "not a JSON object"),
    ("application/json", b"", "not valid JSON"),
    ("application/octet-stream", b"\xff\xfe\x00garbage", "not UTF-8"),
    ("application/json", b"[" * 5000 + b"]" * 5000, "nested too deeply"),
    ("application/json", b'{"regions": [], "parameters": {}, "epoch": "1"}', "`regions`"),
    ("application/json", b'{"regions": {}, "parameters": {"x": 1}, "epoch": "1"}', "parameters"),
    ("application/json", b'{"regions": {}, "parameters": {}}', "`epoch`"),
]


@pytest.mark.parametrize("ctype, body, message", MALFORMED)
def test_malformed_descriptor_is_a_run_error(server, app, tmp_path, capsys, ctype, body, message):
    url, answers = server
    answers.status, answers.type, answers.body = 200, ctype, body
    with pytest.raises(RunError, match=message) as info:
        Runner(app, url).descriptor()
    assert not isinstance(info.value, RunRefused)
    inputs = tmp_path / "in.json"
    inputs.write_text((EXAMPLES / "payd" / "inputs.json").read_text())
    runtime_inputs = {"policy": "P-1", **json.loads(inputs.read_text())}
    runtime_inputs = {k: v for k, v in runtime_inputs.items() if k in app.inputs}
    inputs.write_text(json.dumps(runtime_inputs))
    code = cli.main(["run", str(PAYD), "--server", url, "--inputs", str(inputs)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.startswith("error: ") and message in err, err
    assert "internal error" not in err and "Traceback" not in err
    assert len(err) < 1000 and "\x1b" not in err


@pytest.mark.parametrize("ctype, body, message", MALFORMED[:6])
def test_malformed_answer_to_a_submission_is_a_run_error(server, app, ctype, body, message):
    url, answers = server
    answers.status, answers.type, answers.body = 200, ctype, body
    with pytest.raises(RunError, match=message) as info:
        Runner(app, url, retries=0).submit(b"{}")
    assert not isinstance(info.value, RunRefused)


@pytest.mark.parametrize(
    "body, shown",
    [
        (b'{"reason": "no such policy"}', "no such policy"),
        (b"<html>rate limited</html>", "<html>rate limited</html>"),
        (b"[1, 2]", "[1, 2]"),
        (b'"busy"', '"busy"'),
        (b'{"reason": 5}', '{"reason": 5}'),
        (b"", "empty"),
        (b"\xff\xfe", "\ufffd"),
        (b'{"reason": "\\u001b[31mred\\u001b[0m\\nsecond line"}', "\\x1b[31mred"),
    ],
)
def test_refusals_with_any_body_are_refusals(server, app, body, shown):
    url, answers = server
    answers.status, answers.type, answers.body = 409, "text/plain", body
    with pytest.raises(RunRefused) as info:
        Runner(app, url, retries=0).submit(b"{}")
    text = str(info.value)
    assert "(409)" in text and shown in text, text
    assert "\x1b" not in text and "\n" not in text
    answers.status = 503
    with pytest.raises(RunError) as info:
        Runner(app, url, retries=0).submit(b"{}")
    assert not isinstance(info.value, RunRefused) and "(503)" in str(info.value)


def test_identity_answer_without_a_name_is_a_run_error(server, app):
    from zeenot.runtime.identity import Key

    url, answers = server
    answers.status, answers.type, answers.body = 200, "application/json", b'{"nom": "x"}'
    with pytest.raises(RunError, match="names no server"):
        Runner(app, url, key=Key.generate("car-1")).auth()


def test_long_answers_are_cut(server, app):
    url, answers = server
    answers.status, answers.type, answers.body = 200, "text/html", b"<p>" + b"x" * 100_000
    with pytest.raises(RunError) as info:
        Runner(app, url).descriptor()
    assert len(str(info.value)) < 600
