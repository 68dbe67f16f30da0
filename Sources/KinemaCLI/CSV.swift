import Kinema

/// CSV and JSON number formatting shared by every command: shortest round-trip text (`"\(x)"`),
/// never a fixed number of decimals.
enum CSV {
    /// One CSV row of numbers, newline-terminated.
    static func row(_ values: [Double]) -> String {
        values.map { "\($0)" }.joined(separator: ",") + "\n"
    }
}

enum JSON {
    /// A JSON number in shortest round-trip form; `null` for NaN, ±∞ and nil.
    static func number(_ value: Double?) -> String { value.map(KeyframeExport.number) ?? "null" }

    /// A JSON string literal.
    static func string(_ text: String) -> String { KeyframeExport.string(text) }
}
