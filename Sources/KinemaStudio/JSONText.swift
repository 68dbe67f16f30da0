/// JSON text written by hand: the answers embed the CLI's own JSON (`kinema spring --format json`)
/// verbatim, which an encoder would re-escape.
enum JSONText {
    /// `text` as the inside of a JSON string.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func string(_ text: String) -> String { "\"" + escape(text) + "\"" }

    /// A finite number as Swift prints it (which JSON reads), anything else as null.
    static func number(_ value: Double) -> String { value.isFinite ? "\(value)" : "null" }

    static func array(_ values: [Double]) -> String { "[" + values.map(number).joined(separator: ",") + "]" }

    /// `{"key": value, …}` from already-written JSON values, in order.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { string($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
    }
}
