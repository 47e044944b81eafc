// Roman numerals: the parser reads list markers (`iv.`) with it, lowering writes them.

/// Lower-case roman numerals 1...3999; outside that range, digits.
public func romanNumeral(_ n: Int) -> String {
    guard (1...3999).contains(n) else { return String(n) }
    let table: [(Int, String)] = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
                                  (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
    var n = n
    var out = ""
    for (value, letters) in table {
        while n >= value {
            out += letters
            n -= value
        }
    }
    return out
}
