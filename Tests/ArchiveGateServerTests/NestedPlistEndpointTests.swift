import ArchiveGateCore
import ArchiveGateTestSupport
import Foundation
import Testing

/// `POST /v1/convert?nested=true` shows a plain property list inside NSData as `{"$plist": …}`.
@Suite struct NestedPlistEndpointTests {
    @Test func convertWithNestedRendersThePlistInPlace() async throws {
        var builder = KeyedArchiveBuilder()
        let inner = BinaryPropertyListWriter.write(.dictionary([.init(key: "cipherVersion", value: .integer(1))]))
        builder.setTop("root", builder.array(of: [builder.add(.data(inner))]))
        let bytes = builder.binary()
        try await TestServer.run { port in
            let nested = try await TestServer.send("/v1/convert?nested=true", port: port, key: TestTenant.beta.key, body: bytes)
            #expect(nested.status == 200, "\(nested.text)")
            #expect(nested.text == #"{"root":[{"$plist":{"cipherVersion":1}}]}"#, "\(nested.text)")
            let flat = try await TestServer.send("/v1/convert", port: port, key: TestTenant.beta.key, body: bytes)
            #expect(flat.text.hasPrefix(#"{"root":["YnBsaXN0MDD"#), "\(flat.text)")
        }
    }
}
