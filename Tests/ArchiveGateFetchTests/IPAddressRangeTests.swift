import Testing
@testable import ArchiveGateFetch

@Suite struct IPAddressRangeTests {
    @Test func containsExactlyThePrefix() throws {
        let range = try #require(IPAddressRange("172.16.0.0/12"))
        #expect(range.contains(IPAddress("172.16.0.0")!))
        #expect(range.contains(IPAddress("172.31.255.255")!))
        #expect(!range.contains(IPAddress("172.32.0.0")!))
        #expect(!range.contains(IPAddress("172.15.255.255")!))
        #expect(range.description == "172.16.0.0/12")
    }

    @Test func bareAddressIsASingleHost() throws {
        let v4 = try #require(IPAddressRange("127.0.0.1"))
        #expect(v4.prefixLength == 32 && v4.contains(IPAddress("127.0.0.1")!) && !v4.contains(IPAddress("127.0.0.2")!))
        let v6 = try #require(IPAddressRange("::1"))
        #expect(v6.prefixLength == 128 && v6.contains(.v6(1)) && !v6.contains(.v6(2)))
    }

    @Test func zeroPrefixMatchesItsWholeFamilyOnly() throws {
        let all4 = try #require(IPAddressRange("0.0.0.0/0"))
        #expect(all4.contains(IPAddress("255.255.255.255")!))
        #expect(!all4.contains(IPAddress("::ffff:1.2.3.4")!))
        let all6 = try #require(IPAddressRange("::/0"))
        #expect(all6.contains(IPAddress("ffff::1")!) && !all6.contains(IPAddress("1.2.3.4")!))
    }

    @Test func ipv6Prefixes() throws {
        let ula = try #require(IPAddressRange("fc00::/7"))
        #expect(ula.contains(IPAddress("fd00::1")!) && ula.contains(IPAddress("fcff::")!))
        #expect(!ula.contains(IPAddress("fe00::")!))
        let linkLocal = try #require(IPAddressRange("fe80::/10"))
        #expect(linkLocal.contains(IPAddress("febf:ffff::")!) && !linkLocal.contains(IPAddress("fec0::")!))
    }

    @Test(arguments: ["10.0.0.1/8", "10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/8/8",
                      "10/8", "127.1/32", "10.0.0.0/08a", "fe80::1/10", "", "/8", "[::1]/128x"])
    func malformedOrSloppyRangesAreRefused(text: String) {
        #expect(IPAddressRange(text) == nil)
    }
}
