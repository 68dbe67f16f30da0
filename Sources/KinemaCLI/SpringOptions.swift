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
    static let dialects: [(name: String, flags: Set<String>, takesMass: Bool)] = [
        ("mass/stiffness/damping", ["--stiffness", "--damping"], true),
        ("response/damping-ratio", ["--response", "--damping-ratio"], true),
        ("response/bounce (SwiftUI)", ["--response", "--bounce"], true),
        ("stiffness/damping-ratio (Android)", ["--stiffness", "--damping-ratio"], true),
        ("tension/friction", ["--tension", "--friction"], false),
        ("bounciness/speed (POP)", ["--bounciness", "--speed"], false),
        ("origami-tension/origami-friction", ["--origami-tension", "--origami-friction"], false),
        ("damped-cosine", ["--damped-cosine"], false),
        ("Motion duration/bounce", ["--motion-duration", "--motion-bounce"], false),
        ("Motion visualDuration/bounce", ["--motion-visual-duration", "--motion-bounce"], false)
    ]

    /// The flags as plain values, which hold the logic (the spring, the endpoints).
    var values: SpringValues { SpringValues(self) }

    /// `origamiTension` → `--origami-tension`.
    static func flagName(_ parameter: String) -> String {
        var flag = "--"
        for character in parameter {
            if character.isUppercase { flag += "-" + character.lowercased() } else { flag.append(character) }
        }
        return flag
    }
}

/// The spring flags as plain values, and what they describe: parsed once into `SpringOptions`, a
/// sweep's rows set them without going through argument-parser's property wrappers.
struct SpringValues {
    var mass: Double?
    var stiffness: Double?
    var damping: Double?
    var response: Double?
    var dampingRatio: Double?
    var bounce: Double?
    var tension: Double?
    var friction: Double?
    var bounciness: Double?
    var speed: Double?
    var origamiTension: Double?
    var origamiFriction: Double?
    var dampedCosine: String?
    var motionDuration: Double?
    var motionVisualDuration: Double?
    var motionBounce: Double?
    var from: Double?
    var to: Double?
    var velocity: Double?
    var relativeVelocity: Double?

    init(_ flags: SpringOptions) {
        mass = flags.mass
        stiffness = flags.stiffness
        damping = flags.damping
        response = flags.response
        dampingRatio = flags.dampingRatio
        bounce = flags.bounce
        tension = flags.tension
        friction = flags.friction
        bounciness = flags.bounciness
        speed = flags.speed
        origamiTension = flags.origamiTension
        origamiFriction = flags.origamiFriction
        dampedCosine = flags.dampedCosine
        motionDuration = flags.motionDuration
        motionVisualDuration = flags.motionVisualDuration
        motionBounce = flags.motionBounce
        from = flags.from
        to = flags.to
        velocity = flags.velocity
        relativeVelocity = flags.relativeVelocity
    }
}

extension SpringValues {
    /// The dialects' parameter flags, in the order of `givenParameterMask`'s bits.
    static let parameterFlags = [
        "--stiffness", "--damping", "--response", "--damping-ratio", "--bounce", "--tension", "--friction",
        "--bounciness", "--speed", "--origami-tension", "--origami-friction", "--damped-cosine", "--motion-duration",
        "--motion-visual-duration", "--motion-bounce"
    ]

    /// The parameter flags given, one bit each (`parameterFlags`' order): a sweep row finds its
    /// dialect by comparing integers, not sets of strings.
    var givenParameterMask: Int {
        func bit(_ given: Bool, _ k: Int) -> Int { given ? 1 << k : 0 }
        return bit(stiffness != nil, 0) | bit(damping != nil, 1) | bit(response != nil, 2)
            | bit(dampingRatio != nil, 3) | bit(bounce != nil, 4) | bit(tension != nil, 5) | bit(friction != nil, 6)
            | bit(bounciness != nil, 7) | bit(speed != nil, 8) | bit(origamiTension != nil, 9)
            | bit(origamiFriction != nil, 10) | bit(dampedCosine != nil, 11) | bit(motionDuration != nil, 12)
            | bit(motionVisualDuration != nil, 13) | bit(motionBounce != nil, 14)
    }

    /// Each dialect's flags as a `givenParameterMask`.
    static let dialectMasks: [Int] = SpringOptions.dialects.map { dialect in
        dialect.flags.reduce(0) { $0 | 1 << (parameterFlags.firstIndex(of: $1) ?? 0) }
    }

    var givenParameterFlags: [String] {
        let mask = givenParameterMask
        return Self.parameterFlags.indices.filter { mask & 1 << $0 != 0 }.map { Self.parameterFlags[$0] }
    }

