import ArgumentParser
import Foundation
import Kinema

/// The spring flags shared by `spring`, `simulate`, `keyframes` and `sweep`: the parameters in any
/// one dialect, plus the start, target and initial velocity.
struct SpringOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: "Mass (default 1); with --stiffness/--damping, --response or --stiffness/--damping-ratio.")
    var mass: Double?
    @Option(parsing: .unconditional, help: "Stiffness k (N/m), with --damping or --damping-ratio.")
    var stiffness: Double?
    @Option(parsing: .unconditional, help: "Damping coefficient c (N·s/m), with --stiffness.")
    var damping: Double?
    @Option(
        parsing: .unconditional,
        help: "SwiftUI response / duration (s): the undamped period, with --damping-ratio or --bounce.")
    var response: Double?
    @Option(parsing: .unconditional, help: "Damping ratio ζ, with --response or --stiffness.")
    var dampingRatio: Double?
    @Option(parsing: .unconditional, help: "SwiftUI bounce in (−1, 1], with --response.")
    var bounce: Double?
    @Option(parsing: .unconditional, help: "Rebound / react-spring tension (unit mass), with --friction.")
    var tension: Double?
    @Option(parsing: .unconditional, help: "Rebound / react-spring friction (unit mass), with --tension.")
    var friction: Double?
    @Option(parsing: .unconditional, help: "POP bounciness, with --speed.")
    var bounciness: Double?
    @Option(parsing: .unconditional, help: "POP speed, with --bounciness.")
    var speed: Double?
    @Option(parsing: .unconditional, help: "Origami tension, with --origami-friction.")
    var origamiTension: Double?
    @Option(parsing: .unconditional, help: "Origami friction, with --origami-tension.")
    var origamiFriction: Double?
    @Option(
        parsing: .unconditional,
        help: "The damped cosine 1 − e^(−A t)cos(B t) as 'A,B': k = A²+B², c = 2A, v0 = A·travel.")
    var dampedCosine: String?
    @Option(
        name: .customLong("motion-duration"), parsing: .unconditional,
        help:
            "Motion (framer-motion) duration in s, in [0.01, 10], with --motion-bounce: Motion's findSpring (not SwiftUI's duration)."
    )
    var motionDuration: Double?
    @Option(
        name: .customLong("motion-visual-duration"), parsing: .unconditional,
        help: "Motion visualDuration in s, with --motion-bounce: ω = 2π/(1.2·visualDuration).")
    var motionVisualDuration: Double?
    @Option(
        name: .customLong("motion-bounce"), parsing: .unconditional,
        help:
            "Motion bounce, with --motion-duration or --motion-visual-duration: ζ = 1 − bounce, clamped to [0.05, 1] as Motion does."
    )
    var motionBounce: Double?

    @Option(parsing: .unconditional, help: "Start position (default 0).")
    var from: Double?
    @Option(parsing: .unconditional, help: "Target position (default 1).")
    var to: Double?
    @Option(parsing: .unconditional, help: "Initial velocity in units/s (default 0).")
    var velocity: Double?
    @Option(parsing: .unconditional, help: "Initial velocity as UIKit's initialSpringVelocity: V × travel per second.")
    var relativeVelocity: Double?

    /// The dialects and the flags that make each one up.
    static let dialects: [(name: String, flags: [SpringFlag], takesMass: Bool)] = [
        ("mass/stiffness/damping", [.stiffness, .damping], true),
        ("response/damping-ratio", [.response, .dampingRatio], true),
        ("response/bounce (SwiftUI)", [.response, .bounce], true),
        ("stiffness/damping-ratio (Android)", [.stiffness, .dampingRatio], true),
        ("tension/friction", [.tension, .friction], false),
        ("bounciness/speed (POP)", [.bounciness, .speed], false),
        ("origami-tension/origami-friction", [.origamiTension, .origamiFriction], false),
        ("damped-cosine", [.dampedCosine], false),
        ("Motion duration/bounce", [.motionDuration, .motionBounce], false),
        ("Motion visualDuration/bounce", [.motionVisualDuration, .motionBounce], false)
    ]

    /// The flags as plain values, which hold the logic (the spring, the endpoints).
    var values: SpringValues { SpringValues(reading: self) }
}

