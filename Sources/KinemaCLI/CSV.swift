/// CSV and JSON number formatting shared by every command: shortest round-trip text (`"\(x)"`),
/// never a fixed number of decimals.
enum CSV {
    /// One CSV row of numbers, newline-terminated.
    static func row(_ values: [Double]) -> String {
        values.map { "\($0)" }.joined(separator: ",") + "\n"
    }
}

enum JSON {
    /// A JSON number in shortest round-trip form; `null` for NaN and ±∞, which JSON cannot hold.
    static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return "\(value)"
    }

    /// A JSON string literal.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
