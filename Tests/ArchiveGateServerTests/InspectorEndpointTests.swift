import ArchiveGateServer
import Foundation
import Testing

/// The inspector page (`GET /`, `/ui/<file>`), its security headers, `ui.enabled`, and
/// `POST /v1/inspect`, the call the page makes for an upload.
@Suite struct InspectorEndpointTests {
    /// Every header the page and its files must carry.
    static func expectSecurityHeaders(_ reply: TestReply, _ path: String) {
        let policy = reply.headers.first(name: "Content-Security-Policy") ?? ""
        #expect(policy.contains("default-src 'self'"), "\(path)")
        #expect(policy.contains("frame-ancestors 'none'"), "\(path)")
        #expect(policy.contains("script-src 'self'"), "\(path)")
        #expect(policy.contains("style-src 'self'"), "\(path)")
        #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"), "\(path)")
        #expect(reply.headers.first(name: "X-Content-Type-Options") == "nosniff", "\(path)")
        #expect(reply.headers.first(name: "Referrer-Policy") == "no-referrer", "\(path)")
    }

    /// `/ui/…` references in `text`: the page's `src`/`href` and the modules' `import … from './x.js'`.
    static func references(in text: String) -> Set<String> {
        var names: Set<String> = []
        for pattern in [#"/ui/([A-Za-z0-9._-]+)"#, #"from '\./([A-Za-z0-9._-]+)'"#] {
            let regex = try! NSRegularExpression(pattern: pattern)
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                names.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        return names
    }

    @Test func pageAndEveryFileItLoadsAreServedWithTypesAndSecurityHeaders() async throws {
        try await TestServer.run { port in
            let page = try await TestServer.send("/", method: .GET, port: port)
            #expect(page.status == 200)
            #expect(page.headers.first(name: "Content-Type") == "text/html; charset=utf-8")
            Self.expectSecurityHeaders(page, "/")
            #expect(page.text.contains(#"<script type="module" src="/ui/inspector.js"></script>"#))

            // Walk the module graph from the page: every referenced file exists and is typed right.
            var pending = Self.references(in: page.text)
            var seen: Set<String> = []
            while let name = pending.popFirst() {
                guard seen.insert(name).inserted else { continue }
                let reply = try await TestServer.send("/ui/\(name)", method: .GET, port: port)
                #expect(reply.status == 200, "\(name)")
                Self.expectSecurityHeaders(reply, name)
                let type = reply.headers.first(name: "Content-Type")
                if name.hasSuffix(".js") {
                    #expect(type == "text/javascript; charset=utf-8", "\(name)")
                    // Archive strings reach the page as text only.
                    #expect(!reply.text.contains("innerHTML") && !reply.text.contains("outerHTML")
                        && !reply.text.contains("insertAdjacentHTML") && !reply.text.contains("document.write"), "\(name)")
                    #expect(!reply.text.contains("localStorage") && !reply.text.contains("document.cookie"), "\(name)")
                    pending.formUnion(Self.references(in: reply.text).subtracting(seen))
                } else if name.hasSuffix(".css") {
                    #expect(type == "text/css; charset=utf-8", "\(name)")
                    #expect(!reply.text.contains("@import") && !reply.text.contains("url("), "\(name)")
                }
            }
            #expect(seen.isSuperset(of: ["inspector.css", "inspector.js", "api.js", "dom.js", "report.js", "tree.js", "stored.js"]))
        }
    }

