// ISO 8601 dates for front matter `date`, without Foundation's locale-dependent formatters.

/// Seconds since 1970-01-01T00:00:00Z for `2024-05-31`, `2024-05-31T14:05`, `2024-05-31 14:05:09.5+02:00`,
/// `...Z`. A date without a zone is UTC (reproducible builds should not depend on the machine's zone).
func parseISO8601(_ text: String) -> Int64? {
    let b = Array(text.trimmingASCIIWhitespace().utf8)
    var i = 0
    func number(_ digits: Int) -> Int? {
        guard i + digits <= b.count else { return nil }
        var v = 0
        for k in i..<(i + digits) {
            guard b[k] >= 0x30 && b[k] <= 0x39 else { return nil }
            v = v * 10 + Int(b[k] - 0x30)
        }
        i += digits
        return v
    }
    func expect(_ c: Character) -> Bool {
        guard i < b.count, b[i] == c.asciiValue! else { return false }
        i += 1
        return true
    }
    guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
          (1...12).contains(month), (1...daysInMonth(year, month)).contains(day) else { return nil }
    var seconds = 0, offset = 0
    if i < b.count {
        guard expect("T") || expect("t") || expect(" "),
              let hour = number(2), expect(":"), let minute = number(2), hour < 24, minute < 60 else { return nil }
        seconds = hour * 3600 + minute * 60
        if expect(":") {
            guard let second = number(2), second < 61 else { return nil }
            seconds += second
            if expect(".") || expect(",") {
                guard i < b.count, b[i] >= 0x30 && b[i] <= 0x39 else { return nil }
                while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 { i += 1 }   // fractions are dropped
            }
        }
        if expect("Z") || expect("z") {
        } else if i < b.count {
            let sign: Int
            if expect("+") { sign = 1 } else if expect("-") { sign = -1 } else { return nil }
            guard let zh = number(2), zh < 24 else { return nil }
            _ = expect(":")
            let zm = number(2) ?? 0
            offset = sign * (zh * 3600 + zm * 60)
        }
        guard i == b.count else { return nil }
    }
    return Int64(daysSinceEpoch(year, month, day)) * 86400 + Int64(seconds - offset)
}

private func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

private func daysInMonth(_ y: Int, _ m: Int) -> Int {
    [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
}

/// Howard Hinnant's days_from_civil.
private func daysSinceEpoch(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146097 + doe - 719468
}
