import Foundation
import Kinema
import KinemaTestSupport
import Testing

/// SwiftUI's `Spring` API on `DampedSpring`: the closed forms against the textbook formulas written
/// out here, the presets and the settling-duration dialect.
@Suite struct SpringMotionTests {
    /// x(t) from 0 towards `target` with `v0`, per regime, as a textbook writes it (unit mass).
    static func textbook(k: Double, c: Double, target: Double, v0: Double, t: Double) -> Double {
        let lambda = c / 2, omega0 = k.squareRoot(), a = -target
        let zeta = c / (2 * omega0)
        if abs(zeta - 1) < 1e-12 { return target + (a + (v0 + lambda * a) * t) * exp(-lambda * t) }
        if zeta < 1 {
            let wd = omega0 * (1 - zeta * zeta).squareRoot()
            return target + exp(-lambda * t) * (a * cos(wd * t) + (v0 + lambda * a) / wd * sin(wd * t))
        }
        let mu = omega0 * (zeta * zeta - 1).squareRoot()
        let r1 = -lambda + mu, r2 = -lambda - mu
        let c2 = (v0 - r1 * a) / (r2 - r1), c1 = a - c2
        return target + c1 * exp(r1 * t) + c2 * exp(r2 * t)
    }

    @Test(arguments: [0.2, 1.0, 2.5])
    func valueAndVelocityAreTheTextbookMotion(zeta: Double) throws {
        let spring = try DampedSpring(stiffness: 150, dampingRatio: zeta)
        let k = spring.stiffness, c = spring.damping
        for t in grid(0, 2, count: 201) {
            let value = spring.value(target: 3.0, initialVelocity: 4.0, time: t)
            #expect(abs(value - Self.textbook(k: k, c: c, target: 3, v0: 4, t: t)) <= 1e-12 * 3)
            // The velocity against the textbook curve's slope (6th-order difference, h = 1e-3:
            // truncation ~1e-12 of ω0⁷, well under 1e-6 here).
            let u = max(t, 0.01)
            let slope = firstDerivative({ Self.textbook(k: k, c: c, target: 3, v0: 4, t: $0) }, at: u, h: 1e-3)
            #expect(abs(spring.velocity(target: 3.0, initialVelocity: 4.0, time: u) - slope) <= 1e-6)
        }
    }

    @Test func presetsAreSwiftUIsParameters() {
        for (spring, bounce) in [(DampedSpring.smooth, 0.0), (.snappy, 0.15), (.bouncy, 0.3)] {
            #expect(abs(spring.response - 0.5) <= 1e-15)
            #expect(abs(spring.bounce - bounce) <= 1e-15)
            #expect(spring.mass == 1)
        }
    }

    @Test func presetFunctionsAddTheExtraBounce() throws {
        let spring = DampedSpring.snappy(duration: 0.8, extraBounce: 0.1)
        #expect(abs(spring.response - 0.8) <= 1e-15 && abs(spring.bounce - 0.25) <= 1e-15)
    }

    /// A preset's values are the app's constants (SwiftUI's presets do not throw either): a bounce
    /// past 1 or a duration of 0 stops the program; the same values as data throw.
    @Test func aPresetOutsideItsRangeIsAProgrammerError() async throws {
        await #expect(processExitsWith: .failure) { _ = DampedSpring.bouncy(extraBounce: 0.8) }
        await #expect(processExitsWith: .failure) { _ = DampedSpring.smooth(duration: 0) }
        #expect(throws: KinemaError.self) { try DampedSpring(duration: 0.5, bounce: 1.1) }
    }

    @Test(arguments: [0.3, 0.7, 1.0, 1.8])
    func settlingDurationInitializerRoundTrips(zeta: Double) throws {
        for duration in [0.25, 1.0, 3.0] {
            let spring = try DampedSpring(settlingDuration: duration, dampingRatio: zeta)
            #expect(abs(spring.settlingDuration - duration) <= 1e-9 * duration)
            #expect(abs(spring.dampingRatio - zeta) <= 1e-12)
            // The non-throwing property is the throwing method at its defaults.
            #expect(spring.settlingDuration == (try spring.settlingDuration(epsilon: 0.001)))
        }
        #expect(throws: KinemaError.self) { try DampedSpring(settlingDuration: 1, dampingRatio: 0) }
        #expect(throws: KinemaError.self) { try DampedSpring(settlingDuration: -1, dampingRatio: 0.5) }
    }

    @Test func undampedSpringNeverSettles() throws {
        #expect(try DampedSpring(stiffness: 10, damping: 0).settlingDuration == .infinity)
    }

    @Test func oscillatorDescriptionNamesTheParametersNotItsInternals() throws {
        let text = "\(try DampedHarmonicOscillator(stiffness: 100, damping: 4, target: 1, initialPosition: 0))"
        #expect(text.contains("stiffness: 100.0") && text.contains("underdamped"))
        #expect(!text.contains("kappa") && !text.contains("rootAbsKappa"))
    }
}
