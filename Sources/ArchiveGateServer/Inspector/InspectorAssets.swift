/// The inspector page's files (`Resources/ui/…`), embedded at build time like the OpenAPI document
/// (SwiftPM `embedInCode`): the page needs no CDN, no resource bundle and no file at run time, so it
/// works offline and in an air-gapped lab. Plain HTML, CSS and JavaScript modules: no build step.
enum InspectorAssets {
    struct Asset: Sendable {
        let bytes: [UInt8]
        let contentType: String
    }

    /// The page `GET /` serves.
    static let page = Asset(bytes: PackageResources.index_html, contentType: "text/html; charset=utf-8")

    /// Files served as `/ui/<name>`; any other name is a 404.
    static let byName: [String: Asset] = [
        "index.html": page,
        "inspector.css": Asset(bytes: PackageResources.inspector_css, contentType: "text/css; charset=utf-8"),
        "inspector.js": Asset(bytes: PackageResources.inspector_js, contentType: "text/javascript; charset=utf-8"),
        "api.js": Asset(bytes: PackageResources.api_js, contentType: "text/javascript; charset=utf-8"),
        "dom.js": Asset(bytes: PackageResources.dom_js, contentType: "text/javascript; charset=utf-8"),
        "report.js": Asset(bytes: PackageResources.report_js, contentType: "text/javascript; charset=utf-8"),
        "tree.js": Asset(bytes: PackageResources.tree_js, contentType: "text/javascript; charset=utf-8"),
        "stored.js": Asset(bytes: PackageResources.stored_js, contentType: "text/javascript; charset=utf-8"),
        "paths.js": Asset(bytes: PackageResources.paths_js, contentType: "text/javascript; charset=utf-8"),
        "search.js": Asset(bytes: PackageResources.search_js, contentType: "text/javascript; charset=utf-8"),
        "dates.js": Asset(bytes: PackageResources.dates_js, contentType: "text/javascript; charset=utf-8"),
        "tree-tools.js": Asset(bytes: PackageResources.tree_tools_js, contentType: "text/javascript; charset=utf-8"),
        "batch.js": Asset(bytes: PackageResources.batch_js, contentType: "text/javascript; charset=utf-8"),
        "hex.js": Asset(bytes: PackageResources.hex_js, contentType: "text/javascript; charset=utf-8"),
        "graph.js": Asset(bytes: PackageResources.graph_js, contentType: "text/javascript; charset=utf-8"),
        "favicon.svg": Asset(bytes: PackageResources.favicon_svg, contentType: "image/svg+xml"),
    ]
}
