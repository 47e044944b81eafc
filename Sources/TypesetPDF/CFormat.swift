// Numbers as text for the PDF writers without Foundation's String(format:), which builds a Locale on first
// use (about 2M instructions of a one-page document's start-up, issue 14). Integers are written here; a
// fixed-point number goes through the C library's snprintf in the "C" locale (typeset never calls setlocale),
// so the text is the same as before: "." as the decimal mark, no grouping, the same rounding.

import CQpdf

enum CFormat {
    /// `value` with `width` digits at least, zero-padded on the left (`%0<width>d` for value >= 0).
    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// `%0<width>llx`: lower-case hex, zero-padded.
    static func hex(_ value: UInt64, _ width: Int) -> String {
        let digits = String(value, radix: 16)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// `%%%02X`: a byte percent-encoded.
    static func percentEncoded(_ byte: UInt8) -> String {
        "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
    }

    /// `%.<decimals>f`.
    static func fixed(_ value: Double, decimals: Int32) -> String {
        var size = 64
        while true {
            var buffer = [CChar](repeating: 0, count: size)
            let written = Int(typeset_format_fixed(&buffer, UInt(size), value, decimals))
            if written < 0 { return "" }
            if written < size { return String(decoding: buffer.prefix(written).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            size = written + 1
        }
    }
}
