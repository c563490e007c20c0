"""Drives the inspector page in headless Chromium (Selenium). Run by scripts/test-ui, which starts
the server and writes the archives; see there. Every check is an assert; the first failure stops
the run with a non-zero exit and a screenshot named `failure.png`."""

import argparse
import functools
import http.server as http_server
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

DEMO_KEY = "demo-key-change-me"

parser = argparse.ArgumentParser()
parser.add_argument("--base", required=True)
parser.add_argument("--examples", required=True, type=pathlib.Path)
parser.add_argument("--archives", required=True, type=pathlib.Path)
parser.add_argument("--screenshots", required=True, type=pathlib.Path)
parser.add_argument("--forensics-key", required=True, help="a tenant whose policy acknowledges nested archives")
parser.add_argument("--archivegate", required=True, help="the CLI, whose --format dot output is the graph's reference")
parser.add_argument("--docs", required=True, type=pathlib.Path, help="docs/: the screenshots the documentation shows are written there")
parser.add_argument("--typedstream-corpus", type=pathlib.Path, help="../shared/typedstream-corpus (the typedstream case skips without it)")
args = parser.parse_args()
BASE = args.base
assert BASE.startswith("http://127.0.0.1:"), "loopback only"


def http(path, method="GET", body=None, headers=None):
    request = urllib.request.Request(BASE + path, method=method, data=body, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def make_driver(downloads):
    # Selenium Manager must never run (it would reach the network): both paths are given.
    os.environ["SE_AVOID_STATS"] = "true"
    os.environ["SE_OFFLINE"] = "true"
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1360,1000",
        # Nothing but loopback: every other host name fails to resolve, and any other HTTP(S)
        # connection would go to a closed loopback port; background services are off.
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=127.0.0.1",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
        "--disable-default-apps", "--disable-domain-reliability", "--disable-client-side-phishing-detection",
        "--no-pings", "--disable-features=OptimizationHints,MediaRouter,Translate,AutofillServerCommunication",
    ]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    # The copy buttons write the clipboard and the test reads it back.
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": BASE, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    # Before any page script: count dialogs and CSP violations (the native dialogs still open).
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        window.__dialogs = [];
        window.__csp = [];
        for (const name of ['alert', 'confirm', 'prompt']) {
            const original = window[name];
            window[name] = function (...rest) { window.__dialogs.push(name + ':' + rest.join(',')); return original.apply(this, rest); };
        }
        document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
    """})
    return driver


class Page:
    def __init__(self, driver):
        self.driver = driver
        self.shot_index = 0

    def wait(self, condition, what, timeout=30):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(lambda d: condition())
        except Exception as error:
            raise AssertionError(f"timed out waiting for {what}") from error

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def find(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def finds(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def text(self, selector):
        return self.find(selector).text

    def shot(self, name):
        self.shot_index += 1
        path = args.screenshots / f"{self.shot_index:02d}-{name}.png"
        self.driver.save_screenshot(str(path))
        print(f"  screenshot {path.name}")

    def verdict(self):
        return self.find("#verdict").get_attribute("data-verdict")

    def upload(self, path, expect):
        """Picks `path` in the file input and waits for a new verdict."""
        self.js("document.getElementById('verdict').removeAttribute('data-verdict')")
        self.find("#file-input").send_keys(str(path))
        self.wait(lambda: self.verdict() is not None, f"a verdict for {path.name}")
        assert self.verdict() == expect, f"{path.name}: verdict {self.verdict()!r}, expected {expect!r}: {self.text('#verdict')}"

    def use_key(self, key):
        self.find("#api-key").send_keys(key)
        self.find("#key-form button[type=submit]").click()
        self.wait(lambda: self.js("return sessionStorage.getItem('archivegate.apiKey')") == key, "the new key")

    def mode(self, name):
        self.find(f'input[name="mode"][value="{name}"]').click()

    def tree_text(self):
        return self.find("#tree").text

    def highlighted(self):
        return self.js("return document.querySelector('#tree .row.highlight')?.parentElement.dataset.pointer")

    def selected(self):
        return self.js("return document.querySelector('#tree .row.selected')?.parentElement.dataset.pointer")

    def clipboard(self):
        return self.driver.execute_async_script(
            "const done = arguments[0]; navigator.clipboard.readText().then(done, (e) => done('clipboard error: ' + e));")

    def row(self, pointer):
        return self.find(f'#tree li.node[data-pointer="{pointer}"] > .row')

    def search(self, text, scope="all"):
        """Types `text` into Find (scope: all, keys, values, classes) and waits for its count."""
        self.find(f'#search-scope option[value="{scope}"]').click()
        box = self.find("#tree-search")
        box.clear()
        box.send_keys(text)
        self.wait(lambda: self.find("#search-count").get_attribute("data-query") == f"{scope}:{text}", f"the search for {text!r}")

    def count(self):
        return int(self.find("#search-count").get_attribute("data-count"))

    def in_view(self, pointer):
        return self.js("""
            const row = document.querySelector(`#tree li.node[data-pointer="${arguments[0]}"] > .row`);
            const box = document.getElementById('tree').getBoundingClientRect();
            const r = row?.getBoundingClientRect();
            return !!r && r.top >= box.top && r.bottom <= box.bottom;
        """, pointer)

    def press(self, *keys):
        ActionChains(self.driver).send_keys(*keys).perform()

    def active(self):
        return self.js("""
            const a = document.activeElement;
            if (!a || a === document.body) return null;
            if (a.type === 'radio') return 'radio:' + a.name;
            if (a.id) return '#' + a.id;
            if (a.classList.contains('row')) return 'tree-row';
            return a.tagName + '.' + a.className;
        """)

    def assert_nothing_ran(self, context):
        try:
            alert = self.driver.switch_to.alert
            text = alert.text
            alert.dismiss()
            raise AssertionError(f"{context}: an alert opened: {text!r}")
        except NoAlertPresentException:
            pass
        assert self.js("return window.__dialogs") == [], f"{context}: dialogs {self.js('return window.__dialogs')}"
        assert self.js("return window.__csp") == [], f"{context}: CSP violations {self.js('return window.__csp')}"
        injected = self.js("""
            const found = [];
            for (const node of document.querySelectorAll('img, iframe, svg:not(#graph-svg), object, embed, style, frame, base, meta[http-equiv], b'))
                found.push(node.outerHTML.slice(0, 80));
            // The page's own graph: only the element kinds graph.js makes.
            const drawn = new Set(['g', 'path', 'text', 'rect', 'title', 'defs', 'marker']);
            for (const node of document.querySelectorAll('#graph-svg *'))
                if (!drawn.has(node.tagName)) found.push('graph ' + node.tagName);
            const scripts = document.querySelectorAll('script');
            if (scripts.length !== 1 || scripts[0].getAttribute('src') !== '/ui/inspector.js') found.push('extra script');
            for (const node of document.querySelectorAll('*'))
                for (const attribute of node.attributes)
                    if (attribute.name.startsWith('on') || /^\\s*javascript:/i.test(attribute.value)) found.push(node.tagName + ' ' + attribute.name);
            for (const link of document.querySelectorAll('a[href]')) found.push('link ' + link.getAttribute('href'));
            return found;
        """)
        assert injected == [], f"{context}: injected elements or attributes: {injected}"


def check_headers():
    for path, kind in [("/", "text/html"), ("/ui/inspector.js", "text/javascript"), ("/ui/inspector.css", "text/css")]:
        status, headers, _ = http(path)
        assert status == 200, f"{path}: {status}"
        assert headers["Content-Type"].startswith(kind), f"{path}: {headers['Content-Type']}"
        csp = headers["Content-Security-Policy"] or ""
        for directive in ["default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"]:
            assert directive in csp, f"{path}: CSP lacks {directive}: {csp}"
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, csp
        assert headers["X-Content-Type-Options"] == "nosniff", path
        assert headers["Referrer-Policy"] == "no-referrer", path
    print("ok: security headers on the page and its files")


class QuietHandler(http_server.SimpleHTTPRequestHandler):
    def log_message(self, *arguments):
        pass


def start_file_server(folder):
    """The only fetch destination: a loopback file server for the example archives."""
    server = http_server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main():
    args.screenshots.mkdir(parents=True, exist_ok=True)
    for old in args.screenshots.glob("*.png"):
        old.unlink()
    check_headers()
    downloads = pathlib.Path(tempfile.mkdtemp(prefix="inspector-downloads-"))
    malformed = downloads.parent / f"malformed-{os.getpid()}.archive"
    contact_bytes = (args.examples / "contact.archive").read_bytes()
    malformed.write_bytes(contact_bytes[:-40] + b"\xff" * 40)
    files = start_file_server(args.archives)
    driver = make_driver(downloads)
    page = Page(driver)
    try:
        run(page, downloads, malformed, files.server_address[1])
    except BaseException:
        driver.save_screenshot(str(args.screenshots / "failure.png"))
        raise
    finally:
        logs = driver.get_log("browser")
        driver.quit()
        files.shutdown()
        malformed.unlink(missing_ok=True)
    # Answers the test provoked (422 malformed) are logged as failed loads; anything else severe is a bug.
    severe = [entry["message"] for entry in logs if entry["level"] == "SEVERE"
              and "the server responded with a status of 422" not in entry["message"]]
    assert severe == [], f"browser console errors: {severe}"
    print("ok: no console errors")


def narrow_and_dark(page):
    """A 420 px window never scrolls sideways; prefers-color-scheme: dark gives dark colours."""
    page.upload(args.examples / "payload.archive", "rejected")
    page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 420, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    try:
        for state in ["result", "search"]:
            if state == "search":
                page.search("a")
            overflow = page.js("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            assert overflow[0] <= overflow[1], f"420 px window scrolls sideways ({state}): {overflow}"
            wide = page.js("""
                const width = document.documentElement.clientWidth;
                return [...document.querySelectorAll('body *')].filter((node) => node.checkVisibility()
                    && !node.closest('.tree, .graph-view, .hex-view, .batch-list') && node.getBoundingClientRect().right > width + 1)
                    .map((node) => node.tagName + '#' + node.id + '.' + node.className).slice(0, 5);
            """)
            assert wide == [], f"past the right edge at 420 px ({state}): {wide}"
        page.shot("narrow-420")
    finally:
        page.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    page.find("#tree-search").clear()
    light = page.js("return getComputedStyle(document.documentElement).backgroundColor")
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        dark = page.js("return getComputedStyle(document.documentElement).backgroundColor")
        channels = [int(value) for value in re.findall(r"\d+", dark)[:3]]
        assert max(channels) < 60 and dark != light, f"dark mode background {dark} (light {light})"
        page.find("#result").screenshot(str(args.docs / "inspector-dark.png"))
        page.shot("dark")
    finally:
        page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    print(f"ok: no sideways scrolling at 420 px; dark mode background {dark}")


def walkthrough(page):
    """docs/INSPECTOR.md: find the NSPredicate among 10,004 objects, timed; its screenshots are written to docs/."""
    page.mode("plain")
    page.use_key(args.forensics_key)  # admits and acknowledges NSPredicate: the predicate is shown
    started = time.monotonic()
    page.upload(args.archives / "predicate.archive", "valid")
    assert "10004 objects" in page.text("#verdict"), page.text("#verdict")
    assert "danger.predicate" in page.text("#findings")
    page.search("NSPredicate", "classes")
    assert page.count() == 1, page.text("#search-count")
    page.press(Keys.ENTER)
    page.wait(lambda: page.highlighted() == "/root/2718/filter", "the NSPredicate object")
    page.find("#copy-jq").click()
    page.wait(lambda: page.clipboard() == ".root[2718].filter", "the predicate's jq path on the clipboard")
    elapsed = time.monotonic() - started
    assert elapsed < 60, f"{elapsed:.1f} s"
    assert "NSPredicate" in page.row("/root/2718/filter").text, page.row("/root/2718/filter").text
    assert "subject CONTAINS[c] 'invoice'" in page.tree_text()
    page.find("#result").screenshot(str(args.docs / "inspector-find.png"))
    page.find("#tree-search").clear()
    page.use_key(DEMO_KEY)
    page.upload(args.examples / "payload.archive", "rejected")
    page.find("#violations .path-link").click()
    page.wait(lambda: page.highlighted() == "/root", "/root highlighted for docs/inspector.png")
    page.find("#result").screenshot(str(args.docs / "inspector.png"))
    print(f"ok: the walkthrough finds the NSPredicate (/root/2718/filter) among 10,004 objects in {elapsed:.1f} s; docs/inspector*.png written")


def dot_counts(archive):
    """Nodes and edges of `archivegate convert --format dot` for `archive` (the graph's reference)."""
    dot = subprocess.run([args.archivegate, "convert", "--format", "dot", str(archive)],
                         check=True, capture_output=True, text=True).stdout
    nodes = len(re.findall(r"^\s+(?:top|n\d+) \[", dot, re.M))
    edges = len(re.findall(r"^\s+\S+ -> ", dot, re.M))
    return nodes, edges


def graph_view(page):
    """The SVG object graph: DOT's node and edge counts, a violation in red, zoom, a node opens the tree."""
    page.mode("plain")
    page.upload(args.examples / "contact.archive", "valid")
    page.find("#graph-toggle").click()  # switches to typed mode by itself
    page.wait(lambda: page.find("#graph-view").get_attribute("data-nodes") not in (None, "0"), "the graph")
    nodes, edges = dot_counts(args.examples / "contact.archive")
    drawn = (len(page.finds("#graph-svg .graph-node")), len(page.finds("#graph-svg .graph-edge")))
    assert drawn == (nodes, edges), f"graph has {drawn} nodes/edges, DOT {nodes}/{edges}"
    labels = {node.get_attribute("data-id"): node.text for node in page.finds("#graph-svg .graph-node")}
    assert labels["n12"] == "NSURL" and labels["n13"] == '"https://example.com/ada"', labels
    view_box = "return document.getElementById('graph-svg').getAttribute('viewBox')"
    before = page.js(view_box)
    page.find("#graph-zoom-in").click()
    after = page.js(view_box)
    assert float(after.split()[2]) < float(before.split()[2]), (before, after)
    page.find("#graph-fit").click()
    page.shot("graph")
    page.find('#graph-svg .graph-node[data-uid="12"]').click()
    page.wait(lambda: page.highlighted() == "/$objects/12" and page.find("#tree").is_displayed(), "the clicked node to open in the tree")
    assert page.find("#graph-toggle").get_attribute("aria-pressed") == "false"
    page.upload(args.examples / "payload.archive", "rejected")
    page.find("#graph-toggle").click()
    page.wait(lambda: page.finds('#graph-svg .graph-node.bad[data-uid="1"]'), "the refused Sneaky.Payload in red")
    assert page.find('#graph-svg .graph-node.bad[data-uid="1"]').text == "Sneaky.Payload"
    page.find("#graph-toggle").click()
    page.mode("plain")
    page.wait(lambda: page.finds('#tree li.node[data-pointer="/root"]'), "plain mode again")
    print(f"ok: the graph draws DOT's {nodes} nodes and {edges} edges, zooms, opens a node in the tree, draws the violation red")


def data_and_classes(page):
    """Hex view of data, a nested archive opened in place, readable "Admitted by", "allow this class"."""
    page.upload(args.archives / "data.archive", "rejected")  # the nested archive is a danger finding
    page.row("/root/blob").click()
    page.find("#hex-toggle").click()
    page.wait(lambda: page.find("#hex-view").is_displayed(), "the hex view")
    hex_text = page.text("#hex-view")
    assert hex_text.startswith("9 bytes") and "00000000  00 01 62 70 6c 69 73 74  ff" in hex_text and "|..bplist.|" in hex_text, hex_text
    page.shot("hex-view")
    page.find("#hex-toggle").click()
    page.wait(lambda: not page.find("#hex-view").is_displayed(), "the hex view to close")
    admitted = page.text("#class-rows")
    assert "the policy's allow list" in admitted and '["allow"]' not in admitted, admitted
    print("ok: hex view of data; Admitted by reads as words")

    page.use_key(args.forensics_key)  # its policy acknowledges nested archives (NSData)
    page.find("#nested").click()
    page.wait(lambda: page.verdict() == "valid" and page.finds('#tree li.node[data-pointer="/root/archive"] > .row .summary'), "the nested archive opened in place")
    page.search("nested value", "values")
    assert page.count() == 1, page.text("#search-count")
    page.press(Keys.ENTER)
    page.wait(lambda: (page.highlighted() or "").startswith("/root/archive/$archive/") and page.highlighted().endswith("/inner"), "the nested value")
    nested = page.highlighted()
    page.shot("nested-archive")
    page.find("#nested").click()
    page.wait(lambda: not page.finds('#tree li.node[data-pointer="/root/archive/$archive"]'), "nested archives closed again")
    page.find("#tree-search").clear()
    page.use_key(DEMO_KEY)
    print(f"ok: the nested archive opens in place ({nested})")

    page.upload(args.examples / "payload.archive", "rejected")
    page.find("#class-rows tr.not-allowed .allow-class").click()
    page.wait(lambda: page.find("#allow-snippet").is_displayed(), "the allow snippet")
    assert page.text("#allow-snippet-text") == '{\n  "allow": [\n    "Sneaky.Payload"\n  ]\n}', page.text("#allow-snippet-text")
    page.find("#copy-snippet").click()
    page.wait(lambda: page.clipboard() == '{\n  "allow": [\n    "Sneaky.Payload"\n  ]\n}', "the snippet on the clipboard")
    print("ok: allow this class gives a policy snippet to copy")


def many_files(page, malformed):
    """A drop of four files lists four verdicts; each opens in turn; picking several files lists them too."""
    files = [args.examples / "contact.archive", args.examples / "payload.archive", malformed, args.archives / "note-1.archive"]
    payload = [[path.name, list(path.read_bytes())] for path in files]
    page.js("""
        const transfer = new DataTransfer();
        for (const [name, bytes] of arguments[0]) transfer.items.add(new File([new Uint8Array(bytes)], name));
        const zone = document.getElementById('drop-zone');
        zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    """, payload)
    page.wait(lambda: page.find("#batch-summary").get_attribute("data-done") == "true", "verdicts for the four dropped files")
    listed = {item.find_element(By.CSS_SELECTOR, ".batch-open").text: item.get_attribute("data-verdict") for item in page.finds("#batch-list li")}
    assert listed == {"contact.archive": "valid", "payload.archive": "rejected", malformed.name: "malformed", "note-1.archive": "valid"}, listed
    assert page.text("#batch-summary") == "4 files: 2 valid, 1 rejected, 1 malformed", page.text("#batch-summary")
    page.wait(lambda: page.text("#result-title") == "contact.archive" and page.verdict() == "valid", "the first file to open")
    page.shot("many-files")
    names = [button.text for button in page.finds("#batch-list .batch-open")]
    assert names == sorted(names), names
    button = page.finds("#batch-list .batch-open")[names.index("payload.archive")]
    button.click()
    page.wait(lambda: page.text("#result-title") == "payload.archive" and page.verdict() == "rejected", "payload.archive to open from the list")
    assert button.get_attribute("aria-current") == "true"
    page.find("#file-input").send_keys("\n".join(str(path) for path in files[:2]))
    page.wait(lambda: len(page.finds("#batch-list li")) == 2 and page.find("#batch-summary").get_attribute("data-done") == "true", "two picked files listed")
    print(f"ok: a drop of {len(files)} files lists {len(listed)} verdicts, each opens from the list; picking 2 files lists 2")


def explore_tree(page):
    """Find, copy, expand/collapse and $uid links on contact.archive."""
    page.mode("plain")
    page.upload(args.examples / "contact.archive", "valid")
    # "ada" is in three values (name, e-mail, homepage) and in no key.
    page.search("ada")
    assert page.count() == 3, page.text("#search-count")
    assert page.text("#search-count") == "3 matches", page.text("#search-count")
    marked = page.js("return [...document.querySelectorAll('#tree .row.match mark')].map((m) => m.textContent)")
    assert sorted(marked) == ["Ada", "ada", "ada"], marked
    page.press(Keys.ENTER)
    page.wait(lambda: page.highlighted() == "/root/homepage", "the first match to be revealed")
    assert page.text("#search-count") == "1 of 3", page.text("#search-count")
    page.find("#search-next").click()
    page.wait(lambda: page.highlighted() == "/root/name", "the second match")
    page.search("e", "keys")
    assert page.count() == 4, f"keys with an e: {page.text('#search-count')}"  # homepage, age, name, email
    page.search("NAME", "keys")
    assert page.count() == 1
    # Only matches: the way to /root/name stays, its siblings go.
    page.find("#search-filter").click()
    page.wait(lambda: not page.row("/root/tags").is_displayed(), "the filter to hide /root/tags")
    assert page.row("/root/name").is_displayed() and page.row("/root").is_displayed()
    page.shot("search-filter")
    page.find("#search-filter").click()
    page.wait(lambda: page.row("/root/tags").is_displayed(), "the filter to be lifted")
    print("ok: find counts and marks matches (values 3, keys 4 and 1), next/previous reveal them, only-matches filters")

    # Copy the selected row's pointer, jq path and value.
    page.row("/root/email").click()
    page.wait(lambda: page.selected() == "/root/email" and page.text("#selected-pointer") == "/root/email", "the row to be selected")
    for button, expected in [("#copy-pointer", "/root/email"), ("#copy-jq", ".root.email"), ("#copy-value", "ada@example.com")]:
        page.js("document.getElementById('copy-status').textContent = ''")
        page.find(button).click()
        page.wait(lambda: page.text("#copy-status").startswith("Copied"), f"{button} to copy")
        assert page.clipboard() == expected, (button, page.clipboard())
    page.row("/root/tags").click()
    page.find("#copy-value").click()
    page.wait(lambda: page.clipboard() == '[\n  "math",\n  "engines"\n]', "the array value on the clipboard")
    print("ok: copy value, JSON pointer and jq path put exactly those on the clipboard")

    # Collapse/expand all and per subtree.
    page.find("#collapse-tree").click()
    page.wait(lambda: not page.row("/root/name").is_displayed(), "collapse all")
    page.find("#expand-tree").click()
    page.wait(lambda: page.row("/root/tags/1").is_displayed(), "expand all to reach /root/tags/1")
    page.row("/root/tags").click()
    page.find("#collapse-subtree").click()
    page.wait(lambda: not page.row("/root/tags/0").is_displayed(), "collapse the /root/tags subtree")
    assert page.row("/root/name").is_displayed()
    page.find("#expand-subtree").click()
    page.wait(lambda: page.row("/root/tags/0").is_displayed(), "expand the /root/tags subtree")
    print("ok: expand/collapse all and per subtree")

    # Dates: local time beside the UTC text, and UTC only on request.
    assert "local" in page.row("/root/born").text, page.row("/root/born").text
    page.find("#utc-dates").click()
    page.wait(lambda: "local" not in page.row("/root/born").text, "UTC only")
    page.find("#utc-dates").click()
    print("ok: dates in local time with a UTC toggle")

    # Typed mode: $uid values are links to $objects with "back"; classes are found by name.
    page.mode("typed")
    page.wait(lambda: page.finds('#tree li.node[data-pointer="/$top/root"] .uid-link'), "typed JSON with $uid links")
    page.search("NSURL", "classes")
    assert page.count() == 1, page.text("#search-count")
    page.press(Keys.ENTER)
    page.wait(lambda: page.highlighted() == "/$objects/12", "the NSURL instance")
    page.find('#tree li.node[data-pointer="/$objects/12/NS.relative"] .uid-link').click()
    page.wait(lambda: page.highlighted() == "/$objects/13" and page.in_view("/$objects/13"), "/$objects/13 scrolled into view")
    assert page.row("/$objects/13").text.endswith('"https://example.com/ada"'), page.row("/$objects/13").text
    page.shot("typed-uid-link")
    page.find("#tree-back").click()
    page.wait(lambda: page.highlighted() == "/$objects/12/NS.relative", "back to the link")
    assert not page.find("#tree-back").is_enabled()
    # Keyboard: ArrowRight on a reference follows it, Backspace comes back, arrows move.
    page.press(Keys.ARROW_RIGHT)
    page.wait(lambda: page.selected() == "/$objects/13", "ArrowRight to follow the reference")
    page.press(Keys.BACKSPACE)
    page.wait(lambda: page.selected() == "/$objects/12/NS.relative", "Backspace to go back")
    page.press(Keys.ARROW_UP)
    page.wait(lambda: page.selected() == "/$objects/12/NS.base", "ArrowUp")
    page.press(Keys.ARROW_LEFT)
    page.wait(lambda: page.selected() == "/$objects/12", "ArrowLeft to the parent")
    page.press(Keys.ARROW_LEFT)
    page.wait(lambda: not page.row("/$objects/12/NS.base").is_displayed(), "ArrowLeft to collapse")
    page.press(Keys.ARROW_RIGHT)
    page.wait(lambda: page.row("/$objects/12/NS.base").is_displayed(), "ArrowRight to expand")
    page.press(Keys.ARROW_DOWN)
    page.wait(lambda: page.selected() == "/$objects/12/$class", "ArrowDown into the object")
    page.find("#tree-search").clear()
    page.mode("plain")
    page.wait(lambda: page.finds('#tree li.node[data-pointer="/root"]'), "plain mode again")
    print("ok: $uid links jump to and highlight their object, back returns; arrow keys drive the tree")

    keyboard_reaches_everything(page)


def keyboard_reaches_everything(page):
    """Tab from the top of the page reaches every visible, enabled control (a radio group once),
    the tree included, and every one shows a focus ring."""
    expected = set(page.js("""
        const seen = [];
        for (const node of document.querySelectorAll('button, input, select, [tabindex]')) {
            if (node.disabled || node.getAttribute('tabindex') === '-1' || node.closest('[hidden]')) continue;
            if (!node.checkVisibility() && !(node.type === 'file' && node.parentElement.checkVisibility())) continue;
            if (node.type === 'radio') seen.push('radio:' + node.name);
            else if (node.id) seen.push('#' + node.id);
            else if (node.classList.contains('row')) seen.push('tree-row');
            else seen.push(node.tagName + '.' + node.className);
        }
        return seen;
    """))
    page.js("document.activeElement?.blur(); window.scrollTo(0, 0)")
    reached = []
    unringed = []
    for _ in range(len(expected) * 3 + 20):
        page.press(Keys.TAB)
        now = page.active()
        if now is None:
            continue
        if reached and now == reached[0]:
            break
        reached.append(now)
        ring = page.js("const s = getComputedStyle(document.activeElement); return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0"
                       " || getComputedStyle(document.activeElement.parentElement).outlineStyle !== 'none'")
        if not ring:
            unringed.append(now)
    missing = expected - set(reached)
    assert not missing, f"Tab never reaches {sorted(missing)}; reached {reached}"
    assert not unringed, f"no visible focus on {unringed}"
    # Enter on the drop zone opens the picker: the file input is clicked (the test sees the click).
    page.js("window.__picked = 0; document.getElementById('file-input').addEventListener('click', (e) => { window.__picked += 1; e.preventDefault(); })")
    page.find("#drop-zone").send_keys(Keys.ENTER)
    page.wait(lambda: page.js("return window.__picked") == 1, "Enter on the drop zone to open the file picker")
    print(f"ok: Tab reaches all {len(expected)} controls (tree included) with a visible focus ring; Enter on the drop zone opens the picker")


def typedstream_message(page):
    """An iMessage attributedBody (an NSArchiver typedstream, issue 35): valid, its text in the tree."""
    corpus = args.typedstream_corpus.resolve() if args.typedstream_corpus else None  # Chromium takes canonical paths only
    if corpus is None or not (corpus / "SOURCES.md").exists():
        print("SKIPPED: the typedstream case: ../shared/typedstream-corpus is absent")
        return
    page.mode("plain")
    page.upload(corpus / "crabstep/33162f000e9abad2_AttributedBodyTextOnly", "valid")
    page.wait(lambda: '"Noter test"' in page.tree_text(), "the message text in the tree")
    assert "NSMutableAttributedString" in page.text("#class-rows"), page.text("#class-rows")
    page.shot("typedstream-message")
    print("ok: an iMessage typedstream body is valid and the tree shows its text")


def run(page, downloads, malformed, file_port):
    driver = page.driver
    driver.get(BASE + "/")
    page.wait(lambda: page.js("return document.body.dataset.ready") == "true", "the page's modules to load")
    assert page.text("#key-state") == "No key"
    page.shot("start")

    # The key: sessionStorage only.
    page.find("#api-key").send_keys(DEMO_KEY)
    page.find("#key-form button[type=submit]").click()
    page.wait(lambda: page.text("#key-state") == "Key set for this tab", "the key to be taken")
    assert page.js("return sessionStorage.getItem('archivegate.apiKey')") == DEMO_KEY
    assert page.js("return localStorage.length") == 0 and page.js("return document.cookie") == ""
    assert DEMO_KEY not in driver.current_url
    assert page.find("#api-key").get_attribute("value") == ""
    print("ok: key kept in sessionStorage only")

    # Valid: contact.archive, its fields in the tree.
    page.upload(args.examples / "contact.archive", "valid")
    tree = page.tree_text()
    for expected in ['"name"', '"Ada Lovelace"', '"email"', '"ada@example.com"', '"homepage"', '"https://example.com/ada"', '"tags"', "36"]:
        assert expected in tree, f"tree lacks {expected}: {tree}"
    classes = page.text("#class-rows")
    assert "NSDictionary" in classes and "NSURL" in classes, classes
    page.shot("valid-contact")
    print("ok: contact.archive is valid and the tree shows its fields")

    # Download: exactly what /v1/convert answers.
    page.find("#download-json").click()
    target = downloads / "contact.archive.plain.json"
    page.wait(target.exists, "the JSON download")
    _, _, converted = http("/v1/convert", "POST", (args.examples / "contact.archive").read_bytes(),
                           {"Authorization": f"Bearer {DEMO_KEY}", "Content-Type": "application/octet-stream"})
    page.wait(lambda: target.read_bytes() == converted, "the download to equal /v1/convert's JSON", timeout=10)
    print("ok: download equals /v1/convert")

    # Store it and find it in the list; open it from there.
    page.find("#store-result").click()
    page.wait(lambda: page.find("#store-status").get_attribute("data-id"), "the stored id")
    stored_id = page.find("#store-status").get_attribute("data-id")
    page.wait(lambda: page.finds(f'#stored-rows tr[data-id="{stored_id}"]'), "the stored result in the list")
    named = page.text(f'#stored-rows tr[data-id="{stored_id}"] td.source')
    assert named == "contact.archive", f"the stored result is listed as {named!r}, not by its file name"
    status, _, body = http(f"/v1/archives/{stored_id}", headers={"Authorization": f"Bearer {DEMO_KEY}"})
    assert status == 200 and b'"name":"contact.archive"' in body, (status, body[:200])
    page.shot("stored")
    page.find(f'#stored-rows tr[data-id="{stored_id}"] .open-stored').click()
    page.wait(lambda: page.text("#result-title") == f"Stored {stored_id} · contact.archive" and page.verdict() == "valid", "the stored result to open")
    page.wait(lambda: '"Ada Lovelace"' in page.tree_text(), "the stored JSON in the tree")
    print(f"ok: stored as {stored_id}, listed, reopened with its report and JSON")

    # Rejected: payload.archive; the violation's link highlights /root.
    page.upload(args.examples / "payload.archive", "rejected")
    links = page.finds("#violations .path-link")
    assert [link.get_attribute("data-pointer") for link in links] == ["/root"], [link.text for link in links]
    assert "Sneaky.Payload" in page.text("#class-rows")
    assert "no" in page.find("#class-rows tr.not-allowed").text
    links[0].click()
    page.wait(lambda: page.js("return document.querySelector('#tree .row.highlight')?.parentElement.dataset.pointer") == "/root",
              "/root to be highlighted")
    page.shot("rejected-payload")
    print("ok: payload.archive is rejected and its violation link highlights /root")

    # Typed mode: the violation link opens the offending object in $objects.
    page.mode("typed")
    page.wait(lambda: page.verdict() == "rejected" and page.finds("#violations .path-link")
              and page.find("#violations .path-link").get_attribute("data-pointer").startswith("/$objects/"), "typed mode")
    pointer = page.find("#violations .path-link").get_attribute("data-pointer")
    page.find("#violations .path-link").click()
    page.wait(lambda: page.js("return document.querySelector('#tree .row.highlight')?.parentElement.dataset.pointer") == pointer,
              f"{pointer} to be highlighted")
    page.shot("rejected-typed")
    page.mode("plain")
    page.wait(lambda: page.find("#violations .path-link").get_attribute("data-pointer") == "/root", "plain mode again")
    print(f"ok: typed mode links the violation to {pointer}")

    explore_tree(page)
    typedstream_message(page)
    many_files(page, malformed)
    data_and_classes(page)
    graph_view(page)

    # Malformed: the code and the byte offset.
    page.upload(malformed, "malformed")
    code = page.text("#verdict .problem-code")
    detail = page.text("#verdict .problem-detail")
    assert code.startswith("plist.") and "at byte" in detail, (code, detail)
    page.shot("malformed")
    print(f"ok: malformed file shows {code}: {detail}")

    # A URL the server fetches (loopback, allowed for this test), then stored: its JSON appears.
    url = f"http://127.0.0.1:{file_port}/fetched.archive"
    page.js("document.getElementById('verdict').removeAttribute('data-verdict')")
    page.find("#url-input").send_keys(url)
    page.find("#url-form button[type=submit]").click()
    page.wait(lambda: page.verdict() == "valid", "the fetched archive's verdict")
    assert "once it is stored" in page.text("#tree-note")
    page.find("#store-result").click()
    page.wait(lambda: '"Grace Hopper"' in page.tree_text(), "the fetched and stored JSON")
    page.wait(lambda: url in page.text("#stored-rows"), "the fetched result in the list")
    page.shot("fetched-url")
    print("ok: URL fetched, stored, JSON shown and listed")

    # Paging: twelve more results make a second page.
    for index in range(1, 13):
        status, _, _ = http("/v1/archives", "POST", (args.archives / f"note-{index}.archive").read_bytes(),
                            {"Authorization": f"Bearer {DEMO_KEY}", "Content-Type": "application/octet-stream"})
        assert status == 201, status
    page.find("#refresh-stored").click()
    page.wait(lambda: len(page.finds("#stored-rows tr[data-id]")) == 10 and page.find("#stored-next").is_enabled(), "a full first page")
    first = [row.get_attribute("data-id") for row in page.finds("#stored-rows tr[data-id]")]
    page.find("#stored-next").click()
    page.wait(lambda: page.text("#stored-page") == "Page 2", "page 2")
    second = [row.get_attribute("data-id") for row in page.finds("#stored-rows tr[data-id]")]
    assert second and not set(first) & set(second), (first, second)
    page.shot("stored-page-2")
    page.find("#stored-previous").click()
    page.wait(lambda: page.text("#stored-page") == "Page 1"
              and [row.get_attribute("data-id") for row in page.finds("#stored-rows tr[data-id]")] == first, "back to page 1")
    print(f"ok: paging ({len(first)} + {len(second)} rows)")

    # Hostile strings: shown as text, nothing runs, nothing is injected — in both modes.
    for mode in ["plain", "typed"]:
        page.mode(mode)
        page.upload(args.archives / "hostile.archive", "rejected")
        page.assert_nothing_ran(f"hostile archive ({mode})")
        for link in page.finds("#violations .path-link"):
            link.click()
        tree = page.tree_text()
        if mode == "plain":
            for shown in ["<script>alert('value')</script>", "\\\"><img src=x onerror=alert('name')>", "javascript:alert('url')"]:
                assert shown in tree, f"tree lacks {shown!r}"
        assert "\"><img src=x onerror=alert('class')>" in page.text("#class-rows")
        page.assert_nothing_ran(f"hostile archive ({mode}), after clicking")
        if mode == "typed":
            page.find("#graph-toggle").click()
            page.wait(lambda: page.finds("#graph-svg .graph-node.bad"), "the hostile archive's graph")
            labels = [node.text for node in page.finds("#graph-svg .graph-node")]
            assert any("<script>alert('value')</script>" in label or "onerror" in label for label in labels), labels
            page.assert_nothing_ran("hostile archive's graph")
            page.find("#graph-toggle").click()
        page.shot(f"hostile-{mode}")
    page.mode("plain")
    print("ok: hostile strings are text; no dialog, no CSP violation, no injected element or attribute")

    # 50,000 objects: the page answers at once and the tree renders lazily.
    started = time.monotonic()
    page.upload(args.archives / "large.archive", "valid")
    elapsed = time.monotonic() - started
    rendered = page.js("return document.querySelectorAll('#tree li.node').length")
    assert rendered <= 110, f"{rendered} rows rendered for a 50,000-item array"
    assert "[50000 items]" in page.tree_text()
    more = page.find("#tree .more")
    assert "49900 not shown" in more.text, more.text
    more.click()
    page.wait(lambda: page.js("return document.querySelectorAll('#tree li.node').length") == rendered + 100, "100 more rows")
    assert '"item 199"' in page.tree_text()
    probe = time.monotonic()
    page.js("return 1")
    assert time.monotonic() - probe < 1, "the page is busy"
    assert elapsed < 20, f"{elapsed:.1f} s to show a 50,000-object archive"
    page.shot("large")
    print(f"ok: 50,000-object archive shown in {elapsed:.1f} s with {rendered} rows rendered (+100 on 'show more')")

    narrow_and_dark(page)
    walkthrough(page)

    assert page.js("return localStorage.length") == 0 and page.js("return document.cookie") == ""
    page.assert_nothing_ran("end of run")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        print(f"FAILED: {error}", file=sys.stderr)
        sys.exit(1)
    print("scripts/test-ui: all passed")
