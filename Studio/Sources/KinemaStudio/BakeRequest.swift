import Foundation
@_spi(Studio) import Kinema
import KinemaCLI

/// A `POST /api/bake` body: a motion (an easing, a spring in any dialect, or a drop) and how to bake
/// it, as `kinema keyframes` flags. Fields are the flags' names in camelCase (`dampingRatio` for
/// `--damping-ratio`), so that the CLI's messages, which name the flag, name the field too.
struct BakeRequest {
    /// The kinds of motion, each with the fields it takes besides `source` (`MotionRequest`'s
    /// parameters: the CLI's flags in camelCase), and the fields whose values are text.
    static let fields = Dictionary(
        uniqueKeysWithValues: MotionRequest.Kind.allCases.map { ($0.rawValue, MotionRequest.parameters(of: $0)) })
    static let sources = MotionRequest.Kind.allCases.map(\.rawValue).joined(separator: ", ")
    /// Each field's kind, by name.
    static let kinds = Dictionary(fields.values.joined().map { ($0.name, $0.kind) }, uniquingKeysWith: { a, _ in a })
    /// The canvas a scene is drawn on when the request names none.
    static let defaultCanvas = "640x360"

    /// The work a request may ask for: past these it is refused (422) before anything is computed.
    enum Limit {
        static let duration = 30.0
        static let tolerance = 1e-5
        static let fps = 1_000.0
        static let oscillations = 300.0
        static let bodyBytes = 16_384
        static let bodySeconds = 10.0
        /// A scene's bodies and duration: a scene runs under dopri5 at 1e-11, a second of a 12-ball
        /// pile in 0.7 s of a release build.
        static let sceneBodies = 16
        static let sceneDuration = 10.0
    }

    /// Why a request was refused: 400 for a malformed or invalid field, 422 for work past a limit.
    struct Refusal: Error {
        let status: Int
        let field: String?
        let message: String
    }

    let source: String
    /// The motion's flags, as `kinema keyframes` takes them, in the order of their names.
    let numbers: [(flag: String, value: Double)]
    let texts: [(flag: String, value: String)]
    /// The switches given true (`--draw-planes`).
    let switches: [String]

    /// `kinema keyframes`' first flag: `--spring`, `--drop`, `--easing` or `--scene`.
    var kind: String { "--\(source)" }

    /// The flags as one line, the same for the same request (a cache's key).
    var key: String {
        ([kind] + numbers.map { "\($0.flag)=\($0.value)" } + texts.map { "\($0.flag)=\($0.value)" } + switches)
            .joined(separator: "\u{0}")
    }

    /// The number given for `field`, if any.
    func number(_ field: String) -> Double? { numbers.first { $0.flag == Self.flag(field) }?.value }

    /// Reads and checks a body: a JSON object of known fields, each of its type. It is read by the
    /// parser scene files go through, so a field given twice or a number past a double's range is
    /// refused here as there.
    init(json data: Data) throws(Refusal) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(String(decoding: data, as: UTF8.self))
        } catch {
            throw Refusal(status: 400, field: nil, message: "the body is not valid JSON: \(error).")
        }
        guard case .object(let members, _) = root else {
            throw Refusal(status: 400, field: nil, message: "the body must be a JSON object of fields.")
        }
        var fields: [String: JSONValue] = [:]
        for member in members {
            guard fields.updateValue(member.value, forKey: member.key) == nil else {
                throw Refusal(
                    status: 400, field: member.key, message: "'\(member.key)' is given twice (\(member.location)).")
            }
        }
        guard case .string(let source)? = fields["source"] else {
            throw Refusal(
                status: 400, field: "source", message: "'source' must be one of \(Self.sources) (a string)."
            )
        }
        guard let allowed = Self.fields[source]?.map(\.name) else {
            throw Refusal(
                status: 400, field: "source",
                message: "'source' must be one of \(Self.sources) (got '\(source)')."
            )
        }
        var numbers: [(flag: String, value: Double)] = [], texts: [(flag: String, value: String)] = []
        var switches: [String] = []
        for key in fields.keys.sorted() where key != "source" {
            guard allowed.contains(key), let kind = Self.kinds[key] else {
                let known = (["source"] + allowed).joined(separator: ", ")
                throw Refusal(
                    status: 400, field: key, message: "'\(key)' is not a field of a \(source) bake: \(known).")
            }
            switch (fields[key], kind) {
            case (.string(let string)?, .text): texts.append((Self.flag(key), string))
            case (.number(let number)?, .number): numbers.append((Self.flag(key), number))
            case (.bool(let given)?, .flag): if given { switches.append(Self.flag(key)) }
            default:
                let type = kind == .flag ? "true or false" : "a \(kind.jsonType)"
                throw Refusal(status: 400, field: key, message: "'\(key)' must be \(type).")
            }
        }
        if source == "easing" && fields["easing"] == nil {
            throw Refusal(status: 400, field: "easing", message: "'easing' is needed: the easing's name.")
        }
        if source == "scene" {
            guard fields["scene"] != nil else {
                throw Refusal(status: 400, field: "scene", message: "'scene' is needed: the scene file's text.")
            }
            if fields["canvas"] == nil { texts.append(("--canvas", Self.defaultCanvas)) }
        }
        (self.source, self.numbers, self.texts, self.switches) = (source, numbers, texts, switches)
    }

    /// `dampingRatio` → `--damping-ratio`.
    static func flag(_ field: String) -> String { InProcessCommands.flag(forParameter: field) }

    /// The field a CLI message names (its first `'--flag'`, or `scene` for the scene's text), if it
    /// is one of the studio's.
    static func field(in message: String) -> String? {
        if message.hasPrefix("scene.json") { return "scene" }
        guard let start = message.range(of: "'--") else { return nil }
        let flag = message[start.lowerBound...].dropFirst().prefix { $0 != "'" && $0 != " " }
        guard flag.count > 2 else { return nil }
        let field = InProcessCommands.parameter(forFlag: String(flag))
        // A flag the studio has no field for (`--max-steps`) names none.
        return fields.values.joined().contains { $0.name == field } ? field : nil
    }
}

extension MotionRequest.Parameter.Kind {
    /// The JSON type a request gives a field of this kind in.
    var jsonType: String {
        switch self {
        case .number: "number"
        case .text: "string"
        case .flag: "boolean"
        }
    }
}
