// Reading a tagged PDF's structure back with `qpdf --json` (no other tool needed): the structure tree as
// nested elements, the catalog, the Info dictionary and the XMP packet.

import Foundation
import XCTest

/// One structure element as read back: its type, attributes and children (elements only), with the number of
/// marked-content references and annotation references it holds.
struct TaggedElement {
    var type: String
    var alt: String?
    var lang: String?
    var scope: String?
    var children: [TaggedElement] = []
    var mcids: [Int] = []
    var annotations: [String] = []
    /// `/K` in its order: `"mcid"`, `"annotation"`, or a child's type.
    var order: [String] = []

    /// `H1 P L(LI(Lbl LBody(P))) ...`: the tree's shape, for assertions a reader can check by eye.
    var outline: String {
        children.isEmpty ? type : type + "(" + children.map(\.outline).joined(separator: " ") + ")"
    }

    func all(_ type: String) -> [TaggedElement] {
        (self.type == type ? [self] : []) + children.flatMap { $0.all(type) }
    }
}

struct QPDFJSON {
    let objects: [String: Any]

    init(_ pdf: String) throws {
        let json = try PDF.tool("qpdf", ["--json", "--json-stream-data=inline", "--decode-level=all", pdf])
        let top = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let qpdf = try XCTUnwrap(top["qpdf"] as? [Any])
        objects = try XCTUnwrap(qpdf.last as? [String: Any])
    }

    /// The value of an object (a reference `"3 0 R"` resolved), or the value itself.
    func resolve(_ value: Any?) -> Any? {
        if let ref = value as? String, ref.hasSuffix(" R"), let object = objects["obj:" + ref] as? [String: Any] {
            return object["value"] ?? (object["stream"] as? [String: Any])?["dict"]
        }
        return value
    }

    func dictionary(_ value: Any?) -> [String: Any] { resolve(value) as? [String: Any] ?? [:] }

    var trailer: [String: Any] { (objects["trailer"] as? [String: Any])?["value"] as? [String: Any] ?? [:] }
    var catalog: [String: Any] { dictionary(trailer["/Root"]) }
    var info: [String: Any] { dictionary(trailer["/Info"]) }

    /// The decoded data of a stream object.
    func streamData(_ ref: Any?) -> Data? {
        guard let ref = ref as? String, let object = objects["obj:" + ref] as? [String: Any],
              let data = (object["stream"] as? [String: Any])?["data"] as? String else { return nil }
        return Data(base64Encoded: data)
    }

    /// `u:text` -> text.
    static func text(_ value: Any?) -> String? {
        guard let s = value as? String else { return nil }
        return s.hasPrefix("u:") ? String(s.dropFirst(2)) : s
    }

    /// A number tree's `/Nums` entries in key order, its `/Kids` followed (PDF 1.7, 7.9.7); each node's keys
    /// must lie within its `/Limits`.
    func numberTree(_ ref: Any?) -> [Any] {
        let node = dictionary(ref)
        if let nums = node["/Nums"] as? [Any] {
            if let limits = node["/Limits"] as? [Int], limits.count == 2 {
                let keys = stride(from: 0, to: nums.count - 1, by: 2).compactMap { nums[$0] as? Int }
                XCTAssertTrue(keys.allSatisfy { limits[0] <= $0 && $0 <= limits[1] }, "keys outside /Limits \(limits)")
            }
            return nums
        }
        return (node["/Kids"] as? [Any] ?? []).flatMap(numberTree)
    }

    /// Objects that nothing reached from the trailer refers to (`obj:N G R` keys): bytes a reader never sees.
    /// Lone numbers are not counted (see below).
    var unreachable: [String] {
        var seen: Set<String> = [], stack = ["trailer"]
        func references(_ value: Any?) {
            if let s = value as? String, s.hasSuffix(" R") { stack.append("obj:" + s) }
            if let d = value as? [String: Any] { d.values.forEach(references) }
            if let a = value as? [Any] { a.forEach(references) }
        }
        while let key = stack.popLast() {
            guard !seen.contains(key), let object = objects[key] as? [String: Any] else { continue }
            seen.insert(key)
            references(object["value"] ?? (object["stream"] as? [String: Any])?["dict"])
        }
        // With stream data inline, qpdf's JSON leaves /Length out of stream dictionaries: the numbers those
        // referred to cannot be told from unused ones here.
        // Object streams and the cross-reference stream hold objects rather than being referred to.
        return objects.keys.filter { key in
            let object = objects[key] as? [String: Any]
            let type = ((object?["stream"] as? [String: Any])?["dict"] as? [String: Any])?["/Type"] as? String
            return key.hasPrefix("obj:") && !seen.contains(key) && !(object?["value"] is NSNumber)
                && type != "/ObjStm" && type != "/XRef"
        }.sorted()
    }

    /// The Document element and everything under it.
    func structureTree() throws -> TaggedElement {
        let root = dictionary(catalog["/StructTreeRoot"])
        let kids = root["/K"] as? [Any] ?? [root["/K"] as Any]
        let document = try XCTUnwrap(kids.first)
        return element(document)
    }

    func element(_ ref: Any) -> TaggedElement {
        let d = dictionary(ref)
        var e = TaggedElement(type: String((d["/S"] as? String ?? "?").dropFirst()))
        e.alt = Self.text(d["/Alt"])
        e.lang = Self.text(d["/Lang"])
        e.scope = (dictionary(d["/A"])["/Scope"] as? String).map { String($0.dropFirst()) }
        let kids: [Any] = (d["/K"] as? [Any]) ?? (d["/K"].map { [$0] } ?? [])
        for kid in kids {
            if let n = kid as? Int { e.mcids.append(n); e.order.append("mcid"); continue }
            let k = dictionary(kid)
            switch k["/Type"] as? String {
            case "/MCR": e.mcids.append(k["/MCID"] as? Int ?? -1); e.order.append("mcid")
            case "/OBJR": e.annotations.append(k["/Obj"] as? String ?? ""); e.order.append("annotation")
            default:
                e.children.append(element(kid))
                e.order.append(e.children[e.children.count - 1].type)
            }
        }
        return e
    }
}
