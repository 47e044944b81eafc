// printf-style numbers through the C library. Foundation's String(format:) builds a Locale on first use,
// about 2M instructions of a one-page document's start-up (issue 14); the C library formats in the "C"
// locale (typeset never calls setlocale), so the text is the same: "." as the decimal mark, no grouping.

import Foundation

enum CFormat {
    static func string(_ format: String, _ arguments: CVarArg...) -> String {
        var size = 64
        while true {
            var buffer = [CChar](repeating: 0, count: size)
            let written = withVaList(arguments) { vsnprintf(&buffer, size, format, $0) }
            if written < 0 { return "" }
            if Int(written) < size { return String(decoding: buffer.prefix(Int(written)).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            size = Int(written) + 1
        }
    }
}
