// Plain-text inputs (letters, digits, spaces, line ends: no markup) have a simple invariant that pdftotext can
// check: every non-space character reaches the PDF, in order (contract section 11, "every character ...").

import Foundation

enum PlainText {
    /// What the `text` target maps every byte to; spaces and line ends are weighted so words and paragraphs form.
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789      \n\n\n".utf8)
    static let allowed = Set(alphabet)

    static func isPlain(_ bytes: [UInt8]) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy { allowed.contains($0) }
    }

    /// Keeps plain bytes and maps every other byte into the alphabet, so the fuzzer still steers length and shape.
    static func map(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { allowed.contains($0) ? $0 : alphabet[Int($0) % alphabet.count] }
    }

    /// The first input character pdftotext does not show (in order), with what came before it; nil when all are there.
    /// Spacing and hyphens are ignored: line breaking, justification and hyphenation change only those.
    static func missing(from shown: String, input: [UInt8]) -> String? {
        let wanted = letters(String(decoding: input, as: UTF8.self))
        let have = letters(shown.precomposedStringWithCompatibilityMapping)
        var at = have.startIndex
        for (index, character) in wanted.enumerated() {
            guard let found = have[at...].firstIndex(of: character) else {
                let before = String(wanted[max(0, index - 20)..<index])
                return "'\(character)' after '\(before)' (character \(index + 1) of \(wanted.count) non-space)"
            }
            at = have.index(after: found)
        }
        return nil
    }

    static func letters(_ text: String) -> [Character] {
        text.filter { !$0.isWhitespace && !"-\u{00AD}\u{2010}\u{2011}".contains($0) }.map { $0 }
    }
}
