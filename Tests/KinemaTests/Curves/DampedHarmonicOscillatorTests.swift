import Foundation
import KinemaTestSupport
import Testing

@testable import Kinema

/// The textbook solutions, one per regime, written independently of the unified implementation.
private func textbook(m: Double, k: Double, c: Double, target: Double, x0: Double, v0: Double, t: Double) -> Double {
    let w0 = sqrt(k / m), zeta = c / (2 * sqrt(k * m)), A = x0 - target
    if zeta < 1 {
        let wd = w0 * sqrt(1 - zeta * zeta)
        return target + exp(-zeta * w0 * t) * (A * cos(wd * t) + (v0 + zeta * w0 * A) / wd * sin(wd * t))
    } else if zeta == 1 {
        return target + exp(-w0 * t) * (A + (v0 + w0 * A) * t)
    } else {
        let r1 = -w0 * (zeta - sqrt(zeta * zeta - 1)), r2 = -w0 * (zeta + sqrt(zeta * zeta - 1))
        let c2 = (v0 - r1 * A) / (r2 - r1), c1 = A - c2
        return target + c1 * exp(r1 * t) + c2 * exp(r2 * t)
    }
}

struct OscillatorCase: CustomTestStringConvertible, Sendable {
    let m, k, c, target, x0, v0: Double
    var testDescription: String { "m=\(m) k=\(k) c=\(c) x0=\(x0)→\(target) v0=\(v0)" }
    var oscillator: DampedHarmonicOscillator {
        try! DampedHarmonicOscillator(
            mass: m, stiffness: k, damping: c, target: target, initialPosition: x0, initialVelocity: v0)
    }

    static let all: [OscillatorCase] = [
        .init(m: 1, k: 100, c: 2, target: 1, x0: 0, v0: 0),  // ζ = 0.1
        .init(m: 2, k: 300, c: 10, target: -3, x0: 2, v0: 7),  // underdamped with velocity
        .init(m: 1, k: 100, c: 20, target: 1, x0: 0, v0: 0),  // critical
        .init(m: 1, k: 100, c: 20, target: 1, x0: 0, v0: 15),  // critical, overshoots
        .init(m: 0.5, k: 50, c: 40, target: 0, x0: 1, v0: -30),  // overdamped, crosses
        .init(m: 1, k: 1000, c: 400, target: 1, x0: 0, v0: 3),  // heavily overdamped
        .init(m: 1, k: 170, c: 26, target: 1, x0: 0, v0: 0),  // framer-motion-like
        .init(m: 1, k: 925, c: 10, target: 1, x0: 0, v0: 5)  // the jelly spring
    ]
}

struct DampedHarmonicOscillatorTests {
    /// `positions(at:)` rotates a block's first value by its offsets' factors: against
    /// `position(at:)` at each time, within 4e-15·(1 + (ω + λ)·t) of the displacement's amplitude
    /// √(a² + (c/ω)²) (the arguments ω·t and λ·t themselves are rounded to about 1.1e-16·(ω + λ)·t),
    /// on sample grids like a sweep's (60 Hz with the duration as the last time, 1 kHz), and on
    /// uneven times, where a block's offsets differ from the first block's and are evaluated alone.
    @Test(arguments: OscillatorCase.all)
    func positionsAtManyTimesAreEachPositionAt(_ s: OscillatorCase) {
        let o = s.oscillator, omega = o.rootAbsKappa, lambda = o.decayRate
        let amplitude = omega > 0 ? (o.a * o.a + (o.c / omega) * (o.c / omega)).squareRoot() : abs(o.a) + abs(o.c)
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func random() -> Double {
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
            return Double(seed >> 11) / Double(1 << 53)
        }
        func grid(_ count: Int, rate: Double, last: Double) -> [Double] {
            (0...count).map { $0 == count ? last : Double($0) / rate }
        }
        let uneven: [Double] = (0..<200).map { _ in 3 * random() }.sorted()
        let grids: [[Double]] = [
            grid(120, rate: 60, last: 2), grid(600, rate: 60, last: 10.01), grid(3000, rate: 1000, last: 3), uneven
        ]
        for times in grids {
            for (t, x) in zip(times, o.positions(at: times)) {
                let bound = 4e-15 * (1 + (omega + lambda) * t) * amplitude
                #expect(abs(x - o.position(at: t)) <= bound, "t = \(t)")
            }
        }
    }

    @Test(arguments: OscillatorCase.all)
    func startsAtTheInitialState(_ s: OscillatorCase) {
        #expect(abs(s.oscillator.position(at: 0) - s.x0) <= 1e-15 * max(1, abs(s.x0), abs(s.target)))
        #expect(abs(s.oscillator.velocity(at: 0) - s.v0) <= 1e-13 * max(1, abs(s.v0)))
    }

