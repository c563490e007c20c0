"""Drives the inspector page in headless Chromium (Selenium). Run by scripts/test-ui, which starts
the server and writes the archives; see there. Every check is an assert; the first failure stops
the run with a non-zero exit and a screenshot named `failure.png`."""

import argparse
import functools
import http.server as http_server
import os
import pathlib
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

DEMO_KEY = "demo-key-change-me"

parser = argparse.ArgumentParser()
parser.add_argument("--base", required=True)
parser.add_argument("--examples", required=True, type=pathlib.Path)
parser.add_argument("--archives", required=True, type=pathlib.Path)
parser.add_argument("--screenshots", required=True, type=pathlib.Path)
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

    def mode(self, name):
        self.find(f'input[name="mode"][value="{name}"]').click()

    def tree_text(self):
        return self.find("#tree").text

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
            for (const node of document.querySelectorAll('img, iframe, svg, object, embed, style, frame, base, meta[http-equiv], b'))
                found.push(node.outerHTML.slice(0, 80));
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
    page.shot("stored")
    page.find(f'#stored-rows tr[data-id="{stored_id}"] .open-stored').click()
    page.wait(lambda: page.text("#result-title") == f"Stored {stored_id}" and page.verdict() == "valid", "the stored result to open")
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

    assert page.js("return localStorage.length") == 0 and page.js("return document.cookie") == ""
    page.assert_nothing_ran("end of run")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        print(f"FAILED: {error}", file=sys.stderr)
        sys.exit(1)
    print("scripts/test-ui: all passed")
