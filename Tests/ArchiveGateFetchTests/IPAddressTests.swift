import Testing
@testable import ArchiveGateFetch

@Suite struct IPAddressTests {
    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1"), ("2130706433", "127.0.0.1"), ("0x7f000001", "127.0.0.1"),
        ("0X7F000001", "127.0.0.1"), ("127.1", "127.0.0.1"), ("127.0.1", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"), ("0177.1", "127.0.0.1"), ("0x7f.0.0.0x1", "127.0.0.1"),
        ("127.0.0.1.", "127.0.0.1"), ("017700000001", "127.0.0.1"), ("0", "0.0.0.0"),
        ("169.254.43518", "169.254.169.254"), ("2852039166", "169.254.169.254"),
        ("0xa.1", "10.0.0.1"),
    ])
    func legacyIPv4HostSpellingsParseAsTheResolverReadsThem(host: String, expected: String) {
        #expect(IPAddress(host: host) == IPAddress(expected))
    }

    @Test(arguments: [
        ("[::ffff:127.0.0.1]", "::ffff:7f00:1"), ("[::ffff:7f00:1]", "::ffff:127.0.0.1"),
        ("[64:ff9b::7f00:1]", "64:ff9b::127.0.0.1"), ("[::127.0.0.1]", "::7f00:1"),
        ("[::1]", "0:0:0:0:0:0:0:1"), ("[FE80::1]", "fe80::1"),
    ])
    func bracketedIPv6HostsParse(host: String, expected: String) {
        #expect(IPAddress(host: host) == IPAddress(expected))
        #expect(IPAddress(host: host) != nil)
    }

    @Test(arguments: [
        "example.com", "localhost", "127.0.0.1.example", "256.0.0.1", "1.2.3.4.5", "127..1", "",
        "0x", "08.0.0.1", "1.2.3.256", "1.2.65536", "4294967296", "[127.0.0.1]", "[::1", "::1",
        "[::1]x", "１２７.0.0.1", "127.0.0.1 x",
    ])
    func namesAndMalformedNumbersAreNotAddresses(host: String) {
        #expect(IPAddress(host: host) == nil)
    }

    @Test func strictParsingRefusesLegacyFormsButAcceptsCanonicalOnes() {
        #expect(IPAddress("127.0.0.1") == .v4(0x7f00_0001))
        #expect(IPAddress("::1") == .v6(1))
        #expect(IPAddress("[::1]") == .v6(1))
        #expect(IPAddress("::ffff:1.2.3.4") == .v6(0xffff_0102_0304))
        for legacy in ["127.1", "2130706433", "0x7f000001", "0177.0.0.1", "127.0.0.1.", "[127.0.0.1]", " ::1", "::1%lo"] {
            #expect(IPAddress(legacy) == nil, "\(legacy)")
        }
    }

    @Test func descriptionIsCanonical() {
        #expect(IPAddress(host: "0x7f000001")?.description == "127.0.0.1")
        #expect(IPAddress("0:0:0:0:0:ffff:7f00:1")?.description == "::ffff:127.0.0.1")
        #expect(IPAddress("FD00:0::1")?.description == "fd00::1")
    }
}
