/// JSON text written by hand: the answers embed the CLI's own JSON (`kinema spring --format json`)
/// verbatim, which an encoder would re-escape.
enum JSONText {
    /// `text` as the inside of a JSON string. Byte by byte: an export is tens of kilobytes, and
    /// only quotes, backslashes and control characters change (UTF-8's other bytes are ≥ 0x20).
    static func escape(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + text.utf8.count / 8)
        let hex = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case 0x22: bytes += [0x5C, 0x22]
            case 0x5C: bytes += [0x5C, 0x5C]
            case 0x0A: bytes += [0x5C, 0x6E]
            case 0x0D: bytes += [0x5C, 0x72]
            case 0x09: bytes += [0x5C, 0x74]
            case 0..<0x20: bytes += [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
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
