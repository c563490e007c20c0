@testable import ArchiveGateServer
import Testing

/// `AuthenticationMiddleware.bearerToken`'s byte-wise reading of ASCII headers gives what the
/// general (Foundation) reading gives.
@Suite struct BearerTokenTests {
    @Test func knownHeaders() {
        #expect(AuthenticationMiddleware.bearerToken("Bearer abc") == "abc")
        #expect(AuthenticationMiddleware.bearerToken("bEaReR   abc \t ") == "abc")
        #expect(AuthenticationMiddleware.bearerToken("  Bearer a b") == "a b")
        #expect(AuthenticationMiddleware.bearerToken("Bearer") == nil)
        #expect(AuthenticationMiddleware.bearerToken("Bearer ") == nil)
        #expect(AuthenticationMiddleware.bearerToken("Bearer \t ") == nil)
        #expect(AuthenticationMiddleware.bearerToken("Bearer\tabc") == nil)
        #expect(AuthenticationMiddleware.bearerToken("Basic abc") == nil)
        #expect(AuthenticationMiddleware.bearerToken("Bearerx abc") == nil)
        #expect(AuthenticationMiddleware.bearerToken("Bearer k\u{A0}") == "k")
    }

    /// Every header of up to 4 characters over an alphabet that exercises each rule, and longer
    /// random ones, read both ways.
    @Test func asciiReadingMatchesTheGeneralOne() {
        let alphabet: [String] = [" ", "\t", "B", "e", "a", "r", "E", "A", "R", "b", "x", "@", "b"]
        var headers = [""]
        var layer = [""]
        for _ in 0..<4 {
            layer = layer.flatMap { prefix in alphabet.map { prefix + $0 } }
            headers += layer
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let scheme = ["Bearer", "bearer", "BEARER", "Bearer", "Basic", "Bear", "bearerr"].randomElement(using: &generator)!
            var header = String(repeating: " ", count: Int.random(in: 0...2, using: &generator)) + scheme
            for _ in 0..<Int.random(in: 0...8, using: &generator) { header += alphabet.randomElement(using: &generator)! }
            headers.append(header)
        }
        var mismatches: [String] = []
        for header in headers where AuthenticationMiddleware.bearerToken(header) != AuthenticationMiddleware.unicodeBearerToken(header) {
            mismatches.append(header)
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }
}
