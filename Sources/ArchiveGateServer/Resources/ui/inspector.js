// The inspector page: API key → archive (file, or URL the server fetches) → verdict, classes,
// violations, findings and the JSON tree; store results and browse the stored ones.

import { el, clear, byId } from './dom.js';
import { apiKey, inspectBytes, fetchURL, storeBytes, getStored, getStoredJSON, parseJSON, ProblemError } from './api.js';
import { renderVerdict, renderClasses, renderIssues, violationFields, allowSnippet } from './report.js';
import { copyText } from './paths.js';
import { JsonTree } from './tree.js';
import { StoredList } from './stored.js';
import { TreeTools } from './tree-tools.js';
import { BatchList, droppedFiles } from './batch.js';
import { GraphView } from './graph.js';

const tree = new JsonTree(byId('tree'), () => tools.update());
const tools = new TreeTools(tree);
const stored = new StoredList(openStored);
const graph = new GraphView(byId('graph-view'), (uid) => {
    showGraph(false);
    tree.reveal(`/$objects/${uid}`);
});
const batch = new BatchList((file) => run({ kind: 'file', name: file.name, bytes: file.bytes }));

/**
 * What is on screen. `source`: {kind: 'file', name, bytes} | {kind: 'url', url} | {kind: 'stored', id};
 * `jsonText`: the JSON exactly as the server sent it (downloaded as is).
 */
const state = { source: null, mode: 'plain', report: null, jsonText: null, document: null, treeNote: '', busy: false, ticket: 0 };

/** Starts a new display; an answer that arrives for an older one is dropped (the latest input wins). */
function nextTicket() {
    state.ticket += 1;
    return state.ticket;
}

function selectedMode() {
    return document.querySelector('input[name="mode"]:checked')?.value === 'typed' ? 'typed' : 'plain';
}

function setStatus(text) {
    byId('status').textContent = text;
}

// API key -------------------------------------------------------------------------------------

function showKeyState() {
    const present = apiKey.get() !== '';
    byId('key-state').textContent = present ? 'Key set for this tab' : 'No key';
    byId('key-state').className = `key-state ${present ? 'ok' : ''}`;
}

byId('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = byId('api-key');
    const key = input.value.trim();
    input.value = '';
    if (!key) return;
    apiKey.set(key);
    showKeyState();
    stored.reload();
});

byId('forget-key').addEventListener('click', () => {
    apiKey.clear();
    showKeyState();
});

// Input ---------------------------------------------------------------------------------------

const dropZone = byId('drop-zone');
dropZone.addEventListener('dragover', (event) => {
    event.preventDefault();
    dropZone.classList.add('over');
});
// Enter or Space on the drop zone opens the file picker (the zone is the keyboard's way in).
dropZone.addEventListener('keydown', (event) => {
    if (event.target !== dropZone || (event.key !== 'Enter' && event.key !== ' ')) return;
    event.preventDefault();
    byId('file-input').click();
});
dropZone.addEventListener('dragleave', () => dropZone.classList.remove('over'));
dropZone.addEventListener('drop', async (event) => {
    event.preventDefault();
    dropZone.classList.remove('over');
    inspectFiles(await droppedFiles(event.dataTransfer));
});
for (const id of ['file-input', 'folder-input']) {
    byId(id).addEventListener('change', (event) => {
        inspectFiles([...(event.target.files ?? [])]);
        event.target.value = '';
    });
}
byId('url-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const url = byId('url-input').value.trim();
    if (url) run({ kind: 'url', url });
});
for (const radio of [...document.querySelectorAll('input[name="mode"]'), byId('nested')]) {
    radio.addEventListener('change', () => {
        if (state.source && state.source.kind !== 'stored') run(state.source);
    });
}

/** One file opens at once; several are listed with their verdicts, the first one open. */
async function inspectFiles(files) {
    if (files.length === 0) return;
    if (files.length > 1 || files[0].webkitRelativePath) {
        batch.load(files);
        return;
    }
    batch.hide();
    const bytes = new Uint8Array(await files[0].arrayBuffer());
    run({ kind: 'file', name: files[0].name, bytes });
}

