import ArchiveGateKeys
@testable import ArchiveGateServer
import Foundation
import Testing

/// A gate tenant whose policy admits everything stops the server at start (issue 16, policy lint).
@Suite struct PolicyLintStartTests {
    static let overBroad: [(policy: String, code: String)] = [
        (#"{"allow":["*"]}"#, "lint.any_class"),
        (#"{"allow":["plist","NSObject"]}"#, "lint.nsobject"),
        (#"{"root":["foundation"],"allow":["plist"]}"#, "lint.group_root"),
    ]

    static func tenantsDirectory(policy: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ag-lint-\(UUID().uuidString)")
        let tenants = directory.appendingPathComponent("tenants")
        try FileManager.default.createDirectory(at: tenants, withIntermediateDirectories: true)
        try #"{"id":"wide","keys":["\#(APIKeyHash(key: "wide-key").hex)"],"policy":\#(policy)}"#
            .write(to: tenants.appendingPathComponent("wide.json"), atomically: true, encoding: .utf8)
        return directory.path
    }

    @Test(arguments: overBroad.map(\.policy))
    func overBroadGatePoliciesAreRefusedWhenTenantsLoad(policy: String) throws {
        let directory = try Self.tenantsDirectory(policy: policy)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let code = Self.overBroad.first { $0.policy == policy }!.code
        do {
            _ = try TenantRegistry.load(directory: directory + "/tenants", defaults: TenantDefaults())
            Issue.record("an over-broad gate policy loaded")
        } catch {
            #expect("\(error)".contains(code))
            #expect("\(error)".contains("inspection"))
        }
    }

    @Test func anInspectionTenantMayAllowEverything() throws {
        let directory = try Self.tenantsDirectory(policy: #"{"allow":["*"],"inspection":true}"#)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let registry = try TenantRegistry.load(directory: directory + "/tenants", defaults: TenantDefaults())
        #expect(registry.authenticate(key: "wide-key")?.inspector.policy.inspection == true)
    }

    @Test func theServerProcessRefusesToStartWithAStarPolicy() throws {
        let directory = try Self.tenantsDirectory(policy: #"{"allow":["*"]}"#)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let process = Process()
        process.executableURL = ServerProcess.binary
        process.arguments = ["serve", "--config", directory, "--port", String(Int.random(in: 20_000...40_000)), "--log-level", "warning"]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        #expect(output.contains("lint.any_class"), "\(output)")
    }
}
