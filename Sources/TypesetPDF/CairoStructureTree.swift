// cairo's own structure tree, which the tagging stage replaces (TaggedPDF.swift), is left out of the new file.
// cairo 1.16 writes one element per structure tag begun (every marked-content sequence: TagRecorder.swift), a
// parent tree and an array per page. Once the catalog names the stage's tree, nothing refers to them, and
// copied they were a third of a tagged report's bytes (953 KB against 633 KB for 35,000 words).
//
// Found as cairo writes them, in one pass over the heads of its objects: every element (a dictionary that begins
// `/Type /StructElem`: cairo's file holds no other tree), the root the catalog names, the root's parent tree
// (`/Nums`) and the arrays of elements that tree lists. Anything else is copied, as before; so is all of it
// when the root is not as expected.

enum CairoStructureTree {
    /// The numbers of cairo's structure objects (elements first, in increasing order). `heads` gives the first bytes of each object of cairo's file
    /// (from `N 0 obj`), `bytes` one object whole; `root` is the catalog's /StructTreeRoot.
    static func objects(root: Int, heads: ((Int, ArraySlice<UInt8>) -> Void) -> Void,
                        bytes: (Int) -> [UInt8]?) -> [Int] {
        guard let rootObject = bytes(root), let rootBody = body(rootObject[...]),
              startsWith(rootBody, "<< /Type /StructTreeRoot") else { return [] }
        // Numbers, 4 bytes each: a long table's tree has a million elements.
        var elements: [UInt32] = []
        heads { number, head in
            if let element = body(head), startsWith(element, "<< /Type /StructElem"),
               let n = UInt32(exactly: number) { elements.append(n) }
        }
        elements.sort()
        func isElement(_ n: Int) -> Bool {
            guard let key = UInt32(exactly: n) else { return false }
            var low = 0, high = elements.count
            while low < high {
                let mid = (low + high) / 2
                if elements[mid] < key { low = mid + 1 } else { high = mid }
            }
            return low < elements.count && elements[low] == key
        }
        var others = [root]
        if let parentTree = reference(after: "/ParentTree", in: rootBody), parentTree != root, !isElement(parentTree),
           let treeObject = bytes(parentTree), let tree = body(treeObject[...]), startsWith(tree, "<< /Nums") {
            others.append(parentTree)
            for n in references(in: tree) where n != root && n != parentTree && !isElement(n) {
                guard let object = bytes(n), let array = body(object[...]), startsWith(array, "["),
                      references(in: array).allSatisfy(isElement) else { continue }
                others.append(n)
            }
        }
        return elements.map(Int.init) + others
    }

    /// An object's bytes after `N G obj` and its white space.
    static func body(_ object: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let marker = Array("obj".utf8)
        guard let at = IncrementalUpdate.find(marker, in: object.prefix(32)) else { return nil }
        return object[(at + marker.count)...].drop { isSpace($0) }
    }

    static func startsWith(_ bytes: ArraySlice<UInt8>, _ prefix: String) -> Bool {
        bytes.starts(with: prefix.utf8)
    }

    /// The object number of the first reference after `key`.
    static func reference(after key: String, in bytes: ArraySlice<UInt8>) -> Int? {
        guard let at = IncrementalUpdate.find(Array(key.utf8), in: bytes) else { return nil }
        return references(in: bytes[(at + key.utf8.count)...]).first
    }

    /// The object numbers of the references (`N G R`) in `bytes`, in order. Strings and comments do not occur in
    /// what cairo writes here; a number is any run of digits, `R` a lone letter.
    static func references(in bytes: ArraySlice<UInt8>) -> [Int] {
        var found: [Int] = []
        // The two tokens before the current one, when both were unsigned integers.
        var previous: (Int?, Int?) = (nil, nil)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let c = bytes[i]
            if isSpace(c) { i += 1; continue }
            if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
                var value = 0, j = i
                while j < bytes.endIndex, bytes[j] >= UInt8(ascii: "0"), bytes[j] <= UInt8(ascii: "9") {
                    value = value > Int.max / 20 ? value : value * 10 + Int(bytes[j] - UInt8(ascii: "0"))
                    j += 1
                }
                let whole = j == bytes.endIndex || isDelimiter(bytes[j])
                previous = (previous.1, whole ? value : nil)
                i = j
                continue
            }
            if c == UInt8(ascii: "R"), i + 1 == bytes.endIndex || isDelimiter(bytes[i + 1]),
               let number = previous.0, previous.1 != nil {
                found.append(number)
            }
            previous = (nil, nil)
            // A delimiter is a token of its own; a name or keyword runs to the next delimiter.
            i += 1
            if c != UInt8(ascii: "/") && isDelimiter(c) { continue }
            while i < bytes.endIndex, !isDelimiter(bytes[i]) { i += 1 }
        }
        return found
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 || c == 0x0C || c == 0 }

    private static func isDelimiter(_ c: UInt8) -> Bool {
        isSpace(c) || c == UInt8(ascii: "/") || c == UInt8(ascii: "[") || c == UInt8(ascii: "]")
            || c == UInt8(ascii: "<") || c == UInt8(ascii: ">") || c == UInt8(ascii: "(") || c == UInt8(ascii: ")")
    }
}
