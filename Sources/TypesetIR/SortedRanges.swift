// Binary search over things laid end to end in text order (attribute runs, spans): each stage looks up the one
// that holds a byte offset the same way.

extension RandomAccessCollection where Index == Int {
    /// The first index whose element ends past `offset`, for elements whose ends never decrease; `endIndex`
    /// when none does.
    public func firstIndex(endingAfter offset: Int, end: (Element) -> Int) -> Int {
        var lo = startIndex, hi = endIndex
        while lo < hi {
            let mid = (lo + hi) / 2
            if end(self[mid]) <= offset { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
