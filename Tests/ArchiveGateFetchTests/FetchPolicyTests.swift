import Testing
@testable import ArchiveGateFetch

@Suite struct FetchPolicyTests {
    @Test func anyHostWithoutAnAllowList() {
        #expect(FetchPolicy().allowsHost("anything.example"))
    }

    @Test func exactHostsMatchCaseInsensitivelyIgnoringATrailingDot() {
        let policy = FetchPolicy(allowedHosts: ["Archives.Example.com"])
        #expect(policy.allowsHost("archives.example.com"))
        #expect(policy.allowsHost("ARCHIVES.example.com."))
        #expect(!policy.allowsHost("example.com"))
        #expect(!policy.allowsHost("evil-archives.example.com"))
        #expect(!policy.allowsHost("archives.example.com.evil.test"))
    }

    @Test func wildcardMatchesSubdomainsOnly() {
        let policy = FetchPolicy(allowedHosts: ["*.example.com"])
        #expect(policy.allowsHost("a.example.com"))
        #expect(policy.allowsHost("a.b.example.com"))
        #expect(!policy.allowsHost("example.com"))
        #expect(!policy.allowsHost("badexample.com"))
        #expect(!policy.allowsHost(".example.com"))
    }

    @Test func emptyAllowListAllowsNothing() {
        #expect(!FetchPolicy(allowedHosts: []).allowsHost("example.com"))
    }

    @Test func redirectsAreCappedAtTheCeiling() {
        #expect(FetchPolicy(maxRedirects: 50).effectiveMaxRedirects == 5)
        #expect(FetchPolicy(maxRedirects: -1).effectiveMaxRedirects == 0)
        #expect(FetchPolicy(maxRedirects: 2).effectiveMaxRedirects == 2)
    }
}
