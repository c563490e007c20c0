@testable import ArchiveGateServer
import Testing

/// `Authorization` header → Bearer token: the plain `Bearer <token>` form (read without
/// Foundation) and every other form (the general reading) give the same answers as before.
@Suite struct BearerTokenTests {
    @Test(arguments: [
        ("Bearer ag_live_0123456789abcdef", "ag_live_0123456789abcdef"),
        ("Bearer a", "a"),
        ("Bearer a b", "a b"),
        ("bearer key", "key"),
        ("BEARER key", "key"),
        ("Bearer  key", "key"),
        ("Bearer key ", "key"),
        ("Bearer key\t", "key"),
        ("Bearer \tkey", "key"),
        ("Bearer clé", "clé"),
        ("Bearer éa", "éa"),
    ])
    func tokens(header: String, token: String) {
        #expect(AuthenticationMiddleware.bearerToken(header) == token)
    }

    @Test(arguments: ["Bearer", "Bearer ", "Bearer  ", "Bearer \t", "Basic key", "Bearer\tkey", "Bearerkey", "", " Bearer"])
    func noToken(header: String) {
        #expect(AuthenticationMiddleware.bearerToken(header) == nil)
    }
}