/// The spring flags (the options are `SpringOptions`' properties of the same names; see
/// `DeclaredFlag`).
enum SpringFlag: Int, DeclaredFlag {
    case stiffness, damping, response, dampingRatio, bounce, tension, friction, bounciness, speed
    case origamiTension, origamiFriction, motionDuration, motionVisualDuration, motionBounce, dampedCosine
    case from, to, velocity, relativeVelocity, mass
    static let propertyNames = allCases.map { "\($0)" }

    var kind: FlagKind {
        switch self {
        case .stiffness, .response, .tension, .motionVisualDuration, .mass: return .number(.positive)
        case .damping, .dampingRatio, .friction, .bounciness, .speed: return .number(.nonNegative)
        case .bounce:
            return .number(.interval(-1, 1, includesLower: false, includesUpper: true, text: "a number in (−1, 1]"))
        case .motionDuration:
            return .number(
                .interval(0.01, 10, includesLower: true, includesUpper: true, text: "in [0.01, 10] s, Motion's range"))
        case .origamiTension, .origamiFriction, .motionBounce, .from, .to, .velocity, .relativeVelocity:
            return .number(.finite)
        case .dampedCosine: return .text
        }
    }

    /// One of a dialect's parameters (not the mass, the ends or the initial velocity).
    var isParameter: Bool { rawValue < Self.from.rawValue }
}

/// The spring flags as plain values, and what they describe: parsed once into `SpringOptions`, a
/// sweep's rows set them without going through argument-parser's property wrappers.
typealias SpringValues = FlagValues<SpringFlag>

extension SpringValues {
    static let parameterBits = SpringFlag.mask(SpringFlag.allCases.filter(\.isParameter))
    static let massBit = SpringFlag.mask(.mass)

    /// The dialects' parameter flags given, one bit each: a sweep row finds its dialect by comparing
    /// integers, not sets of strings.
    var givenParameterMask: UInt32 { given & Self.parameterBits }

    /// Each dialect's flags as a `givenParameterMask`.
    static let dialectMasks: [UInt32] = SpringOptions.dialects.map { SpringFlag.mask($0.flags) }

    /// Every dialect's flags, for the messages: `--damping --stiffness | --damping-ratio --response | …`.
    static let dialectList = SpringOptions.dialects.map { $0.flags.map(\.name).sorted().joined(separator: " ") }
        .joined(separator: " | ")

    var givenParameterFlags: [String] { givenFlags(among: Self.parameterBits).map(\.name) }

    /// Whether any spring flag is given.
    var isAnyGiven: Bool { given != 0 }

    /// The flags given: the dialects' parameters first, then the others.
    var givenFlags: [String] { givenParameterFlags + givenFlags(among: ~Self.parameterBits).map(\.name) }

    /// The damped cosine's (A, B), parsed and checked.
    func dampedCosineParameters() throws -> DampedCosine? {
        guard let dampedCosine = self[text: .dampedCosine] else { return nil }
        let parts = dampedCosine.split(separator: ",", omittingEmptySubsequences: false).map {
            Double(String($0).trimmingCharacters(in: .whitespaces))
        }
        guard parts.count == 2, let a = parts[0], let b = parts[1], a.isFinite, a > 0, b.isFinite, b >= 0 else {
            throw CLIError(
                flag: "--damped-cosine", value: "'\(dampedCosine)'",
                rule: "'A,B' with A a finite number > 0 and B a finite number ≥ 0")
        }
        return try DampedCosine(decay: a, frequency: b)
    }

