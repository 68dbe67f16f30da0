/// An invalid value handed to a public initializer or parser, with the rule it broke.
///
/// The message names the parameter, the rule and the offending value, so it can be shown to a user
/// as it is: `"stiffness must be a finite number ≥ 0 (got nan)."`
public struct KinemaError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The parameter (or input) that was rejected, as the API spells it.
    public let parameter: String
    /// The offending value, as text.
    public let value: String
    /// The rule the value broke, phrased to follow "must be".
    public let rule: String

    /// The whole message.
    public let description: String

    /// The error for `value` of `parameter`, which must be `rule`.
    public init(parameter: String, value: String, rule: String) {
        self.parameter = parameter
        self.value = value
        self.rule = rule
        description = "\(parameter) must be \(rule) (got \(value))."
    }

    /// An error at a place in a file: `"scene.json, line 3, column 5: unknown key 'x' …"`.
    package init(at place: String, _ message: String) {
        parameter = place
        value = ""
        rule = message
        description = "\(place): \(message)"
    }
}

extension KinemaError {
    /// Throws unless `value` is finite.
    package static func requireFinite(_ value: Double, _ parameter: @autoclosure () -> String) throws {
        guard value.isFinite else {
            throw KinemaError(parameter: parameter(), value: "\(value)", rule: "a finite number")
        }
    }

    /// Throws unless every component of `vector` is finite.
    package static func requireFinite(_ vector: SIMD3<Double>, _ parameter: @autoclosure () -> String) throws {
        guard vector.allFinite else {
            throw KinemaError(parameter: parameter(), value: vector.sceneText(), rule: "finite components")
        }
    }

    /// Throws unless the components of `vector` past a scene's `dimensions` are zero.
    package static func requireWithin(
        dimensions: Int, _ vector: SIMD3<Double>, _ parameter: @autoclosure () -> String
    ) throws {
        guard (dimensions..<3).allSatisfy({ vector[$0] == 0 }) else {
            throw KinemaError(
                parameter: parameter(), value: vector.sceneText(),
                rule: "zero past the scene's \(dimensions) dimension\(dimensions == 1 ? "" : "s")")
        }
    }

    /// Throws unless `value` is finite and > 0.
    package static func requirePositive(_ value: Double, _ parameter: @autoclosure () -> String) throws {
        guard value.isFinite, value > 0 else {
            throw KinemaError(parameter: parameter(), value: "\(value)", rule: "a finite number > 0")
        }
    }

    /// Runs `check` and stops the program with its error's message: the rule of the calls whose
    /// values the app computes itself (an animator's target, a gesture's velocity, a preset's
    /// duration), where a bad value is a programmer's mistake rather than data to handle.
    package static func precondition(
        _ check: () throws -> Void, file: StaticString = #fileID, line: UInt = #line
    ) {
        do { try check() } catch { preconditionFailure("\(error)", file: file, line: line) }
    }

    /// Throws unless `value` is finite and ≥ 0.
    package static func requireNonNegative(_ value: Double, _ parameter: @autoclosure () -> String) throws {
        guard value.isFinite, value >= 0 else {
            throw KinemaError(parameter: parameter(), value: "\(value)", rule: "a finite number ≥ 0")
        }
    }
}
