import Testing
@testable import ArchiveGateFetch

@Suite struct AddressGuardTests {
    let deny = AddressGuard()

    @Test(arguments: [
        "0.0.0.0", "0.1.2.3", "127.0.0.1", "127.255.255.254", "10.1.2.3", "172.16.0.1", "172.31.255.255",
        "192.168.1.1", "169.254.169.254", "169.254.0.1", "100.64.0.1", "100.127.255.255", "198.18.0.1",
        "198.19.255.255", "224.0.0.1", "239.255.255.255", "240.0.0.1", "255.255.255.255",
        "::", "::1", "fc00::1", "fd00::1", "fe80::1", "febf::1", "ff02::1",
        "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:169.254.169.254", "::ffff:10.0.0.1",
        "::127.0.0.1", "::8.8.8.8", "64:ff9b::7f00:1", "64:ff9b::169.254.169.254", "64:ff9b::10.0.0.1",
        // Issue 15's gaps: 6to4 (here embedding 127.0.0.1 and 8.8.8.8: a relay decides, not us),
        // local NAT64, Teredo, site-local, SIIT IPv4-translated, IETF protocol block, discard-only.
        "2002:7f00:1::1", "2002:808:808::1", "2002::", "2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
        "64:ff9b:1::7f00:1", "64:ff9b:1:ffff::1", "2001::1", "2001:0:ffff:ffff::1", "fec0::1", "feff::1",
        "::ffff:0:7f00:1", "::ffff:0:808:808", "192.0.0.1", "192.0.0.170", "192.0.0.255", "100::1", "100::ffff:ffff:ffff:ffff",
    ])
    func deniedAddressesAreRefused(text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(deny.denial(for: address) != nil)
        #expect(!deny.permits(address))
    }

    @Test(arguments: ["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "198.20.0.1", "223.255.255.255",
                      "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "2001:db8::1",
                      // Just outside the new blocks.
                      "2003::1", "2001:1::1", "64:ff9b:2::1", "192.0.1.1", "191.255.255.255", "100:0:0:1::1",
                      "0:0:0:1:ffff::"])
    func publicAddressesArePermitted(text: String) throws {
        #expect(deny.permits(try #require(IPAddress(text))))
    }

    /// Every spelling from the issue, resolved as a resolver would, ends up denied.
    @Test(arguments: ["2130706433", "0x7f000001", "127.1", "0177.0.0.1", "[::ffff:127.0.0.1]",
                      "[::ffff:7f00:1]", "[64:ff9b::7f00:1]", "[::127.0.0.1]", "[::1]", "[::]", "0"])
    func oddLoopbackSpellingsAreDenied(host: String) throws {
        #expect(!deny.permits(try #require(IPAddress(host: host))))
    }

    @Test func explicitlyAllowedRangesWinOverTheDenyList() throws {
        let allowLoopback = AddressGuard(allowing: [IPAddressRange("127.0.0.1/32")!])
        #expect(allowLoopback.permits(IPAddress("127.0.0.1")!))
        // The mapped form reaches the same IPv4 address, so it is judged the same way.
        #expect(allowLoopback.permits(IPAddress("::ffff:127.0.0.1")!))
        #expect(!allowLoopback.permits(IPAddress("127.0.0.2")!))
        #expect(!allowLoopback.permits(IPAddress("::1")!))
        // IPv4-compatible is deprecated and denied as a block, whatever it embeds.
        #expect(!allowLoopback.permits(IPAddress("::127.0.0.1")!))
        // NAT64 is judged by the embedded address, which the allow list covers here.
        #expect(allowLoopback.permits(IPAddress("64:ff9b::127.0.0.1")!))
    }

    @Test func denialNamesTheRange() {
        #expect(deny.denial(for: IPAddress("169.254.169.254")!)?.contains("169.254.0.0/16") == true)
        #expect(deny.denial(for: IPAddress("64:ff9b::a00:1")!)?.contains("NAT64") == true)
    }
}