    @Test func pageHasNoInlineScriptStyleOrExternalOrigin() async throws {
        try await TestServer.run { port in
            let page = try await TestServer.send("/", method: .GET, port: port).text
            let scripts = page.components(separatedBy: "<script").dropFirst()
            #expect(scripts.count == 1)
            for script in scripts { #expect(script.hasPrefix(#" type="module" src="/ui/"#)) }
            #expect(!page.contains("<style") && !page.contains("style="))
            #expect(page.range(of: #"\son[a-z]+\s*="#, options: .regularExpression) == nil, "inline event handler")
            // Everything the page loads is from its own origin (the one https:// is a placeholder text).
            #expect(page.range(of: #"(src|href)\s*=\s*"(?!/ui/)"#, options: .regularExpression) == nil)
        }
    }

    @Test func unknownFilesAre404AndOtherMethods405() async throws {
        try await TestServer.run { port in
            for path in ["/ui/missing.js", "/ui/", "/ui/..%2Fopenapi.yaml", "/index.html"] {
                let reply = try await TestServer.send(path, method: .GET, port: port)
                #expect(reply.status == 404, "\(path)")
                #expect(reply.headers.first(name: "Content-Type") == "application/problem+json", "\(path)")
            }
            let post = try await TestServer.send("/", method: .POST, port: port, body: [1])
            #expect(post.status == 405)
            #expect(post.headers.first(name: "Allow") == "GET")
        }
    }

    @Test func uiDisabledAnswers404() async throws {
        try await TestServer.run(configure: { $0.uiEnabled = false }) { port in
            for path in ["/", "/ui/inspector.js", "/ui/inspector.css"] {
                let reply = try await TestServer.send(path, method: .GET, port: port)
                #expect(reply.status == 404, "\(path)")
                #expect(reply.json["code"] as? String == "request.not_found")
            }
            // The API is unaffected.
            #expect(try await TestServer.send("/healthz", method: .GET, port: port).status == 200)
        }
    }

    @Test func uiEnabledKeyIsReadAndDefaultsToTrue() async throws {
        #expect(try await ServerConfiguration.load(configDirectory: nil, environment: [:]).uiEnabled)
        let off = try await ServerConfiguration.load(configDirectory: nil, environment: ["ARCHIVEGATE_UI_ENABLED": "false"])
        #expect(!off.uiEnabled)
        let directory = try TestServer.makeConfigDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try #"{"ui":{"enabled":false}}"#.write(toFile: directory + "/server.json", atomically: true, encoding: .utf8)
        #expect(!(try await ServerConfiguration.load(configDirectory: directory, environment: [:]).uiEnabled))
        #expect(try await ServerConfiguration.load(configDirectory: directory, overrides: ["ui.enabled": "true"], environment: [:]).uiEnabled)
    }

    /// Splits a `/v1/inspect` body at `X-ArchiveGate-JSON-Length`.
    static func split(_ reply: TestReply) throws -> (json: [UInt8], report: [String: Any]) {
        let length = try #require(reply.headers.first(name: "X-ArchiveGate-JSON-Length").flatMap { Int($0) })
        let whole = try #require(try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any])
        #expect(Array(reply.body.prefix(8)) == Array(#"{"json":"#.utf8))
        let json = Array(reply.body[8..<(8 + length)])
        #expect(Array(reply.body[(8 + length)...].prefix(10)) == Array(#","report":"#.utf8))
        return (json, try #require(whole["report"] as? [String: Any]))
    }

    @Test func inspectAnswersTheReportAndExactlyTheConvertedJSON() async throws {
        try await TestServer.run { port in
            let archive = try Fixtures.plainArchive()
            for mode in ["plain", "typed"] {
                let reply = try await TestServer.send("/v1/inspect?mode=\(mode)", port: port, key: TestTenant.alpha.key, body: archive)
                #expect(reply.status == 200)
                #expect(reply.headers.first(name: "Content-Type") == "application/json")
                #expect(reply.headers.first(name: "X-ArchiveGate-Violations") == "0")
                let (json, report) = try Self.split(reply)
                let converted = try await TestServer.send("/v1/convert?mode=\(mode)", port: port, key: TestTenant.alpha.key, body: archive)
                #expect(json == converted.body)
                let validated = try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key, body: archive)
                #expect(NSDictionary(dictionary: report) == NSDictionary(dictionary: validated.json))
            }
        }
    }

    @Test func inspectOfARejectedArchiveNullsTheViolatingSubtree() async throws {
        try await TestServer.run { port in
            let reply = try await TestServer.send("/v1/inspect", port: port, key: TestTenant.alpha.key, body: try Fixtures.noteArchive())
            #expect(reply.status == 200)
            #expect(reply.headers.first(name: "X-ArchiveGate-Violations") == "1")
            let (json, report) = try Self.split(reply)
            #expect(report["valid"] as? Bool == false)
            let violation = try #require((report["violations"] as? [[String: Any]])?.first)
            #expect(violation["path"] as? String == "/root/0")
            #expect(violation["class"] as? String == Fixtures.noteClassName)
            // The Note is not rendered: its place holds null, its title appears nowhere.
            #expect(String(decoding: json, as: UTF8.self) == #"{"root":[null]}"#)
            #expect(!reply.text.contains("hello"))
        }
    }

    @Test func inspectOfMalformedBytesIsTheCoreProblemWithItsOffset() async throws {
        try await TestServer.run { port in
            var truncated = try Fixtures.plainArchive()
            truncated.removeLast(20)
            let reply = try await TestServer.send("/v1/inspect", port: port, key: TestTenant.alpha.key, body: truncated)
            #expect(reply.status == 422)
            #expect(reply.headers.first(name: "Content-Type") == "application/problem+json")
            #expect((reply.json["code"] as? String)?.hasPrefix("plist.") == true)
            #expect((reply.json["detail"] as? String)?.contains("at byte") == true)

            let unauthenticated = try await TestServer.send("/v1/inspect", port: port, body: try Fixtures.plainArchive())
            #expect(unauthenticated.status == 401)
            let badMode = try await TestServer.send("/v1/inspect?mode=pretty", port: port, key: TestTenant.alpha.key, body: try Fixtures.plainArchive())
            #expect(badMode.status == 400)
        }
    }
}
