@testable import ArchiveGateServer
import Foundation
import Testing

/// docs/OPERATIONS.md's Configuration table and config/server.json list every key of
/// `ConfigurationDefaults` with that default, and nothing else: the defaults are written once.
@Suite struct ConfigurationDocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    /// How docs/OPERATIONS.md and server.json spell a default.
    private func documentedText(_ documented: DocumentedDefault) -> String {
        switch documented {
        case .sameAs(let key): "`\(key)`"
        case .none: "none"
        case .value(.integer(let value)): "`\(value)`"
        case .value(.number(let value)): "`\(value)`"
        case .value(.boolean(let value)): "`\(value)`"
        case .value(.string(let value)): "`\(value)`"
        case .value(.array(let items)) where items.isEmpty: "`[]`"
        case .value(let other): "unexpected \(other)"
        }
    }

    @Test func operationsTableListsEveryKeyWithItsDefault() throws {
        let operations = try String(contentsOf: Self.root.appendingPathComponent("docs/OPERATIONS.md"), encoding: .utf8)
        let header = "| key (`server.json`) | environment | default | meaning |"
        let table = try #require(operations.components(separatedBy: header).dropFirst().first)
            .components(separatedBy: "\n\n")[0]
        var rows: [String: [String]] = [:]
        for line in table.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            rows[cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells
        }
        for key in ConfigurationDefaults.all {
            let cells = try #require(rows[key.name], "docs/OPERATIONS.md lacks a row for \(key.name)")
            #expect(cells[2].hasPrefix("`\(key.environmentName)`"), "\(key.name): environment column \(cells[2])")
            #expect(cells[3].hasPrefix(documentedText(key.documentedDefault)), "\(key.name): default column \(cells[3])")
        }
        let known = Set(ConfigurationDefaults.all.map(\.name))
        #expect(Set(rows.keys).subtracting(known).isEmpty, "docs/OPERATIONS.md rows without a key: \(Set(rows.keys).subtracting(known))")
    }

    @Test func shippedServerJSONShowsEveryKeyWithItsDefault() throws {
        let data = try Data(contentsOf: Self.root.appendingPathComponent("config/server.json"))
        guard case .object(let file) = try #require(try ConfigurationJSON.parse(data)) else {
            Issue.record("server.json is not an object")
            return
        }
        let byName = Dictionary(uniqueKeysWithValues: ConfigurationDefaults.all.map { ($0.name, $0) })
        for key in ConfigurationDefaults.all {
            // Sections nest as the dotted name does: store.postgres.host is in store → postgres.
            let path = key.name.split(separator: ".").map(String.init)
            var section = file
            var sectionName = ""
            var found = true
            for part in path.dropLast() {
                sectionName += sectionName.isEmpty ? part : "." + part
                guard case .object(let nested)? = section[part] else {
                    Issue.record("server.json lacks the section \(sectionName)")
                    found = false
                    break
                }
                section = nested
            }
            guard found, let last = path.last else { continue }
            var expected = key.documentedDefault
            if case .sameAs(let other) = expected, let target = byName[other] { expected = target.documentedDefault }
            if key.isEnvironmentOnly {
                #expect(section[last] == nil, "server.json must not hold \(key.name): it is read from \(key.environmentName) only")
            } else if expected == .none {
                #expect(section[last] == .null, "server.json \(key.name) (no default: null)")
            } else {
                #expect(section[last].map(DocumentedDefault.value) == expected, "server.json \(key.name)")
            }
            guard case .string(let comment)? = section["$comment"] else {
                Issue.record("server.json section \(sectionName) has no $comment")
                continue
            }
            #expect(comment.contains(last), "the $comment of \(sectionName) does not mention \(last)")
        }
    }

    @Test func shippedConfigurationCarriesNoTenant() async throws {
        let configuration = try await ServerConfiguration.load(
            configDirectory: Self.root.appendingPathComponent("config").path, environment: [:])
        let registry = try TenantRegistry.load(directory: configuration.tenantsDirectory, defaults: configuration.tenantDefaults)
        #expect(registry.tenants.isEmpty)
    }
}
