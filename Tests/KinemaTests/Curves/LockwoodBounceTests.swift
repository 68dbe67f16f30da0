import KinemaTestSupport
import Testing

@testable import Kinema

struct SeedBounceTests {
    /// The seed's `bounceEaseOut`, as its listing writes it (in Double rather than float).
    static func seed(_ t: Double) -> Double {
        if t < 4 / 11.0 { return (121 * t * t) / 16.0 }
        if t < 8 / 11.0 { return (363 / 40.0 * t * t) - (99 / 10.0 * t) + 17 / 5.0 }
        if t < 9 / 10.0 { return (4356 / 361.0 * t * t) - (35442 / 1805.0 * t) + 16061 / 1805.0 }
        return (54 / 5.0 * t * t) - (513 / 25.0 * t) + 268 / 25.0
    }

    @Test func equalsTheSeedsPolynomials() {
        // The two evaluate the quadratics in different orders; coefficients up to ~20 round to ~4e-15.
        for t in grid(0, 1, count: 10_001) {
            #expect(abs(LockwoodBounce().value(at: t) - Self.seed(t)) <= 1e-14, "t = \(t)")
        }
    }

    @Test func differsFromPennersBounceByOneTwentiethAtSixElevenths() {
        let t = 6.0 / 11
        #expect(abs(PennerEasing(.bounce, .out).value(at: t) - 0.75) <= 1e-15)
        #expect(abs(LockwoodBounce().value(at: t) - 0.7) <= 1e-15)
        let gap = PennerEasing(.bounce, .out).value(at: t) - LockwoodBounce().value(at: t)
        #expect(abs(gap - 1.0 / 20) <= 1e-15)
        // and 1/20 is the largest gap over the whole curve
        let largest = grid(0, 1, count: 100_001).map {
            abs(PennerEasing(.bounce, .out).value(at: $0) - LockwoodBounce().value(at: $0))
        }.max()!
        #expect(abs(largest - 1.0 / 20) <= 1e-9)
    }

    /// The second derivative inside each arc is its effective gravity; a physical ball keeps one.
    @Test(arguments: [(0.2, 15.125), (6.0 / 11, 18.15), (0.81, 24.13), (0.95, 21.6)])
    func arcsHaveDifferentEffectiveGravities(midArc t: Double, gravity: Double) {
        let measured = secondDerivative({ Self.seed($0) }, at: t, h: 1e-3)
        #expect(abs(measured - gravity) <= 0.005, "measured \(measured)")
        let fromDerivative = firstDerivative({ LockwoodBounce().derivative(at: $0) }, at: t, h: 1e-3)
        #expect(abs(fromDerivative - gravity) <= 0.005)
    }

    @Test func pennersBounceHasOneGravityThroughout() {
        for t in [0.2, 6.0 / 11, 0.81, 0.95] {
            #expect(
                abs(secondDerivative({ PennerEasing(.bounce, .out).value(at: $0) }, at: t, h: 1e-3) - 15.125) <= 1e-6)
        }
    }
}