    /// The spring the flags describe.
    /// - Throws: `CLIError` naming the flag for a bad value, a missing partner flag or two dialects mixed.
    func spring() throws -> DampedSpring {
        try check(Self.parameterBits | Self.massBit)
        let curve = try dampedCosineParameters()

        let mask = givenParameterMask
        guard mask != 0 else {
            throw CLIError(
                "a spring needs its parameters in one dialect: "
                    + Self.dialectList
                    + ".")
        }
        guard let index = Self.dialectMasks.firstIndex(of: mask) else {
            let given = Set(givenParameterFlags)
            let partners = SpringOptions.dialects.map { Set($0.flags.map(\.name)) }.filter { $0.isSuperset(of: given) }
                .map { $0.subtracting(given).sorted().joined(separator: " ") }
            if !partners.isEmpty {
                throw CLIError(
                    "'\(given.sorted().joined(separator: " "))' needs "
                        + partners.map { "'\($0)'" }.joined(separator: " or ") + " to complete a spring dialect.")
            }
            throw CLIError(
                "spring flags of different dialects are mixed ('\(given.sorted().joined(separator: "', '"))'): "
                    + "use one of "
                    + Self.dialectList
                    + ".")
        }
        let dialect = SpringOptions.dialects[index]
        if self[.mass] != nil && !dialect.takesMass {
            throw CLIError("'--mass' does not apply to the \(dialect.name) dialect, which describes a unit mass.")
        }
        let m = self[.mass] ?? 1
        // The dialect's mask says which flags are given: read as 0 here, never absent.
        func value(_ flag: SpringFlag) -> Double { self[flag] ?? 0 }
        do {
            switch dialect.name {
            case "mass/stiffness/damping":
                return try DampedSpring(mass: m, stiffness: value(.stiffness), damping: value(.damping))
            case "response/damping-ratio":
                return try DampedSpring(response: value(.response), dampingRatio: value(.dampingRatio), mass: m)
            case "response/bounce (SwiftUI)":
                return try DampedSpring(duration: value(.response), bounce: value(.bounce), mass: m)
            case "stiffness/damping-ratio (Android)":
                return try DampedSpring(stiffness: value(.stiffness), dampingRatio: value(.dampingRatio), mass: m)
            case "tension/friction": return try DampedSpring(tension: value(.tension), friction: value(.friction))
            case "bounciness/speed (POP)":
                return try DampedSpring(bounciness: value(.bounciness), speed: value(.speed))
            case "origami-tension/origami-friction":
                return try DampedSpring(
                    origamiTension: value(.origamiTension), origamiFriction: value(.origamiFriction))
            case "Motion duration/bounce":
                return try DampedSpring(motionDuration: value(.motionDuration), bounce: value(.motionBounce))
            case "Motion visualDuration/bounce":
                return try DampedSpring(
                    motionVisualDuration: value(.motionVisualDuration), bounce: value(.motionBounce))
            default:
                guard let curve else { throw CLIError("'--damped-cosine' is missing.") }
                return try DampedSpring(dampedCosine: curve)
            }
        } catch let error as KinemaError where givenFlags.contains(flagName(forProperty: error.parameter)) {
            throw CLIError(flag: flagName(forProperty: error.parameter), value: error.value, rule: error.rule)
        } catch let error as KinemaError {
            // A quantity derived from the flags (POP's bounciness and speed become Origami's
            // tension and friction, Motion's durations a stiffness): name the dialect the user gave.
            throw CLIError("the spring given by \(dialect.name) is out of range: \(error.description)")
        }
    }

    /// Start, target and initial velocity (units/s).
    func endpoints() throws -> (from: Double, to: Double, velocity: Double) {
        try check(~(Self.parameterBits | Self.massBit))
        let start = self[.from] ?? 0, target = self[.to] ?? 1, velocity = self[.velocity]
        let relativeVelocity = self[.relativeVelocity]
        if velocity != nil && relativeVelocity != nil {
            throw CLIError("'--velocity' and '--relative-velocity' cannot be combined: give one.")
        }
        let travel = target - start
        guard travel.isFinite else {
            throw CLIError("the travel '--to' − '--from' (\(target) − \(start)) must be a finite number; it overflows.")
        }
        if let curve = try dampedCosineParameters() {
            if velocity != nil || relativeVelocity != nil {
                throw CLIError(
                    "'--damped-cosine' sets the initial velocity (A × travel); drop '--velocity'/'--relative-velocity'."
                )
            }
            return (start, target, curve.decay * travel)
        }
        return (start, target, velocity ?? (relativeVelocity ?? 0) * travel)
    }
}
