import ArchiveGateKeys
@testable import ArchiveGateServer
import Testing

/// Key hashing on its own.
@Suite struct APIKeyHashTests {
    @Test func keyHashIsSHA256HexAndComparesExactly() {
        // SHA-256("abc"), FIPS 180-2 test vector.
        #expect(APIKeyHash(key: "abc").hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let parsed = APIKeyHash(hex: "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD")
        #expect(parsed.map { APIKeyHash(key: "abc").constantTimeEquals($0) } == true)
        #expect(!APIKeyHash(key: "abd").constantTimeEquals(APIKeyHash(key: "abc")))
        #expect(APIKeyHash(hex: "xyz") == nil)
    }
}