/** Inspects `source` in the selected mode and shows the outcome. */
async function run(source) {
    const ticket = nextTicket();
    const mode = selectedMode();
    Object.assign(state, { source, mode, report: null, jsonText: null, document: null });
    setStatus(source.kind === 'url' ? 'Fetching…' : 'Inspecting…');
    showResult(source.kind === 'url' ? source.url : source.name, { store: true });
    try {
        if (source.kind === 'file') {
            const { report, jsonText } = await inspectBytes(source.bytes, mode, byId('nested').checked);
            if (ticket !== state.ticket) return;
            showReport(report, jsonText, '');
        } else {
            const report = await fetchURL(source.url, mode, false);
            if (ticket !== state.ticket) return;
            showReport(report, null, 'A fetched archive\'s JSON is shown once it is stored: press "Store result".');
        }
        setStatus('');
    } catch (error) {
        if (ticket === state.ticket) showFailure(error);
    }
}

// Output --------------------------------------------------------------------------------------

function showResult(title, { store }) {
    byId('welcome').hidden = true;
    byId('result').hidden = false;
    byId('result-title').textContent = title;
    byId('store-status').textContent = '';
    byId('store-result').hidden = !store;
    byId('store-result').disabled = true;
    byId('download-json').disabled = true;
    byId('tree-note').textContent = '';
    clear(byId('verdict'));
    delete byId('verdict').dataset.verdict;
    tree.clear();
    renderClasses(byId('class-head'), byId('class-rows'), [], showAllowSnippet);
    byId('allow-snippet').hidden = true;
    clear(byId('violations'));
    clear(byId('findings'));
    byId('findings-section').hidden = true;
}

function showReport(report, jsonText, note) {
    state.report = report;
    state.jsonText = jsonText;
    renderVerdict(byId('verdict'), { kind: report.valid ? 'valid' : 'rejected', report });
    byId('report-panel').hidden = false;
    renderClasses(byId('class-head'), byId('class-rows'), report.classes, showAllowSnippet);
    const open = (pointer) => {
        byId('tree-note').textContent = tree.reveal(pointer)
            ? state.treeNote : `${pointer} is not in this JSON; the nearest part is highlighted.`;
    };
    renderIssues(byId('violations'), report.violations, state.mode, open,
        { emptyText: 'No violations.', known: violationFields });
    const hasFindings = Array.isArray(report.findings);
    byId('findings-section').hidden = !hasFindings;
    if (hasFindings) {
        renderIssues(byId('findings'), report.findings, state.mode, open, { emptyText: 'No findings.', known: violationFields });
    }
    byId('json-panel').hidden = false;
    if (jsonText !== null) {
        state.document = parseJSON(jsonText);
        tree.show(state.document, { typed: state.mode === 'typed' });
        tools.searchAgain();
        state.treeNote = report.valid ? '' : 'Rejected: each violating subtree is shown as null, as a redact policy renders it.';
    } else {
        state.treeNote = note;
    }
    byId('tree-note').textContent = state.treeNote;
    if (graphShown()) drawGraph();
    byId('download-json').disabled = jsonText === null;
    byId('store-result').disabled = state.source?.kind === 'stored';
}

function showFailure(error) {
    setStatus('');
    const status = error instanceof ProblemError ? error.status : 0;
    const problem = error instanceof ProblemError ? error.problem : { code: 'ui.error', detail: String(error) };
    const malformed = status === 422 || status === 413;
    renderVerdict(byId('verdict'), { kind: malformed ? 'malformed' : 'failed', problem, status });
    byId('report-panel').hidden = true;
    byId('json-panel').hidden = true;
    byId('store-result').disabled = true;
}

/** "Allow this class": the policy lines that admit `name`, to copy into the tenant's policy. */
function showAllowSnippet(name) {
    byId('allow-snippet-text').textContent = allowSnippet(name);
    byId('allow-snippet').hidden = false;
    byId('copy-snippet').focus();
}

byId('copy-snippet').addEventListener('click', async () => {
    const done = await copyText(byId('allow-snippet-text').textContent);
    byId('copy-snippet').textContent = done ? 'Copied' : 'Copy refused';
    setTimeout(() => { byId('copy-snippet').textContent = 'Copy snippet'; }, 1500);
});

// Graph ---------------------------------------------------------------------------------------

function graphShown() {
    return byId('graph-toggle').getAttribute('aria-pressed') === 'true';
}

