@testable import ArchiveGateServer
import Testing

/// Which client request ids are kept, and the ones the server makes.
@Suite struct RequestIdMiddlewareTests {
    @Test func requestIdsAreKeptOnlyWhenSane() {
        #expect(RequestIdMiddleware.sanitized("abc-123_x.y:z") == "abc-123_x.y:z")
        #expect(RequestIdMiddleware.sanitized("") == nil)
        #expect(RequestIdMiddleware.sanitized("a b") == nil)
        #expect(RequestIdMiddleware.sanitized("line\nbreak") == nil)
        #expect(RequestIdMiddleware.sanitized(String(repeating: "a", count: 129)) == nil)
        #expect(RequestIdMiddleware.generate().count == 32)
        let generated = (0..<100).map { _ in RequestIdMiddleware.generate() }
        #expect(generated.allSatisfy { $0.utf8.count == 32 && $0.utf8.allSatisfy { "0123456789abcdef".utf8.contains($0) } })
        #expect(Set(generated).count == 100)
    }
}
