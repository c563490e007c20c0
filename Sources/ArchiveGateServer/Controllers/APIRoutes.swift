import Hummingbird

/// The authenticated API, registered once per prefix it is served at: `/v1/validate` and
/// `/validate` are the same route (the same middleware, controllers and state), not a redirect a
/// client would have to follow with its POST body. The unversioned paths are the ones the service
/// was first specified with ("POST archives to `/validate`"); `/v1` stays the canonical name
/// (`Location` headers use it). Every route is written once, in the controllers' `register`.
struct APIRoutes {
    typealias Context = ArchiveRequestContext

    /// The prefixes the API is served under, `v1` first. OpenAPI lists the paths of both
    /// (`openapi.yaml`: each unversioned path is a `$ref` to its `/v1` path item).
    static let prefixes: [RouterPath] = ["v1", ""]

    /// Applied in this order before every API route: Bearer key → tenant, token bucket → 429,
    /// memory lease → 503.
    let middleware: [any MiddlewareProtocol<Request, Response, Context>]
    /// Each adds its routes to the group it is given.
    let controllers: [(RouterGroup<Context>) -> Void]

    func register(on router: Router<Context>) {
        for prefix in Self.prefixes {
            let group = router.group(prefix)
            for middleware in middleware { group.add(middleware: middleware) }
            for register in controllers { register(group) }
        }
    }
}
