import Foundation
import Testing

@testable import Kinema

/// Motion's (framer-motion's) time-based springs. The reference values are Motion's own: its
/// `findSpring` (framer-motion src/animation/generators/spring/find.ts, the 12-step Newton
/// iteration) run under Node for the (duration, bounce) grid of Motion's own findSpring test
/// (bounces 0, 0.5, 1 × durations 100, 500, 5000 ms), the pairs a peer's converter tests check
/// against it, and Motion's defaults 0.8 s / 0.25.
struct MotionDialectTests {
    /// (duration s, bounce, Motion's stiffness, Motion's damping).
    static let findSpring: [(Double, Double, Double, Double)] = [
        (0.1, 0, 8525.592442711775, 184.6682695290317),
        (0.1, 0.5, 16171.950159162776, 127.16898269296163),
        (0.1, 1, 612548.7145765256, 78.26549141074409),
        (0.5, 0, 341.02369770847105, 36.933653905806345),
        (0.5, 0.5, 646.8780063665112, 25.43379653859233),
        (0.5, 1, 24501.948583061036, 15.653098282148822),
        (5, 0, 3.4102369770847107, 3.6933653905806345),
        (5, 0.5, 6.468780063665111, 2.543379653859233),
        (5, 1, 245.0194858306104, 1.5653098282148823),
        (0.7, 0.25, 179.47897069718974, 20.095464266064543),
        (0.8, 0.4, 190.2142763013069, 16.55018301632589),
        (0.3, 0.4, 1352.634853698183, 44.133821376869044),
        (0.8, 0, 133.2123819173715, 23.083533691128963),
        (0.8, 1, 9571.073665258213, 9.783186426343011),
        (0.5, 1.5, 24501.948583061036, 15.653098282148822),
        (0.15, 0.2, 3595.438797111831, 95.93916468578558),
        (0.8, 0.6, 360.8386653603534, 15.196603101700925),
        (1, 0, 85.25592442711776, 18.466826952903173),
        (0.25, 1, 98007.79433224414, 31.306196564297643),
        (0.6, 0.8, 1964.5049588873253, 17.729094546027213),
        (0.1, 0.1, 7192.472940247247, 152.65520733470274),
        (0.8, 0.25, 137.41358694003588, 17.583531232806475)
    ]

    @Test func reproducesMotionsFindSpring() throws {
        for (duration, bounce, stiffness, damping) in Self.findSpring {
            let spring = try DampedSpring(motionDuration: duration, bounce: bounce)
            #expect(spring.mass == 1)
            #expect(abs(spring.stiffness - stiffness) <= 1e-6 * stiffness, "k for (\(duration), \(bounce))")
            #expect(abs(spring.damping - damping) <= 1e-6 * damping, "c for (\(duration), \(bounce))")
        }
    }

    /// Not SwiftUI's dialect: the same words give a different spring (the README's warning).
    @Test func motionsDurationIsNotSwiftUIs() throws {
        let motion = try DampedSpring(motionDuration: 0.8, bounce: 0.25),
            swiftUI = try DampedSpring(duration: 0.8, bounce: 0.25)
        #expect(abs(swiftUI.stiffness - 4 * .pi * .pi / 0.64) <= 1e-9)
        #expect(motion.stiffness / swiftUI.stiffness > 2)
    }

    /// visualDuration in closed form, as Motion's getSpringOptions writes it.
    @Test(arguments: [(0.3, 0.0), (0.5, 0.3), (1.2, 0.9), (0.4, 1.2), (0.6, -0.5)])
    func visualDurationIsClosedForm(_ visualDuration: Double, _ bounce: Double) throws {
        let spring = try DampedSpring(motionVisualDuration: visualDuration, bounce: bounce)
        let root = 2 * Double.pi / (visualDuration * 1.2)
        #expect(abs(spring.stiffness - root * root) <= 1e-12 * root * root)
        #expect(abs(spring.damping - 2 * min(max(1 - bounce, 0.05), 1) * root) <= 1e-12 * root)
    }

    /// Both ways: a spring made in Motion's dialect reads back its duration, visual duration and
    /// bounce; one outside Motion's damping range reads back nil.
    @Test(arguments: [(0.3, 0.0), (0.8, 0.25), (2.0, 0.5), (5.0, 0.9), (0.05, 0.7)])
    func convertsBothWays(_ duration: Double, _ bounce: Double) throws {
        let spring = try DampedSpring(motionDuration: duration, bounce: bounce)
        #expect(abs(try #require(spring.motionDuration) - duration) <= 1e-9 * duration)
        #expect(abs(try #require(spring.motionBounce) - bounce) <= 1e-12)
        let visual = try DampedSpring(motionVisualDuration: try #require(spring.motionVisualDuration), bounce: bounce)
        #expect(abs(visual.stiffness - spring.stiffness) <= 1e-9 * spring.stiffness)
        #expect(try DampedSpring(stiffness: 100, dampingRatio: 2).motionBounce == nil)
        #expect(try DampedSpring(stiffness: 100, dampingRatio: 0.01).motionDuration == nil)
    }

    @Test func badInputIsRefused() {
        for (duration, bounce) in [(0.005, 0.2), (11, 0.2), (Double.nan, 0.2), (0.5, Double.infinity)] {
            #expect(throws: KinemaError.self) { try DampedSpring(motionDuration: duration, bounce: bounce) }
        }
        for (visual, bounce) in [(0.0, 0.2), (-1, 0.2), (0.5, Double.nan)] {
            #expect(throws: KinemaError.self) { try DampedSpring(motionVisualDuration: visual, bounce: bounce) }
        }
    }
}
