import Foundation
import KinemaTestSupport
import Testing

@testable import Kinema

/// A dialect: how to read a spring's parameters in it, and how to build a spring from them.
struct Dialect: CustomTestStringConvertible, Sendable {
    let name: String
    let parameters: @Sendable (DampedSpring) -> [Double]?
    let make: @Sendable ([Double]) throws -> DampedSpring
    var testDescription: String { name }

    static let all: [Dialect] = [
        Dialect(
            name: "mass/stiffness/damping", parameters: { [$0.mass, $0.stiffness, $0.damping] },
            make: { try DampedSpring(mass: $0[0], stiffness: $0[1], damping: $0[2]) }),
        Dialect(
            name: "response/dampingRatio", parameters: { [$0.response, $0.dampingRatio, $0.mass] },
            make: { try DampedSpring(response: $0[0], dampingRatio: $0[1], mass: $0[2]) }),
        Dialect(
            name: "duration/bounce", parameters: { [$0.response, $0.bounce, $0.mass] },
            make: { try DampedSpring(duration: $0[0], bounce: $0[1], mass: $0[2]) }),
        Dialect(
            name: "tension/friction", parameters: { [$0.tension, $0.friction] },
            make: { try DampedSpring(tension: $0[0], friction: $0[1]) }),
        Dialect(
            name: "origami", parameters: { [$0.origamiTension, $0.origamiFriction] },
            make: { try DampedSpring(origamiTension: $0[0], origamiFriction: $0[1]) }),
        Dialect(
            name: "bounciness/speed", parameters: { s in s.bounciness.map { [$0, s.speed] } },
            make: { try DampedSpring(bounciness: $0[0], speed: $0[1]) }),
        Dialect(
            name: "android", parameters: { [$0.stiffness / $0.mass, $0.dampingRatio] },
            make: { try DampedSpring(stiffness: $0[0], dampingRatio: $0[1]) }),
        Dialect(
            name: "dampedCosine", parameters: { s in s.dampedCosine.map { [$0.decay, $0.frequency] } },
            make: { try DampedSpring(dampedCosine: DampedCosine(decay: $0[0], frequency: $0[1])) })
    ]
}

/// Unit-mass springs (every dialect can express them) in all three regimes.
private let unitMassSprings: [DampedSpring] = [
    try! DampedSpring(stiffness: 230.2, damping: 22),
    try! DampedSpring(stiffness: 100, damping: 10),
    try! DampedSpring(stiffness: 925, damping: 10),
    try! DampedSpring(stiffness: 300, damping: 2 * sqrt(300.0) * 0.999),
    try! DampedSpring(stiffness: 170, damping: 26),
    try! DampedSpring(stiffness: 100, damping: 20),
    try! DampedSpring(stiffness: 50, damping: 40)
]

/// Bounds a round trip's relative error in k and c: a few roundings per conversion.
private let roundTripTolerance = 1e-12

private func relativeError(_ a: Double, _ b: Double) -> Double { abs(a - b) / max(abs(a), abs(b), 1e-300) }

struct SpringDialectTests {
    @Test func swiftUIsDocumentedExample() throws {
        let spring = try DampedSpring(duration: 0.5, bounce: 0.3)
        #expect(abs(spring.stiffness - 157.91) < 0.005)
        #expect(abs(spring.damping - 17.59) < 0.005)
    }

    @Test func massStiffnessDampingToSwiftUI() throws {
        let spring = try DampedSpring(mass: 1, stiffness: 100, damping: 10)
        #expect(abs(spring.response - 0.628) < 0.0005)
        #expect(abs(spring.bounce - 0.5) < 1e-12)
        #expect(spring.dampingRatio == 0.5)
    }

    @Test func origami40And7IsRebounds230Point2And22() throws {
        let spring = try DampedSpring(origamiTension: 40, origamiFriction: 7)
        #expect(abs(spring.tension - 230.2) < 1e-12)
        #expect(abs(spring.friction - 22) < 1e-12)
    }

