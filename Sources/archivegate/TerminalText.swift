/// Escaping of every input-derived string the CLI prints to a terminal (class names, keys, paths,
/// table, column and file names, error messages that quote them): an archive or a database must
/// not move the cursor, recolour, retitle or clear the terminal, nor forge a line of its own (a
/// fake "summary"). Every stderr line goes through `escaped` at its one sink (`Terminal.error`,
/// `ProgressLine.message`), so no caller can forget it.
///
/// Escaped as `\n`, `\r`, `\t`, `\e`, `\\` or `\u{XXXX}`: C0 controls and DEL, the C1 controls
/// (U+0080–U+009F, where U+009B is a one-byte CSI), the line and paragraph separators, and the
/// bidirectional formatting characters (which reorder what the reader sees). The backslash itself
/// is doubled so an escape in the output always means an escaped input character.
enum TerminalText {
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{1B}": result += "\\e"
            case "\\": result += "\\\\"
            default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00 ... 0x1F, 0x5C, 0x7F ... 0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A ... 0x202E, 0x2066 ... 0x2069:
            return true
        default:
            return false
        }
    }
}

extension Terminal {
    /// One human-readable line on stdout, escaped like every stderr line.
    static func outputLine(_ line: String) {
        writeStdout(Array((TerminalText.escaped(line) + "\n").utf8))
    }
}
