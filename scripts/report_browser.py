"""Drives headless Chromium over the DevTools protocol to check the report pages as a reader
would meet them: opened from disk, timed, clicked through, and photographed.

Usage (from scripts/check-html and scripts/run; needs websocket-client and chromium-headless-shell):
  report_browser.py check [--max-seconds S] FILE...   open each page: no console errors, its charts
                                                      and (for explorer pages) its table rendered
  report_browser.py click FILE                        open the first utterance of an explorer or
                                                      regressions page; find alignment, audio, timeline
  report_browser.py screenshot FILE[#fragment] OUT.png [WIDTH]
  report_browser.py screenshot-utterance EXPLORER OUT.png [WIDTH]
                                                      the utterance view that shows most: the most
                                                      engines with partial results, then most errors
"""
import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

import websocket

BROWSER = "/usr/bin/chromium-headless-shell"


class Browser:
    """One headless browser with one page, driven through its DevTools websocket."""

    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="report-browser-")
        self.process = subprocess.Popen(
            [BROWSER, "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0",
             f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            # Debian's command is a shell script that starts the browser as its child: the whole
            # process group is stopped on close, or the browser outlives the script.
            start_new_session=True)
        endpoint = None
        deadline = time.monotonic() + 30
        while endpoint is None and time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line and self.process.poll() is not None:
                break
            match = re.search(r"DevTools listening on ws://([^/]+)/", line)
            if match:
                endpoint = match.group(1)
        if endpoint is None:
            self.close()
            raise RuntimeError("the browser did not start its DevTools endpoint")
        pages = json.load(urllib.request.urlopen(f"http://{endpoint}/json/list"))
        page = next(p for p in pages if p.get("type") == "page")
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=60, suppress_origin=True)
        self.next_id = 0
        self.events = []
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable")

    def call(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error'].get('message')}")
                return message.get("result", {})
            self.events.append(message)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def wait_for(self, expression, seconds=30):
        """Polls the page until the expression is truthy; returns it, or None after `seconds`."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.01)
        return None

    def open(self, url):
        """Navigates and waits for the load event and, on explorer pages, their first render.
        Returns the seconds from the navigation request until then."""
        self.events.clear()
        started = time.monotonic()
        self.call("Page.navigate", url=url)
        loaded = self.wait_for("document.readyState === 'complete' && location.href !== 'about:blank'")
        rendered = self.wait_for("!document.getElementById('data') || document.body.dataset.renderMs || false")
        if not loaded or not rendered:
            raise RuntimeError(f"{url}: did not finish loading and rendering within 30 s")
        return time.monotonic() - started

    def console_errors(self):
        problems = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                problems.append("exception: " + details.get("exception", {}).get("description", details.get("text", "")))
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                problems.append("console.error: " + " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                entry = params["entry"]
                problems.append(f"{entry.get('source')}: {entry.get('text')} {entry.get('url', '')}".strip())
        return problems

    def close(self):
        try:
            self.socket.close()
        except Exception:
            pass
        for signal_number in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.process.pid, signal_number)
                self.process.wait(timeout=10)
                break
            except (ProcessLookupError, subprocess.TimeoutExpired):
                continue
        # Wait for every process of the group, so none is left behind.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.killpg(self.process.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        shutil.rmtree(self.profile, ignore_errors=True)


def url_of(path):
    file, _, fragment = path.partition("#")
    url = "file://" + urllib.parse.quote(os.path.abspath(file))
    return url + ("#" + fragment if fragment else "")


def check(browser, files, max_seconds):
    status = 0
    for file in files:
        source = open(file, encoding="utf-8").read()
        try:
            seconds = browser.open(url_of(file))
        except RuntimeError as error:
            print(f"{file}: {error}", file=sys.stderr)
            status = 1
            continue
        problems = browser.console_errors()
        charts_source = source.count("<svg")
        charts = browser.evaluate("document.querySelectorAll('svg').length")
        facts = [f"opened in {seconds:.2f} s"]
        if browser.evaluate("!!document.getElementById('data')"):
            render_ms = browser.evaluate("Number(document.body.dataset.renderMs)")
            rows = browser.evaluate("document.querySelectorAll('#runs tbody tr').length")
            total = browser.evaluate("document.getElementById('data') && JSON.parse(document.getElementById('data').textContent).runs.length")
            facts.append(f"rendered {render_ms} ms after navigation started, {rows} table rows shown of {total} runs")
            if total and not rows:
                problems.append("the explorer table is empty although the page has runs")
        facts.append(f"{charts} charts rendered")
        if charts < charts_source:
            problems.append(f"only {charts} of the {charts_source} charts in the source are in the page")
        if max_seconds is not None and seconds > max_seconds:
            problems.append(f"took {seconds:.2f} s to open (limit {max_seconds} s)")
        if problems:
            print(f"{file}: " + "; ".join(problems), file=sys.stderr)
            status = 1
        else:
            print(f"{file}: " + ", ".join(facts) + ", no console errors")
    return status


def click(browser, file):
    """Clicks the first row's link the way a reader would, then looks for the utterance view's parts."""
    browser.open(url_of(file))
    link = browser.evaluate("(() => { const a = document.querySelector('#runs tbody a'); if (!a) return null; a.click(); return a.textContent; })()")
    if not link:
        print(f"{file}: no utterance link in the table", file=sys.stderr)
        return 1
    if not browser.wait_for("!document.getElementById('view').hidden && document.querySelector('#view h2') !== null", 10):
        print(f"{file}: clicking '{link}' did not open its view", file=sys.stderr)
        return 1
    found = browser.evaluate("""({
      heading: document.querySelector('#view h2').textContent,
      focused: document.activeElement === document.querySelector('#view h2'),
      alignments: document.querySelectorAll('#view table.alignment').length,
      alignmentCells: document.querySelectorAll('#view table.alignment td').length,
      audio: document.querySelectorAll('#view audio').length,
      audioSource: (document.querySelector('#view audio') || {}).src || '',
      timelines: document.querySelectorAll('#view svg.timeline').length,
      results: document.querySelectorAll('#view svg.timeline circle').length,
      listHidden: document.getElementById('list').hidden,
    })""")
    problems = [name for name, ok in [
        ("a heading that takes the keyboard focus", found["focused"]),
        ("an alignment", found["alignments"] > 0 and found["alignmentCells"] > 0),
        ("an audio element", found["audio"] > 0 and found["audioSource"]),
        ("a timeline with results", found["timelines"] > 0 and found["results"] > 0),
        ("the list hidden", found["listHidden"]),
    ] if not ok]
    problems += browser.console_errors()
    back = browser.evaluate("(() => { document.querySelector('#view a[href=\"#\"]').click(); return true; })()")
    if not back or not browser.wait_for("!document.getElementById('list').hidden", 10):
        problems.append("the back link does not return to the list")
    if problems:
        print(f"{file}: clicked '{link}'; missing or wrong: " + "; ".join(problems), file=sys.stderr)
        return 1
    print(f"{file}: clicked '{link}': {found['heading']} opened with {found['alignments']} alignments, "
          f"an audio element, {found['timelines']} timelines with {found['results']} results; back link returns to the list")
    return 0


def screenshot(browser, target, out, width):
    browser.call("Emulation.setDeviceMetricsOverride", width=width, height=900, deviceScaleFactor=1, mobile=False)
    browser.open(url_of(target))
    height = browser.evaluate("Math.min(6000, document.documentElement.scrollHeight)")
    browser.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
    image = browser.call("Page.captureScreenshot", format="png")["data"]
    with open(out, "wb") as file:
        file.write(base64.b64decode(image))
    print(f"{out}: {width}×{height} screenshot of {target}")
    return 0


def telling_utterance(file):
    """The explorer's utterance whose view shows most: reference word times, streaming engines,
    then errors."""
    source = open(file, encoding="utf-8").read()
    start = source.index('<script type="application/json" id="data">') + len('<script type="application/json" id="data">')
    data = json.loads(source[start:source.index("</script>", start)])
    score = {}
    for run in data["runs"]:
        partials, errors = score.get(run["u"], (0, 0))
        streamed = sum(1 for event in run["events"] if not event[1]) > 1
        score[run["u"]] = (partials + streamed, errors + run["s"] + run["d"] + run["i"])
    return max(sorted(score), key=lambda u: (bool(data["utterances"][u]["words"]),) + score[u])


def main(arguments):
    if not arguments or arguments[0] not in ("check", "click", "screenshot", "screenshot-utterance"):
        print(__doc__, file=sys.stderr)
        return 2
    command, rest = arguments[0], arguments[1:]
    browser = Browser()
    try:
        if command == "check":
            max_seconds = None
            if rest[:1] == ["--max-seconds"]:
                max_seconds, rest = float(rest[1]), rest[2:]
            return check(browser, rest, max_seconds)
        if command == "click":
            return click(browser, rest[0])
        target = rest[0] if command == "screenshot" else f"{rest[0]}#u={telling_utterance(rest[0])}"
        return screenshot(browser, target, rest[1], int(rest[2]) if len(rest) > 2 else 1280)
    finally:
        browser.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