    @Test func negativeBounceMeansOverdamped() throws {
        let spring = try DampedSpring(duration: 1, bounce: -0.5)
        #expect(abs(spring.dampingRatio - 2) < 1e-12)
        #expect(spring.regime == .overdamped)
        #expect(abs(spring.bounce - -0.5) < 1e-12)
    }

    @Test(arguments: Dialect.all, Dialect.all)
    func roundTripsBetweenEveryPairOfDialects(from source: Dialect, to destination: Dialect) throws {
        var checked = 0
        for original in unitMassSprings {
            guard let sourceParameters = source.parameters(original),
                let destinationParameters = destination.parameters(try source.make(sourceParameters))
            else { continue }
            let back = try destination.make(destinationParameters)
            #expect(relativeError(back.stiffness, original.stiffness) <= roundTripTolerance, "\(original)")
            #expect(relativeError(back.damping, original.damping) <= roundTripTolerance, "\(original)")
            checked += 1
        }
        #expect(checked >= 2, "each pair is exercised on at least two springs")
    }

    @Test func dialectsWithMassKeepIt() throws {
        let spring = try DampedSpring(mass: 2.5, stiffness: 400, damping: 12)
        let fromResponse = try DampedSpring(response: spring.response, dampingRatio: spring.dampingRatio, mass: 2.5)
        #expect(relativeError(fromResponse.stiffness, 400) <= roundTripTolerance)
        #expect(relativeError(fromResponse.damping, 12) <= roundTripTolerance)
        // the unit-mass dialects describe the same motion
        let unit = try DampedSpring(tension: spring.tension, friction: spring.friction)
        let a = try spring.motion(initialVelocity: 3), b = try unit.motion(initialVelocity: 3)
        for t in grid(0, 2, count: 201) { #expect(abs(a.position(at: t) - b.position(at: t)) <= 1e-12) }
    }

    @Test func invalidParametersAreRejectedWithTheirName() {
        #expect(throws: KinemaError(parameter: "mass", value: "-1.0", rule: "a finite number > 0")) {
            try DampedSpring(mass: -1, stiffness: 1, damping: 1)
        }
        #expect(throws: KinemaError.self) { try DampedSpring(stiffness: .nan, damping: 1) }
        #expect(throws: KinemaError.self) { try DampedSpring(stiffness: .infinity, damping: 1) }
        #expect(throws: KinemaError.self) { try DampedSpring(response: 0, dampingRatio: 1) }
        #expect(throws: KinemaError.self) { try DampedSpring(duration: 1, bounce: -1) }
        #expect(throws: KinemaError.self) { try DampedSpring(duration: 1, bounce: 1.5) }
        #expect(throws: KinemaError.self) { try DampedSpring(origamiTension: -30, origamiFriction: 7) }
        #expect(throws: KinemaError.self) { try DampedSpring(tension: 0, friction: 1) }
    }
}

struct SettlingCase: CustomTestStringConvertible, Sendable {
    let spring: DampedSpring, from: Double, to: Double, velocity: Double
    var testDescription: String { "ζ=\(spring.dampingRatio) k=\(spring.stiffness) \(from)→\(to) v0=\(velocity)" }
    static let all: [SettlingCase] = [
        .init(spring: try! DampedSpring(stiffness: 100, damping: 2), from: 0, to: 1, velocity: 0),
        .init(spring: try! DampedSpring(stiffness: 925, damping: 10), from: 0, to: 1, velocity: 5),
        .init(spring: try! DampedSpring(mass: 2, stiffness: 300, damping: 10), from: 3, to: -1, velocity: 20),
        .init(spring: try! DampedSpring(stiffness: 100, damping: 20), from: 0, to: 1, velocity: 0),
        .init(spring: try! DampedSpring(stiffness: 100, damping: 20), from: 0, to: 1, velocity: 30),
        .init(spring: try! DampedSpring(stiffness: 100, damping: 20), from: 0, to: 1, velocity: -8),
        .init(spring: try! DampedSpring(stiffness: 50, damping: 40), from: 0, to: 1, velocity: 0),
        .init(spring: try! DampedSpring(stiffness: 50, damping: 40), from: 0, to: 1, velocity: 25),
        .init(spring: try! DampedSpring(stiffness: 1000, damping: 400), from: 1, to: 0, velocity: -30)
    ]
}

