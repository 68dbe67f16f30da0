import Foundation
import Kinema

/// CSV and JSON number formatting shared by every command: shortest round-trip text (`"\(x)"`),
/// never a fixed number of decimals.
enum CSV {
    /// One CSV row of numbers, newline-terminated.
    static func row(_ values: [Double]) -> String {
        values.map { "\($0)" }.joined(separator: ",") + "\n"
    }

    /// A text field (a body's or a collider's name, a column named after one) as RFC 4180 writes
    /// it: in double quotes, with its quotes doubled, when it holds a comma, a quote or a line break
    /// (a body named `a,b` must not add a column). A name that starts with `=`, `+`, `-`, `@`, a tab
    /// or a carriage return gets a leading `'` first, as OWASP advises against CSV injection: a
    /// spreadsheet would run `=cmd|' /C calc'!A0` as a formula, and shows `'=…` as the text it is.
    /// Numbers are never text fields, so a negative value stays a number.
    static func field(_ text: String) -> String {
        let text = text.utf8.first.map(startsFormula) == true ? "'" + text : text
        // Bytes, not Characters: cheaper, and "\r\n" is one Character, equal to neither "\r" nor "\n".
        guard text.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `=`, `+`, `-`, `@`, tab or CR: a first byte that makes a spreadsheet read a cell as a formula.
    static func startsFormula(_ byte: UInt8) -> Bool {
        byte == 0x3D || byte == 0x2B || byte == 0x2D || byte == 0x40 || byte == 0x09 || byte == 0x0D
    }
}

/// A CSV row built field by field in one string (a sweep writes millions: no array of fields,
/// numbers written straight into the text).
struct CSVRow {
    private(set) var text = ""
    private var fields = 0

    init() { text.reserveCapacity(192) }

    mutating func append(_ field: String) {
        if fields > 0 { text += "," }
        text += field
        fields += 1
    }

    /// As `append("\(value)")`, without the intermediate string.
    mutating func append(_ value: Double) {
        if fields > 0 { text += "," }
        value.write(to: &text)
        fields += 1
    }

    /// The row, newline-terminated.
    consuming func line() -> String {
        text += "\n"
        return text
    }
}

enum JSON {
    /// A JSON number in shortest round-trip form; `null` for NaN, ±∞ and nil.
    static func number(_ value: Double?) -> String { value.map(KeyframeExport.number) ?? "null" }

    /// A JSON string literal.
    static func string(_ text: String) -> String { KeyframeExport.string(text) }
}
