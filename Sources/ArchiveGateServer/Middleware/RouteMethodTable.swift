import HTTPTypes
import Hummingbird
import Synchronization

/// Which methods each registered path serves, read from the router itself once every route is
/// registered, so that a known path with another method is a 405 with `Allow` (Hummingbird's
/// router answers 404 for both) without a second list of routes to keep in step.
final class RouteMethodTable: Sendable {
    /// Path pattern (`/v1/archives/*`, a `*` segment matching any one segment) → methods.
    private let methodsByPath = Mutex<[String: [HTTPRequest.Method]]>([:])

    /// Reads the router's routes; captures such as `{id}` become `*`.
    func load(from routes: [Router<ArchiveRequestContext>.RouteDescription]) {
        var table: [String: [HTTPRequest.Method]] = [:]
        for route in routes {
            let pattern = route.path.description.split(separator: "/").map { component in
                component.hasPrefix("{") || component.hasPrefix(":") || component == "*" ? "*" : String(component)
            }
            table["/" + pattern.joined(separator: "/"), default: []].append(route.method)
        }
        for (path, methods) in table {
            table[path] = methods.sorted { Self.rank($0) < Self.rank($1) }
        }
        methodsByPath.withLock { $0 = table }
    }

    /// `Allow` lists methods in the order RFC 9110 introduces them: GET, HEAD, POST, PUT, DELETE…
    private static func rank(_ method: HTTPRequest.Method) -> Int {
        [HTTPRequest.Method.get, .head, .post, .put, .patch, .delete, .options].firstIndex(of: method) ?? 99
    }

    /// The methods `path` is served with, or nil for an unknown path.
    func methods(forPath path: String) -> [HTTPRequest.Method]? {
        let table = methodsByPath.withLock { $0 }
        if let methods = table[path] { return methods }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (pattern, methods) in table where pattern.contains("*") {
            let patternSegments = pattern.split(separator: "/", omittingEmptySubsequences: false)
            guard patternSegments.count == segments.count else { continue }
            if zip(patternSegments, segments).allSatisfy({ $0 == "*" ? !$1.isEmpty : $0 == $1 }) { return methods }
        }
        return nil
    }
}