/** The graph replaces the tree while it is shown; it needs typed JSON, so it switches to typed mode. */
function showGraph(on) {
    byId('graph-toggle').setAttribute('aria-pressed', String(on));
    byId('graph-panel').hidden = !on;
    byId('tree').hidden = on;
    if (!on) return;
    if (state.mode !== 'typed' && state.source && state.source.kind !== 'stored') {
        document.querySelector('input[name="mode"][value="typed"]').checked = true;
        byId('graph-note').textContent = 'Switching to typed mode…';
        run(state.source);
        return;
    }
    drawGraph();
}

function drawGraph() {
    const red = new Set([...(state.report?.violations ?? []), ...(state.report?.findings ?? [])]
        .map((item) => item.uid).filter(Number.isInteger));  // findings name paths; a uid when they have one
    const drawn = state.document === null || state.mode !== 'typed' ? null : graph.draw(state.document, red);
    byId('graph-note').textContent = drawn === null ? 'The graph needs the typed JSON: open this archive in typed mode.'
        : `${drawn.nodes} nodes, ${drawn.edges} edges${drawn.total > drawn.nodes ? ` (the first ${drawn.nodes} of ${drawn.total} objects)` : ''}; drag or Shift+arrows to pan, wheel or +/− to zoom, a node opens its object.`;
    const view = byId('graph-view');
    view.dataset.nodes = String(drawn?.nodes ?? 0);
    view.dataset.edges = String(drawn?.edges ?? 0);
}

byId('graph-toggle').addEventListener('click', () => showGraph(!graphShown()));
byId('graph-zoom-in').addEventListener('click', () => graph.zoom(1.25));
byId('graph-zoom-out').addEventListener('click', () => graph.zoom(0.8));
byId('graph-fit').addEventListener('click', () => graph.fit());

// Actions -------------------------------------------------------------------------------------

byId('download-json').addEventListener('click', () => {
    if (state.jsonText === null) return;
    const blob = new Blob([state.jsonText], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const base = state.source?.kind === 'file' ? state.source.name : state.source?.kind === 'stored' ? state.source.id : 'archive';
    const link = el('a', { attrs: { href: url, download: `${base.replace(/[^A-Za-z0-9._-]/g, '_')}.${state.mode}.json` } });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
});

byId('store-result').addEventListener('click', async () => {
    const source = state.source;
    if (!source || source.kind === 'stored' || state.busy) return;
    state.busy = true;
    const ticket = state.ticket;
    const status = byId('store-status');
    status.textContent = 'Storing…';
    try {
        let result;
        let created;
        if (source.kind === 'file') {
            ({ result, created } = await storeBytes(source.bytes, state.mode, source.name));
        } else {
            result = await fetchURL(source.url, state.mode, true);
            created = true;
            if (result.hasJSON) {
                const jsonText = await getStoredJSON(result.id);
                if (ticket === state.ticket) showReport(result.report, jsonText, '');
            }
        }
        status.textContent = `${created ? 'Stored' : 'Already stored'} as ${result.id}.`;
        status.dataset.id = result.id;
        await stored.reload();
    } catch (error) {
        status.textContent = `${error.problem?.code ?? 'error'}: ${error.message}`;
    } finally {
        state.busy = false;
    }
});

async function openStored(summary) {
    const ticket = nextTicket();
    Object.assign(state, { source: { kind: 'stored', id: summary.id }, mode: summary.mode, report: null, jsonText: null });
    showResult(summary.name ? `Stored ${summary.id} · ${summary.name}` : `Stored ${summary.id}`, { store: false });
    setStatus('Loading…');
    try {
        const result = await getStored(summary.id);
        const jsonText = result.hasJSON ? await getStoredJSON(summary.id) : null;
        if (ticket !== state.ticket) return;
        showReport(result.report, jsonText, 'No JSON was stored: the policy rejected this archive.');
        byId('store-status').textContent = `${result.name ? `${result.name} · ` : ''}${result.source} · ${result.mode} · ${result.size} bytes · created ${result.createdAt} · expires ${result.expiresAt}`;
        setStatus('');
    } catch (error) {
        if (ticket === state.ticket) showFailure(error);
    }
}

showKeyState();
if (apiKey.get()) stored.reload();
document.body.dataset.ready = 'true';
