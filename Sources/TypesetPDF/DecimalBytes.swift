// Numbers written into PDF bytes without a String in between: a page of narrow columns has thousands of
// marked-content sequences, and the structure tree lists every one of them.

extension Array where Element == UInt8 {
    /// Appends `n` in decimal, the same bytes as `"\(n)"`.
    mutating func appendDecimal(_ n: Int) {
        guard n >= 0 else {
            append(contentsOf: String(n).utf8)
            return
        }
        var scale = 1
        while scale <= n / 10 { scale *= 10 }
        var rest = n
        while scale > 0 {
            append(UInt8(truncatingIfNeeded: 0x30 + rest / scale))
            rest %= scale
            scale /= 10
        }
    }
}
