// Which link targets reach the PDF (contract section 11): a PDF from an untrusted document must not carry a
// link that runs code or reads local files behind the reader's back.

enum LinkPolicy {
    enum Verdict: Equatable {
        case pass
        /// Kept, with this warning (local files).
        case warn(String)
        /// Dropped (the text stays, unlinked), for this reason.
        case drop(String)
    }

    static let allowedSchemes: Set<String> = ["http", "https", "mailto", "ftp", "tel"]

    /// Named in the `link` attribute's "expected" text.
    static let expected = "an http, https, mailto, ftp, tel or file URL, a relative path or #id"

    static func check(_ target: LinkTarget) -> Verdict {
        guard case .url(let url) = target, let scheme = scheme(of: url) else { return .pass }
        if allowedSchemes.contains(scheme) { return .pass }
        if scheme == "file" {
            return .warn("link to a local file '\(url)': a reader of the PDF may not have it, or may not want it opened")
        }
        return .drop("link to '\(url)' dropped: the scheme '\(scheme):' is not allowed "
                     + "(http, https, mailto, ftp, tel, file, relative paths and #ids are); the text stays unlinked")
    }

    /// The URL's scheme, lowercased, as a browser would see it: tabs and line breaks inside are ignored
    /// (`java\tscript:` is `javascript:`), and so are leading spaces and control characters. Nil for a
    /// relative reference (no scheme before the first `/`, `?` or `#`).
    static func scheme(of url: String) -> String? {
        var scheme = ""
        var started = false
        for unit in url.utf8 {
            if unit == 0x09 || unit == 0x0A || unit == 0x0D { continue }
            if !started && unit <= 0x20 { continue }
            started = true
            switch unit {
            case UInt8(ascii: ":"):
                return scheme.isEmpty ? nil : scheme
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                scheme.append(Character(Unicode.Scalar(unit | 0x20)))
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                // A scheme starts with a letter.
                if scheme.isEmpty { return nil }
                scheme.append(Character(Unicode.Scalar(unit)))
            default:
                return nil
            }
        }
        return nil
    }
}
