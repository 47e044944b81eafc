// The XMP metadata packet: the Info dictionary's title, author, subject, keywords, dates and producer again
// (PDF/A wants both to agree), and the PDF/A and PDF/UA identification. PDF/A only allows schemas it knows or
// that the packet describes, so with PDF/A the pdfuaid schema is described in a pdfaExtension block.

import TypesetIR

struct XMPMetadata {
    var input: TaggingInput
    var producer: String

    var packet: String {
        let m = input.metadata
        var d: [String] = ["<dc:format>application/pdf</dc:format>"]
        d.append("<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">\(escape(input.title))</rdf:li></rdf:Alt></dc:title>")
        if let author = m.author { d.append("<dc:creator><rdf:Seq><rdf:li>\(escape(author))</rdf:li></rdf:Seq></dc:creator>") }
        if let subject = m.subject {
            d.append("<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">\(escape(subject))</rdf:li></rdf:Alt></dc:description>")
        }
        d.append("<dc:language><rdf:Bag><rdf:li>\(escape(input.language))</rdf:li></rdf:Bag></dc:language>")
        if let keywords = m.keywords { d.append("<pdf:Keywords>\(escape(keywords))</pdf:Keywords>") }
        d.append("<pdf:Producer>\(escape(producer))</pdf:Producer>")
        d.append("<xmp:CreatorTool>typeset</xmp:CreatorTool>")
        if let seconds = m.creationDate {
            let date = PDFDates.isoDate(seconds) + "Z"
            d += ["<xmp:CreateDate>\(date)</xmp:CreateDate>", "<xmp:ModifyDate>\(date)</xmp:ModifyDate>",
                  "<xmp:MetadataDate>\(date)</xmp:MetadataDate>"]
        }
        if let pdfa = PDFStandard.claimed(input.standards) {
            d += ["<pdfaid:part>\(pdfa.part)</pdfaid:part>", "<pdfaid:conformance>\(pdfa.conformance)</pdfaid:conformance>"]
        }
        let ua = input.standards.contains(.ua1)
        if ua { d.append("<pdfuaid:part>1</pdfuaid:part>") }
        var out = "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
        out += "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n"
        out += "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\""
            + " xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmlns:pdf=\"http://ns.adobe.com/pdf/1.3/\""
            + " xmlns:pdfaid=\"http://www.aiim.org/pdfa/ns/id/\" xmlns:pdfuaid=\"http://www.aiim.org/pdfua/ns/id/\">\n"
        out += d.map { "  " + $0 + "\n" }.joined()
        out += "</rdf:Description>\n"
        if ua && input.standards.contains(where: \.isPDFA) { out += Self.uaExtension }
        out += "</rdf:RDF>\n</x:xmpmeta>\n<?xpacket end=\"w\"?>"
        return out
    }

    static let uaExtension = """
    <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" \
    xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
      <pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
        <pdfaSchema:schema>PDF/UA Universal Accessibility Schema</pdfaSchema:schema>
        <pdfaSchema:namespaceURI>http://www.aiim.org/pdfua/ns/id/</pdfaSchema:namespaceURI>
        <pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>
        <pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource">
          <pdfaProperty:name>part</pdfaProperty:name>
          <pdfaProperty:valueType>Integer</pdfaProperty:valueType>
          <pdfaProperty:category>internal</pdfaProperty:category>
          <pdfaProperty:description>Indicates which part of ISO 14289 the file conforms to</pdfaProperty:description>
        </rdf:li></rdf:Seq></pdfaSchema:property>
      </rdf:li></rdf:Bag></pdfaExtension:schemas>
    </rdf:Description>

    """

    /// XML text: markup characters escaped, characters XML 1.0 forbids dropped.
    func escape(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
