@testable import ArchiveGateCore
import ArchiveGateSeededRandom
import Foundation
import Testing

/// `KeyedArchive.isPlainAbsoluteURL` lets an absolute URL with no base skip NSURL: it must only
/// ever say yes where NSURL keeps the string verbatim.
@Suite struct KeyedArchiveURLTests {
    /// Strings over the fast path's alphabet and its near misses, from a fixed seed.
    static func generated(count: Int) -> [String] {
        var random = SeededRandom(seed: 0x9E37_79B9_7F4A_7C15)
        func next() -> Int { Int(truncatingIfNeeded: random.next() & 0x7FFF_FFFF) }
        let schemes = ["https://", "http://", "file://", "x-app+1.v://", "https:/", "1http://", "://", "mailto:", "h ttp://", ""]
        let pieces = ["a", "Z", "9", "/", "?", "#", "%", "%2F", "%zz", "%4", "-", "_", ".", "!", "~", "*", "'", "(", ")", ";", ":", "@",
                      "&", "=", "+", "$", ",", " ", "[", "]", "\"", "<", ">", "\\", "^", "`", "{", "|", "}", "é", "😀", "\u{7F}", "\t",
                      "h.example", "..", "%25", "#f"]
        return (0 ..< count).map { _ in
            var text = schemes[next() % schemes.count]
            for _ in 0 ..< next() % 12 { text += pieces[next() % pieces.count] }
            return text
        }
    }

    @Test func theFastPathAgreesWithNSURL() {
        var taken = 0
        for text in Self.generated(count: 20_000) where KeyedArchive.isPlainAbsoluteURL(text) {
            taken += 1
            #expect(NSURL(string: text)?.absoluteString == text, "\(text)")
        }
        #expect(taken > 1_000, "the generator must reach the fast path often")
    }

    @Test func nearMissesGoToNSURL() {
        for text in ["https://h.example/a b", "https://h.example/%", "https://h.example/%4", "https://h.example/%zz", "https://h/#a#b",
                     "https://[::1]/", "h.example/p", "1x://h", "https:/h", "https://h/é", ""] {
            #expect(!KeyedArchive.isPlainAbsoluteURL(text), "\(text)")
        }
        #expect(KeyedArchive.isPlainAbsoluteURL("https://h.example/p?q=1&r=%2F#frag"))
    }
}