    @Test(arguments: OscillatorCase.all)
    func matchesTheTextbookSolution(_ s: OscillatorCase) {
        for t in grid(0, 3, count: 3_001) {
            let expected = textbook(m: s.m, k: s.k, c: s.c, target: s.target, x0: s.x0, v0: s.v0, t: t)
            #expect(
                abs(s.oscillator.position(at: t) - expected) <= 1e-12 * max(1, abs(s.x0 - s.target) + abs(s.v0)),
                "t = \(t)")
        }
    }

    /// Residual of m·x'' + c·x' + k·(x − target), relative to k × the motion's scale, with x'' and
    /// x' taken by 6th-order differences of the position alone.
    @Test(arguments: OscillatorCase.all)
    func satisfiesTheODE(_ s: OscillatorCase) {
        let o = s.oscillator
        let scale = s.k * (abs(s.x0 - s.target) + abs(s.v0) / sqrt(s.k / s.m))
        let h = 0.02 / sqrt(s.k / s.m)
        for t in grid(0.1, 2, count: 200) {
            let x = o.position(at:)
            let residual =
                s.m * secondDerivative(x, at: t, h: h) + s.c * firstDerivative(x, at: t, h: h) + s.k * (x(t) - s.target)
            #expect(abs(residual) / scale <= 1e-8, "t = \(t): residual \(residual)")
            #expect(abs(o.velocity(at: t) - firstDerivative(x, at: t, h: h)) <= 1e-8 * scale / s.k * sqrt(s.k / s.m))
        }
    }

    @Test(arguments: [0.0, 4.0, -12.0])
    func isContinuousAcrossCriticalDamping(v0: Double) throws {
        let k = 100.0, critical = 2 * sqrt(k)
        let below = try DampedHarmonicOscillator(stiffness: k, damping: critical * (1 - 1e-9), initialVelocity: v0)
        let at = try DampedHarmonicOscillator(stiffness: k, damping: critical, initialVelocity: v0)
        let above = try DampedHarmonicOscillator(stiffness: k, damping: critical * (1 + 1e-9), initialVelocity: v0)
        #expect(below.regime == .underdamped && at.regime == .critical && above.regime == .overdamped)
        for t in grid(0, 3, count: 3_001) {
            // ∂x/∂ζ is O(1) here, so a 1e-9 change in ζ may move x by ~1e-9, and no more.
            #expect(abs(below.position(at: t) - at.position(at: t)) <= 1e-8)
            #expect(abs(above.position(at: t) - at.position(at: t)) <= 1e-8)
            #expect(abs(below.velocity(at: t) - at.velocity(at: t)) <= 1e-7)
            #expect(abs(above.velocity(at: t) - at.velocity(at: t)) <= 1e-7)
        }
    }

    @Test func doesNotOverflowWhenHeavilyOverdamped() throws {
        let o = try DampedHarmonicOscillator(stiffness: 1, damping: 1e6, initialVelocity: 1)
        for t in [0.0, 1, 1e3, 1e6, 1e9] {
            #expect(o.position(at: t).isFinite && o.velocity(at: t).isFinite)
        }
    }

    @Test func rejectsInvalidParameters() {
        #expect(throws: KinemaError.self) { try DampedHarmonicOscillator(mass: 0, stiffness: 1, damping: 1) }
        #expect(throws: KinemaError.self) { try DampedHarmonicOscillator(stiffness: -1, damping: 1) }
        #expect(throws: KinemaError.self) { try DampedHarmonicOscillator(stiffness: 1, damping: .nan) }
        #expect(throws: KinemaError.self) {
            try DampedHarmonicOscillator(stiffness: 1, damping: 1, initialVelocity: .infinity)
        }
    }
}

struct DampedCosineTests {
    /// The identity 1 − e^(−a t)cos(b t) = spring(m 1, k a²+b², c 2a) from 0 to 1 with v0 = a.
    @Test func seedCurveIsTheSpringK925C10V5() throws {
        let curve = try DampedCosine(decay: 5, frequency: 30)
        let spring = try DampedHarmonicOscillator(
            mass: 1, stiffness: 925, damping: 10, target: 1, initialPosition: 0, initialVelocity: 5)
        for t in grid(0, 2, count: 20_001) {
            #expect(abs(curve.value(at: t) - spring.position(at: t)) <= 1e-12, "t = \(t)")
            #expect(abs(curve.derivative(at: t) - spring.velocity(at: t)) <= 1e-10, "t = \(t)")
        }
        #expect(curve.spring.stiffness == 925 && curve.spring.damping == 10 && curve.spring.mass == 1)
        #expect(curve.initialVelocity == 5)
    }

    @Test(arguments: [(1.0, 2.0), (0.3, 17.0), (12.0, 4.0)])
    func identityHoldsForOtherParameters(a: Double, b: Double) throws {
        let curve = try DampedCosine(decay: a, frequency: b)
        let motion = try curve.spring.motion(from: 0, to: 1, initialVelocity: curve.initialVelocity)
        for t in grid(0, 5, count: 2_001) {
            #expect(abs(curve.value(at: t) - motion.position(at: t)) <= 1e-12)
        }
    }

    /// Down to the smallest subnormal tolerance, the settling time lies where the envelope says:
    /// `A·e^(−λT) ≤ tol` bounds it above, and the last extremum above the tolerance is at most half
    /// a period before it. At 1e-309 the ratio amplitude / tolerance overflowed and gave infinity.
    @Test(arguments: [1e-250, 1e-300, 1e-308, 1e-309, 1e-320, 5e-324])
    func settlingAtTinyTolerancesFollowsTheEnvelope(_ tolerance: Double) throws {
        let (m, k, c) = (1.0, 100.0, 10.0)
        let motion = try DampedHarmonicOscillator(mass: m, stiffness: k, damping: c, target: 1, initialPosition: 0)
        let lambda = c / (2 * m), wd = (k / m - lambda * lambda).squareRoot()
        let amplitude = (1 + (lambda / wd) * (lambda / wd)).squareRoot()  // of e^(−λt)(cos + λ/ωd sin)
        let envelope = (log(amplitude) - log(tolerance)) / lambda
        let settling = try motion.settlingDuration(tolerance: tolerance)
        #expect(settling.isFinite)
        #expect(settling <= envelope * (1 + 1e-12) && settling >= envelope - .pi / wd, "\(settling) vs \(envelope)")
    }
}
