import Foundation

/// `../shared/typedstream-corpus` (issue 35): other projects' NSArchiver typedstreams, with the
/// values their own tests assert (SOURCES.md there). CI and the developers have it, a user's clone
/// does not: tests that read it carry `.enabled(if: TypedStreamSamples.isPresent, …)` so that
/// without it they show as skipped, with the reason.
public enum TypedStreamSamples {
    /// The corpus folder, beside the package root (two levels above this file's folder).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/typedstream-corpus").standardizedFileURL

    public static var isPresent: Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent("SOURCES.md").path) }

    public static let absent = "../shared/typedstream-corpus is absent (a clone without ../shared beside it)"

    /// The bytes of a corpus file, by its path inside the corpus.
    public static func bytes(_ file: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(file)))
    }

    /// An iMessage `attributedBody` and the message text its source project's tests assert.
    public struct Message: Sendable, CustomStringConvertible {
        public var file: String
        public var text: String
        public var description: String { file }
    }

    /// Plain text (NSMutableAttributedString and NSAttributedString roots), non-BMP letters, an
    /// emoji beside an inline sticker's U+FFFC, curly quotes: SOURCES.md's expected values.
    public static let messages: [Message] = [
        Message(file: "crabstep/33162f000e9abad2_AttributedBodyTextOnly", text: "Noter test"),
        Message(file: "crabstep/0b1420a70172c6ad_AttributedBodyTextOnly2", text: "Test 3"),
        Message(file: "crabstep/af7dcdae5ea37872_WeirdText", text: "𝖍𝖊𝖑𝖑𝖔 𝖜𝖔𝖗𝖑𝖉"),
        Message(file: "imessage-exporter-fork-ARCHiVE/326b7d313e698bcb_StaticAnimojiRegularEmoji", text: "Check this out: \u{FFFC} 😀"),
        Message(file: "imessage-exporter-fork-ARCHiVE/3a21601b0964a9a0_test.db_message_548216_attributedBody",
                text: "Oh it translated what I sent!"),
        Message(file: "imessage-conversation-analyzer/3a373b39b9a74495_message.json_9368cfd3-ad0c-4110-8658-0b81b08e71eb_attributedBody",
                text: "Loved “Same here! 🤣 Catch you later!”"),
    ]

    /// A 2,359-byte message whose length prefixes are 2 bytes wide (the prefix other tools cut short).
    public static let longMessage = "crabstep/fa82f5d79dee018c_LongMessage"
    public static let longMessageStart = "Sed nibh velit,"
    public static let longMessageUTF8Count = 2359

    /// A big-endian Interface Builder 2.x nib: AppKit classes no `foundation` policy admits.
    public static let nib = "finkcommander/423563ad28165cb9_English_Dialogs_objects.nib"

    /// The message text of an attributed string's plain JSON: its runs' texts, joined.
    public static func text(ofRuns value: Any?) -> String? {
        guard let runs = value as? [[String: Any]] else { return nil }
        var text = ""
        for run in runs {
            guard let part = run["text"] as? String else { return nil }
            text += part
        }
        return text
    }
}
