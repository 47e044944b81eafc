// Checked conversions from Swift numbers to the C integers Pango and Cairo take. Lengths are bounded when
// a document is read (Length.maxPoints), so these clamp only what should never happen; a Swift conversion
// would trap on it instead (`Int32(1e12)` is a crash, not an error message).

/// Points to Pango units (1/1024 pt), rounded; NaN is 0 and anything beyond Int32 is clamped.
@inline(__always) func pangoUnits(_ points: Double) -> Int32 {
    let units = (points * pangoScale).rounded()
    guard !units.isNaN else { return 0 }
    return Int32(max(Double(Int32.min), min(Double(Int32.max), units)))
}

/// A count or index (`maxLines`, a byte offset, a tab index) as a C int, clamped.
@inline(__always) func cInt(_ n: Int) -> Int32 { Int32(clamping: n) }

/// A finite Double to Int, rounded toward zero; NaN is 0, infinities and huge values clamp.
@inline(__always) func clampedInt(_ x: Double) -> Int {
    guard !x.isNaN else { return 0 }
    return Int(max(-9.0e18, min(9.0e18, x)))
}