struct SettlingDurationTests {
    @Test(arguments: SettlingCase.all)
    func isTheLastTimeTheBandIsLeft(_ c: SettlingCase) throws {
        let epsilon = 0.001
        let settle = try c.spring.settlingDuration(
            epsilon: epsilon, from: c.from, to: c.to, initialVelocity: c.velocity)
        let motion = try c.spring.motion(from: c.from, to: c.to, initialVelocity: c.velocity)
        let band = epsilon * abs(c.to - c.from)
        #expect(settle > 0 && settle.isFinite)
        // Inside the band from then on (dense grid over ten times as long).
        for t in grid(settle, 11 * settle, count: 100_001) {
            #expect(abs(motion.position(at: t) - c.to) <= band * (1 + 1e-9), "t = \(t)")
        }
        // Within 1 % of the last exceedance found by brute force on a dense grid.
        let step = settle / 200_000
        var last = 0.0
        for i in 0...400_000 where abs(motion.position(at: Double(i) * step) - c.to) > band { last = Double(i) * step }
        #expect(abs(settle - last) <= 0.01 * last, "settle \(settle), brute force \(last)")
    }

    @Test func undampedNeverSettles() throws {
        #expect(try DampedSpring(stiffness: 10, damping: 0).settlingDuration() == .infinity)
    }

    @Test func alreadySettledIsZero() throws {
        #expect(try DampedSpring(stiffness: 10, damping: 1).settlingDuration(from: 1, to: 1) == 0)
    }
}

/// Settling of very overdamped springs, against the slow exponential written out with the roots
/// in their stable form (the textbook `−λ + μ` cancels to 0 for ζ ≳ 1e8).
@Suite struct OverdampedSettlingTests {
    @Test(arguments: [10.0, 1e3, 1e6, 1e9, 1e12])
    func settlingDurationIsTheSlowExponentialsCrossing(zeta: Double) throws {
        for omega in [0.5, 1.0, 40.0] {
            let spring = try DampedSpring(stiffness: omega * omega, dampingRatio: zeta)
            let lambda = zeta * omega, mu = omega * (zeta * zeta - 1).squareRoot()
            let r1 = -omega * omega / (lambda + mu), r2 = -(lambda + mu)
            let c1 = -r2 / (r2 - r1)  // x − 1 = c1·e^(r1 t) + c2·e^(r2 t), from rest at 0
            let expected = log(abs(c1) / 0.001) / -r1
            let settling = try spring.settlingDuration(epsilon: 0.001)
            #expect(abs(settling - expected) <= 1e-9 * expected, "ω0 \(omega): \(settling) vs \(expected)")
        }
    }
}

/// The errors an app shows: what the caller wrote, in `localizedDescription` too.
@Suite struct SpringErrorTests {
    /// `DampedSpring(duration: 0, …)` blamed `response`, a parameter the caller never wrote.
    @Test(arguments: [0, -1, .nan, 1e-200])
    func aBadDurationNamesTheDuration(_ duration: Double) {
        #expect {
            try DampedSpring(duration: duration, bounce: 0.2)
        } throws: { error in
            (error as? KinemaError)?.parameter == "duration" && !"\(error)".contains("response")
        }
    }

    /// It printed "The operation could not be completed. (Kinema.KinemaError error 1.)".
    @Test func localizedDescriptionIsTheMessage() {
        let error: any Error = KinemaError(parameter: "stiffness", value: "nan", rule: "a finite number > 0")
        #expect(error.localizedDescription == "stiffness must be a finite number > 0 (got nan).")
        let failure: any Error = SimulationError.tooManySteps(time: 1.5, limit: 1000)
        #expect(failure.localizedDescription == "\(failure)")
    }
}