    /// The damped cosine's (A, B), parsed and checked.
    func dampedCosineParameters() throws -> DampedCosine? {
        guard let dampedCosine else { return nil }
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
        try check(mass, "--mass", .positive)
        try check(stiffness, "--stiffness", .positive)
        try check(damping, "--damping", .nonNegative)
        try check(response, "--response", .positive)
        try check(dampingRatio, "--damping-ratio", .nonNegative)
        try check(bounce, "--bounce", .finite)
        if let bounce, !(bounce > -1 && bounce <= 1) {
            throw CLIError(flag: "--bounce", value: "\(bounce)", rule: "a number in (−1, 1]")
        }
        try check(tension, "--tension", .positive)
        try check(friction, "--friction", .nonNegative)
        try check(bounciness, "--bounciness", .nonNegative)
        try check(speed, "--speed", .nonNegative)
        try check(origamiTension, "--origami-tension", .finite)
        try check(origamiFriction, "--origami-friction", .finite)
        let curve = try dampedCosineParameters()
        if let motionDuration, !(motionDuration >= 0.01 && motionDuration <= 10) {
            throw CLIError(
                flag: "--motion-duration", value: "\(motionDuration)", rule: "in [0.01, 10] s, Motion's range")
        }
        try check(motionVisualDuration, "--motion-visual-duration", .positive)
        try check(motionBounce, "--motion-bounce", .finite)

        let mask = givenParameterMask
        guard mask != 0 else {
            throw CLIError(
                "a spring needs its parameters in one dialect: "
                    + SpringOptions.dialects.map { $0.flags.sorted().joined(separator: " ") }.joined(separator: " | ")
                    + ".")
        }
        guard let index = Self.dialectMasks.firstIndex(of: mask) else {
            let given = Set(givenParameterFlags)
            let partners = SpringOptions.dialects.filter { $0.flags.isSuperset(of: given) }
                .map { $0.flags.subtracting(given).sorted().joined(separator: " ") }
            if !partners.isEmpty {
                throw CLIError(
                    "'\(given.sorted().joined(separator: " "))' needs "
                        + partners.map { "'\($0)'" }.joined(separator: " or ") + " to complete a spring dialect.")
            }
            throw CLIError(
                "spring flags of different dialects are mixed ('\(given.sorted().joined(separator: "', '"))'): "
                    + "use one of "
                    + SpringOptions.dialects.map { $0.flags.sorted().joined(separator: " ") }.joined(separator: " | ")
                    + ".")
        }
        let dialect = SpringOptions.dialects[index]
        if mass != nil && !dialect.takesMass {
            throw CLIError("'--mass' does not apply to the \(dialect.name) dialect, which describes a unit mass.")
        }
        let m = mass ?? 1
        do {
            switch dialect.name {
            case "mass/stiffness/damping": return try DampedSpring(mass: m, stiffness: stiffness!, damping: damping!)
            case "response/damping-ratio":
                return try DampedSpring(response: response!, dampingRatio: dampingRatio!, mass: m)
            case "response/bounce (SwiftUI)": return try DampedSpring(duration: response!, bounce: bounce!, mass: m)
            case "stiffness/damping-ratio (Android)":
                return try DampedSpring(stiffness: stiffness!, dampingRatio: dampingRatio!, mass: m)
            case "tension/friction": return try DampedSpring(tension: tension!, friction: friction!)
            case "bounciness/speed (POP)": return try DampedSpring(bounciness: bounciness!, speed: speed!)
            case "origami-tension/origami-friction":
                return try DampedSpring(origamiTension: origamiTension!, origamiFriction: origamiFriction!)
            case "Motion duration/bounce":
                return try DampedSpring(motionDuration: motionDuration!, bounce: motionBounce!)
            case "Motion visualDuration/bounce":
                return try DampedSpring(motionVisualDuration: motionVisualDuration!, bounce: motionBounce!)
            default: return try DampedSpring(dampedCosine: curve!)
            }
        } catch let error as KinemaError where error.parameter.contains("/") {
            // A quantity derived from several flags: name the flags the user gave.
            throw CLIError("the spring given by \(dialect.name) is out of range: \(error.description)")
        } catch let error as KinemaError {
            throw CLIError(flag: SpringOptions.flagName(error.parameter), value: error.value, rule: error.rule)
        }
    }

    /// Start, target and initial velocity (units/s).
    func endpoints() throws -> (from: Double, to: Double, velocity: Double) {
        try check(from, "--from", .finite)
        try check(to, "--to", .finite)
        try check(velocity, "--velocity", .finite)
        try check(relativeVelocity, "--relative-velocity", .finite)
        let start = from ?? 0, target = to ?? 1
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
