import KinemaCLI

/// JSON text written by hand: the answers embed the CLI's own JSON (`kinema spring --format json`)
/// verbatim, which an encoder would re-escape. Strings and numbers as the exports write them.
enum JSONText {
    static func string(_ text: String) -> String { InProcessCommands.json(text) }

    /// A finite number as Swift prints it (which JSON reads), anything else as null.
    static func number(_ value: Double) -> String { InProcessCommands.json(value) }

    static func array(_ values: [Double]) -> String { "[" + values.map(number).joined(separator: ",") + "]" }

    /// `{"key": value, …}` from already-written JSON values, in order.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { string($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
    }
}
