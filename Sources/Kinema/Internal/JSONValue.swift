/// A parsed JSON value that remembers where each object member's key stood, so schema errors
/// (unknown keys, wrong types) can name a line and column as well as syntax errors do.
@_spi(Studio) public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue], Location)
    case object([(key: String, value: JSONValue, location: Location)], Location)

    public struct Location: Sendable, CustomStringConvertible {
        public var line: Int
        public var column: Int
        public var description: String { "line \(line), column \(column)" }
    }
}

/// A strict RFC 8259 parser (no comments, no trailing commas) with line and column in its errors.
@_spi(Studio) public struct JSONParser {
    struct SyntaxError: Error, CustomStringConvertible {
        let message: String
        let location: JSONValue.Location
        var description: String { "\(message) at \(location)" }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    public static func parse(_ text: String) throws -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8))
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var location: JSONValue.Location { .init(line: line, column: index - lineStart + 1) }

    private func error(_ message: String) -> SyntaxError { SyntaxError(message: message, location: location) }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            case UInt8(ascii: "\n"): index += 1; line += 1; lineStart = index
            default: return
            }
        }
    }

    private mutating func expect(_ literal: String) throws {
        for byte in literal.utf8 {
            guard index < bytes.count, bytes[index] == byte else {
                throw error("invalid literal, expected '\(literal)'")
            }
            index += 1
        }
    }

    private mutating func parseValue() throws -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character '\(Character(UnicodeScalar(bytes[index])))'")
        }
    }

    private mutating func enter() throws {
        depth += 1
        guard depth <= 512 else { throw error("nesting deeper than 512 levels") }
    }

    private mutating func parseObject() throws -> JSONValue {
        let start = location
        try enter()
        index += 1
        var members: [(key: String, value: JSONValue, location: JSONValue.Location)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1; depth -= 1; return .object(members, start)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let keyLocation = location
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after the key")
            }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue(), keyLocation))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; depth -= 1; return .object(members, start) }
            throw error("expected ',' or '}'")
        }
    }

    private mutating func parseArray() throws -> JSONValue {
        let start = location
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1; depth -= 1; return .array(elements, start)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; depth -= 1; return .array(elements, start) }
            throw error("expected ',' or ']'")
        }
    }

    private mutating func parseString() throws -> String {
        index += 1
        // Most strings (names) have no escapes: one decode of the bytes, not one append per run.
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20
        { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            defer { index = end + 1 }
            return String(decoding: bytes[index..<end], as: UTF8.self)
        }
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars); raw.removeAll()
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { index += 1; flush(); return String(scalars) }
            if byte < 0x20 { throw error("control character in a string") }
            if byte == UInt8(ascii: "\\") {
                flush()
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count,
                        let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
                    else { throw error("invalid \\u escape") }
                    index += 4
                    scalars.append(UnicodeScalar(code) ?? "\u{FFFD}")
                default: throw error("invalid escape '\\\(Character(UnicodeScalar(escape)))'")
                }
                continue
            }
            raw.append(byte)
            index += 1
        }
        throw error("unterminated string")
    }

    private mutating func parseNumber() throws -> Double {
        let start = index
        func digits() {
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        digits()
        guard index > integerStart else { throw error("invalid number") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            digits()
            guard index > fractionStart else { throw error("invalid number: digits must follow '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            let exponentStart = index
            digits()
            guard index > exponentStart else { throw error("invalid number: digits must follow the exponent") }
        }
        let literal = String(decoding: bytes[start..<index], as: UTF8.self)
        let at = JSONValue.Location(line: line, column: start - lineStart + 1)
        guard let value = Double(literal), value.isFinite else {
            throw SyntaxError(message: "number \(literal) is out of range (beyond ±1.8e308)", location: at)
        }
        // A literal with a nonzero digit before its exponent that reads as 0 is refused as an
        // overflow is: reading it as 0 would report (or use) a value nobody wrote.
        let mantissa = literal.prefix { $0 != "e" && $0 != "E" }
        if value == 0, mantissa.contains(where: { $0 >= "1" && $0 <= "9" }) {
            throw SyntaxError(
                message: "number \(literal) is too small for a double (below 4.9e-324, it would read as 0)",
                location: at)
        }
        return value
    }
}
